import Anthropic from '@anthropic-ai/sdk';
import { AnthropicBedrock } from '@anthropic-ai/bedrock-sdk';
import { AnthropicVertex } from '@anthropic-ai/vertex-sdk';
import { OAuth2Client } from 'google-auth-library';
import type { AgentConfig } from '../config/inputs.js';
import type { MessagesStreamer } from './messages-streamer.js';
import type { CompactionCapabilityLookup } from '../compaction/engine-choice.js';

/**
 * The API version each cloud takes in the body, as its docs require ("Claude on Amazon Bedrock
 * (legacy)": InvokeModel with `anthropic_version` "bedrock-2023-05-31"; "Claude on Vertex AI":
 * "vertex-2023-10-16"). The SDKs copy the `anthropic-version` header into the body, and by default
 * that header is the first-party API's 2026-10-21, which the ARN-versioned Bedrock models answer with
 * a 400 (the Bedrock page's warning).
 */
export const BEDROCK_ANTHROPIC_VERSION = 'bedrock-2023-05-31';
export const VERTEX_ANTHROPIC_VERSION = 'vertex-2023-10-16';

/** Long replies stream for minutes; a request is abandoned only after this. */
export const REQUEST_TIMEOUT_MS = 10 * 60_000;

/** What building an SDK client takes from the run's config: where the model runs, the key, the retries. */
export type SdkConnection = Pick<AgentConfig, 'provider' | 'apiKey' | 'baseURL' | 'apiMaxRetries'>;

/**
 * The only place an SDK client is built, for the run's provider. Credentials come from where each
 * SDK looks: the Anthropic key from the config, AWS from the default credential chain
 * (AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY / AWS_SESSION_TOKEN as configure-aws-credentials exports
 * them, then profiles, web identity, IMDS), Google from the given access token or else Application
 * Default Credentials.
 */
export function createSdkClient(connection: SdkConnection): MessagesStreamer {
  // maxRetries: the SDK's own retries of HTTP statuses (429, 5xx, 529), honouring retry-after.
  const common = { maxRetries: connection.apiMaxRetries, timeout: REQUEST_TIMEOUT_MS };
  const { provider } = connection;
  switch (provider.kind) {
    case 'anthropic':
      return new Anthropic({
        apiKey: connection.apiKey,
        // The SDK reads ANTHROPIC_BASE_URL itself only when this is undefined.
        ...(connection.baseURL !== undefined ? { baseURL: connection.baseURL } : {}),
        ...common
      });
    case 'bedrock':
      return new AnthropicBedrock({
        awsRegion: provider.awsRegion,
        ...(provider.baseURL !== undefined ? { baseURL: provider.baseURL } : {}),
        defaultHeaders: { 'anthropic-version': BEDROCK_ANTHROPIC_VERSION },
        ...common
      });
    case 'vertex':
      return new AnthropicVertex({
        projectId: provider.projectId,
        region: provider.region,
        ...(provider.baseURL !== undefined ? { baseURL: provider.baseURL } : {}),
        ...(provider.accessToken !== undefined
          ? { authClient: accessTokenClient(provider.accessToken) }
          : {}),
        defaultHeaders: { 'anthropic-version': VERTEX_ANTHROPIC_VERSION },
        ...common
      });
  }
}

/**
 * The Models API on the Claude API, for `compaction_engine: auto`: `capabilities.compaction` of one
 * model (SDK 1.12 BetaModelInfo: `{supported, summarize: {supported}}`).
 */
export function createCompactionCapabilityLookup(connection: SdkConnection): CompactionCapabilityLookup {
  const client = new Anthropic({
    apiKey: connection.apiKey,
    ...(connection.baseURL !== undefined ? { baseURL: connection.baseURL } : {}),
    maxRetries: connection.apiMaxRetries,
    timeout: 30_000
  });
  return {
    async supportsOnDemandCompaction(model: string): Promise<boolean> {
      const info = await client.beta.models.retrieve(model);
      const compaction = info.capabilities?.compaction;
      return compaction?.supported === true && compaction.summarize?.supported === true;
    }
  };
}

/** A Google auth client that only presents the token it was given (no refresh, no file, no network). */
function accessTokenClient(accessToken: string): OAuth2Client {
  const client = new OAuth2Client();
  client.setCredentials({ access_token: accessToken });
  return client;
}
