import { AnthropicBedrock } from '@anthropic-ai/bedrock-sdk';
import { AnthropicVertex } from '@anthropic-ai/vertex-sdk';
import { Sha256 } from '@aws-crypto/sha256-js';
import { HttpRequest } from '@smithy/protocol-http';
import { SignatureV4 } from '@smithy/signature-v4';
import { OAuth2Client } from 'google-auth-library';
import path from 'node:path';
import { runSession, type SessionOutcome } from '../../src/agent/session.js';
import { parseAgentConfig } from '../../src/config/inputs.js';
import { EXIT } from '../../src/cli/exit-codes.js';
import {
  reply,
  scriptFrom,
  startFakeAnthropic,
  text,
  toolResultTexts,
  toolUse,
  type FakeAnthropic
} from '../../test-support/fake-anthropic/index.js';
import {
  startFakeBedrock,
  type AwsTestCredentials,
  type FakeBedrock
} from '../../test-support/fake-bedrock/index.js';
import { startFakeVertex, type FakeVertex } from '../../test-support/fake-vertex/index.js';
import { cliInProcess } from '../support/cli.js';
import { createTempRepo, type TempRepo } from '../support/temp-repo.js';

/**
 * Bedrock and Vertex end to end: runSession builds the real @anthropic-ai/bedrock-sdk or
 * @anthropic-ai/vertex-sdk client from the inputs (model/provider-client.ts), which talks to a loopback
 * fake of the cloud endpoint, whose content comes from the fake Anthropic server's reply engine.
 */
const AWS: AwsTestCredentials = {
  accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  sessionToken: 'IQoJb3JpZ2luX2VjEXAMPLESESSIONTOKENfortests'
};
const GOOGLE_TOKEN = 'ya29.a0AfB_test-access-token-for-the-fake';
const CREDENTIALS_FILE = '/tmp/compact-agent-test/gha-creds-0123456789abcdef.json';
/** Variables the bash tool must never see, whatever bash_env_passthrough says. */
const CLOUD_SECRETS = {
  AWS_ACCESS_KEY_ID: AWS.accessKeyId,
  AWS_SECRET_ACCESS_KEY: AWS.secretAccessKey,
  AWS_SESSION_TOKEN: AWS.sessionToken!,
  GOOGLE_APPLICATION_CREDENTIALS: CREDENTIALS_FILE
};
const PASSTHROUGH = `${Object.keys(CLOUD_SECRETS).join(',')},VISIBLE_MARKER`;

let repo: TempRepo;
let anthropic: FakeAnthropic | undefined;
let bedrock: FakeBedrock | undefined;
let vertex: FakeVertex | undefined;
const savedEnv = { ...process.env };

beforeEach(() => {
  repo = createTempRepo(path.resolve('examples/word-stats'));
  // What aws-actions/configure-aws-credentials exports; the SDK's default chain reads process.env.
  Object.assign(process.env, CLOUD_SECRETS, {
    VISIBLE_MARKER: 'marker-4711',
    AWS_EC2_METADATA_DISABLED: 'true'
  });
  delete process.env.AWS_PROFILE;
  delete process.env.AWS_BEARER_TOKEN_BEDROCK;
});
afterEach(async () => {
  await Promise.all([anthropic?.close(), bedrock?.close(), vertex?.close()]);
  anthropic = bedrock = vertex = undefined;
  process.env = { ...savedEnv };
  repo.remove();
});

/** Two tool turns (the second prints the shell's environment), then a closing answer. */
function toolScript() {
  return scriptFrom([
    reply(text('Looking at the tests first.'), toolUse('bash', { command: 'ls' })),
    reply(toolUse('bash', { command: 'env | sort' })),
    reply(text('Done: the environment is clean.'))
  ]);
}

/** The run's one-line notices (the context-editing fallback among them). */
let notices: string[] = [];

async function run(inputs: Record<string, string>, env: NodeJS.ProcessEnv): Promise<SessionOutcome> {
  const config = parseAgentConfig((name) => inputs[name] ?? '', env);
  notices = [];
  return runSession({
    onNotice: (line) => notices.push(line),
    config,
    task: 'Look at the repository and report.',
    repoDir: repo.root,
    transcriptsDir: path.join(repo.root, '.transcripts'),
    runId: 'cloud-run',
    env: process.env
  });
}

/** What the model was sent back from `env | sort`: the bash tool's environment. */
function shellEnvironmentSeen(): string {
  const last = anthropic!.requests.filter((r) => r.path === '/v1/messages').at(-1)!;
  return toolResultTexts(last.request!).join('\n');
}

function expectCleanShell(): void {
  const seen = shellEnvironmentSeen();
  expect(seen).toContain('VISIBLE_MARKER=marker-4711'); // passthrough works, and this is the env output
  for (const [name, value] of Object.entries(CLOUD_SECRETS)) {
    expect(seen).not.toContain(`${name}=`);
    expect(seen).not.toContain(value);
  }
}

/** Every answered call, priced from the catalogue row (Sonnet 5.5: $2 input, $10 output per MTok). */
function expectCatalogueCost(outcome: SessionOutcome, input: number, output: number): void {
  const { usage, costUsd } = outcome.result;
  expect(usage.input).toBeGreaterThan(0);
  expect(costUsd).toBeCloseTo((usage.input * input + usage.output * output) / 1e6, 9);
  expect(costUsd).toBeCloseTo(anthropic!.totalBilledUsd, 9);
}

describe('Amazon Bedrock through @anthropic-ai/bedrock-sdk', () => {
  async function startBedrock(models: Record<string, string>, credentials: AwsTestCredentials = AWS) {
    anthropic = await startFakeAnthropic({ script: toolScript() });
    bedrock = await startFakeBedrock({ inner: anthropic, region: 'eu-west-1', credentials, models });
  }

  it('maps the model, signs every request with SigV4 and the session token, and prices from the catalogue', async () => {
    await startBedrock({ 'anthropic.claude-sonnet-5-5': 'claude-sonnet-5-5' });
    const outcome = await run(
      { use_bedrock: 'true', aws_region: 'eu-west-1', bash_env_passthrough: PASSTHROUGH },
      { ANTHROPIC_BEDROCK_BASE_URL: bedrock!.url }
    );
    expect(outcome.result.error).toBeUndefined();
    expect(outcome.result.stopReason).toBe('success');
    expect(outcome.result.turns).toBe(3);

    expect(bedrock!.requests).toHaveLength(3);
    for (const request of bedrock!.requests) {
      expect(request.rejected).toBeUndefined();
      expect(request.rawPath).toBe('/model/anthropic.claude-sonnet-5-5/invoke-with-response-stream');
      expect(request.headers.authorization).toMatch(
        /^AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE\/\d{8}\/eu-west-1\/bedrock\/aws4_request, SignedHeaders=[a-z0-9;-]*x-amz-security-token[a-z0-9;-]*, Signature=[0-9a-f]{64}$/
      );
      expect(request.headers['x-amz-security-token']).toBe(AWS.sessionToken);
      expect(request.headers['x-api-key']).toBeUndefined();
      const body = request.body as Record<string, unknown>;
      expect(body.anthropic_version).toBe('bedrock-2023-05-31');
      expect(body).not.toHaveProperty('model');
      expect(body).not.toHaveProperty('stream');
      // No context editing through this client: our micro layer clears (said once, below).
      expect(body).not.toHaveProperty('context_management');
    }
    expect(notices.filter((line) => line.includes('Context editing is not available'))).toEqual([
      expect.stringContaining('through the bedrock client: our micro layer clears old tool results instead')
    ]);
    // The content came from the reply engine, as the first-party model id.
    expect(anthropic!.requests.map((r) => r.request?.model)).toEqual([
      'claude-sonnet-5-5',
      'claude-sonnet-5-5',
      'claude-sonnet-5-5'
    ]);
    expectCatalogueCost(outcome, 2, 10);
    expectCleanShell();
  });

  it('passes an inference profile through and prices it by the catalogue row it names', async () => {
    await startBedrock({ 'global.anthropic.claude-sonnet-5-5': 'claude-sonnet-5-5' });
    const outcome = await run(
      { use_bedrock: 'true', model: 'global.anthropic.claude-sonnet-5-5' },
      { ANTHROPIC_BEDROCK_BASE_URL: bedrock!.url, AWS_REGION: 'eu-west-1' }
    );
    expect(outcome.result.stopReason).toBe('success');
    expect(bedrock!.requests.map((r) => r.modelId)).toEqual(
      Array(3).fill('global.anthropic.claude-sonnet-5-5')
    );
    expectCatalogueCost(outcome, 2, 10);
  });

  it('signs a versioned model id, whose colon the canonical path encodes', async () => {
    await startBedrock({ 'anthropic.claude-haiku-4-5-20251001-v1:0': 'claude-haiku-4-5' });
    const outcome = await run(
      { use_bedrock: 'true', aws_region: 'eu-west-1', model: 'claude-haiku-4-5' },
      { ANTHROPIC_BEDROCK_BASE_URL: bedrock!.url }
    );
    expect(outcome.result.error).toBeUndefined();
    expect(bedrock!.requests[0]!.rawPath).toBe(
      '/model/anthropic.claude-haiku-4-5-20251001-v1:0/invoke-with-response-stream'
    );
    // Haiku 4.5: $1 input, $5 output per MTok.
    expectCatalogueCost(outcome, 1, 5);
  });

  it('runs from the command line with --use-bedrock, and refuses --use-bedrock with --use-vertex before any call', async () => {
    await startBedrock({ 'anthropic.claude-sonnet-5-5': 'claude-sonnet-5-5' });
    const cli = (...flags: string[]) =>
      cliInProcess(['run', '--repo', repo.root, '--prompt', 'Look around.', ...flags], {
        ...process.env,
        ANTHROPIC_BEDROCK_BASE_URL: bedrock!.url
      });
    const refused = await cli('--use-bedrock', '--use-vertex', '--aws-region', 'eu-west-1');
    expect(refused.code).toBe(EXIT.usage);
    expect(refused.stderr).toContain('--use-bedrock and --use-vertex are both set');
    expect(bedrock!.requests).toHaveLength(0);
    expect((await cli('--use-bedrock', '--aws-region', 'eu-west-1')).code).toBe(EXIT.success);
    expect(bedrock!.requests.map((r) => r.rejected)).toEqual([undefined, undefined, undefined]);
  });

  it('is refused by the fake when the secret key is not the account’s (the signature is checked)', async () => {
    await startBedrock(
      { 'anthropic.claude-sonnet-5-5': 'claude-sonnet-5-5' },
      { ...AWS, secretAccessKey: 'another-secret-key-entirely-000000000000' }
    );
    const outcome = await run(
      { use_bedrock: 'true', aws_region: 'eu-west-1', api_max_retries: '0' },
      { ANTHROPIC_BEDROCK_BASE_URL: bedrock!.url }
    );
    expect(outcome.result.stopReason).toBe('error_during_execution');
    expect(bedrock!.requests[0]!.rejected).toMatch(
      /^InvalidSignatureException: The request signature we calculated/
    );
    expect(anthropic!.requests).toHaveLength(0);
  });
});

describe('Google Vertex AI through @anthropic-ai/vertex-sdk', () => {
  async function startVertex(accessToken = GOOGLE_TOKEN) {
    anthropic = await startFakeAnthropic({ script: toolScript() });
    vertex = await startFakeVertex({
      inner: anthropic,
      project: 'agent-project',
      region: 'us-east5',
      accessToken,
      models: { 'claude-sonnet-5-5': 'claude-sonnet-5-5' }
    });
  }

  it('sends the bearer token, the project, region and model in the path, and prices from the catalogue', async () => {
    await startVertex();
    const outcome = await run(
      {
        use_vertex: 'true',
        vertex_project_id: 'agent-project',
        vertex_region: 'us-east5',
        vertex_access_token: GOOGLE_TOKEN,
        bash_env_passthrough: PASSTHROUGH
      },
      { ANTHROPIC_VERTEX_BASE_URL: `${vertex!.url}/v1` }
    );
    expect(outcome.result.error).toBeUndefined();
    expect(outcome.result.stopReason).toBe('success');
    expect(vertex!.requests).toHaveLength(3);
    for (const request of vertex!.requests) {
      expect(request.rejected).toBeUndefined();
      expect(request.rawPath).toBe(
        '/v1/projects/agent-project/locations/us-east5/publishers/anthropic/models/claude-sonnet-5-5:streamRawPredict'
      );
      expect(request.headers.authorization).toBe(`Bearer ${GOOGLE_TOKEN}`);
      const body = request.body as Record<string, unknown>;
      expect(body.anthropic_version).toBe('vertex-2023-10-16');
      expect(body).not.toHaveProperty('model');
      expect(body).not.toHaveProperty('context_management');
    }
    expect(notices.filter((line) => line.includes('Context editing is not available'))).toEqual([
      expect.stringContaining('through the vertex client: our micro layer clears old tool results instead')
    ]);
    expectCatalogueCost(outcome, 2, 10);
    expectCleanShell();
  });

  it('is refused by the fake with another token (the token is checked)', async () => {
    await startVertex('ya29.the-only-token-this-fake-accepts');
    const outcome = await run(
      {
        use_vertex: 'true',
        vertex_project_id: 'agent-project',
        vertex_region: 'us-east5',
        vertex_access_token: GOOGLE_TOKEN,
        api_max_retries: '0'
      },
      { ANTHROPIC_VERTEX_BASE_URL: `${vertex!.url}/v1` }
    );
    expect(outcome.result.stopReason).toBe('error_during_execution');
    expect(vertex!.requests[0]!.rejected).toMatch(/^UNAUTHENTICATED/);
    expect(anthropic!.requests).toHaveLength(0);
  });
});

describe('the fakes refuse what the clouds refuse', () => {
  const request = {
    model: 'claude-sonnet-5-5',
    max_tokens: 64,
    messages: [{ role: 'user' as const, content: 'hi' }]
  };

  it('Bedrock: the SDK left to its default API version (2026-10-21 in the body) is a 400', async () => {
    anthropic = await startFakeAnthropic({});
    bedrock = await startFakeBedrock({
      inner: anthropic,
      region: 'eu-west-1',
      credentials: AWS,
      models: { 'claude-sonnet-5-5': 'claude-sonnet-5-5' }
    });
    const client = new AnthropicBedrock({ awsRegion: 'eu-west-1', baseURL: bedrock.url, maxRetries: 0 });
    await expect(client.messages.stream(request).finalMessage()).rejects.toMatchObject({ status: 400 });
    expect(bedrock.requests[0]!.rejected).toMatch(
      /anthropic_version: "2026-10-21" is not a valid enum value/
    );
    expect(anthropic.requests).toHaveLength(0);
  });

  it('Vertex: the same, and a request without a token is a 401', async () => {
    anthropic = await startFakeAnthropic({});
    vertex = await startFakeVertex({
      inner: anthropic,
      project: 'p',
      region: 'global',
      accessToken: GOOGLE_TOKEN,
      models: { 'claude-sonnet-5-5': 'claude-sonnet-5-5' }
    });
    const authClient = new OAuth2Client();
    authClient.setCredentials({ access_token: GOOGLE_TOKEN });
    const client = new AnthropicVertex({
      projectId: 'p',
      region: 'global',
      baseURL: `${vertex.url}/v1`,
      authClient,
      maxRetries: 0
    });
    await expect(client.messages.stream(request).finalMessage()).rejects.toMatchObject({ status: 400 });
    expect(vertex.requests[0]!.rejected).toMatch(/anthropic_version: Input should be 'vertex-2023-10-16'/);
    const anonymous = await fetch(
      `${vertex.url}/v1/projects/p/locations/global/publishers/anthropic/models/claude-sonnet-5-5:streamRawPredict`,
      { method: 'POST', body: JSON.stringify({ anthropic_version: 'vertex-2023-10-16', stream: true }) }
    );
    expect(anonymous.status).toBe(401);
    expect(anthropic.requests).toHaveLength(0);
  });
});

describe('the Bedrock fake reads the body as InvokeModel does', () => {
  /** A request signed by AWS's own signer (the one the SDK uses), with any body we like. */
  async function signedPost(url: string, body: Record<string, unknown>): Promise<Response> {
    const target = new URL(url);
    const signer = new SignatureV4({
      service: 'bedrock',
      region: 'eu-west-1',
      credentials: AWS,
      sha256: Sha256
    });
    const signed = await signer.sign(
      new HttpRequest({
        method: 'POST',
        protocol: 'http:',
        hostname: target.hostname,
        port: Number(target.port),
        path: target.pathname,
        headers: { host: target.host, 'content-type': 'application/json' },
        body: JSON.stringify(body)
      })
    );
    return fetch(url, { method: 'POST', headers: signed.headers, body: signed.body as string });
  }

  it('refuses a body that names the model or asks to stream, and accepts the same body without them', async () => {
    anthropic = await startFakeAnthropic({});
    bedrock = await startFakeBedrock({
      inner: anthropic,
      region: 'eu-west-1',
      credentials: AWS,
      models: { 'anthropic.claude-sonnet-5-5': 'claude-sonnet-5-5' }
    });
    const url = `${bedrock.url}/model/anthropic.claude-sonnet-5-5/invoke-with-response-stream`;
    const body = {
      anthropic_version: 'bedrock-2023-05-31',
      max_tokens: 32,
      messages: [{ role: 'user', content: 'hi' }]
    };
    const withModel = await signedPost(url, { ...body, model: 'claude-sonnet-5-5' });
    expect(withModel.status).toBe(400);
    expect(await withModel.json()).toEqual({
      message:
        'Malformed input request: #: extraneous key [model] is not permitted, please reformat your input and try again.'
    });
    expect((await signedPost(url, { ...body, stream: true })).status).toBe(400);
    const plain = await signedPost(url, body);
    expect(plain.status).toBe(200);
    expect(plain.headers.get('content-type')).toBe('application/vnd.amazon.eventstream');
    await plain.arrayBuffer();
    expect(anthropic.requests).toHaveLength(1);
  });
});
