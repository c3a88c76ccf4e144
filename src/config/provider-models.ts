import { findModel } from './model-catalog.js';

/** Where the model runs: Anthropic's API, Amazon Bedrock or Google Vertex AI. */
export type ProviderKind = 'anthropic' | 'bedrock' | 'vertex';

export const PROVIDER_NAMES: Readonly<Record<ProviderKind, string>> = {
  anthropic: 'the Anthropic API',
  bedrock: 'Amazon Bedrock',
  vertex: 'Google Vertex AI'
};

/**
 * The provider's id of each catalogue model, read on 2026-11-23 through the search tool (corpus docs
 * and pages). A model missing from a table is one we found on no official page for that provider:
 * it is refused with the list below, and a provider id given as the model passes through instead.
 *
 * Bedrock (base model ids; `global.` / `us.` / `eu.` / `jp.` / `apac.` inference profiles and ARNs
 * may be given as the model):
 * - https://platform.claude.com/docs/en/build-with-claude/claude-on-amazon-bedrock-legacy ("API model
 *   IDs", the ARN-versioned table: Opus 4.6 and earlier, Sonnet 4.6 and earlier, Haiku 4.5)
 * - node_modules/@anthropic-ai/bedrock-sdk/README.md 1.1.3 (Anthropic's own example calls
 *   `global.anthropic.claude-sonnet-5-5`, so the base id is `anthropic.claude-sonnet-5-5`)
 * Claude Opus 4.7 "does not have an ARN-versioned model ID" (same page), and for Opus 4.8, Opus 5,
 * Sonnet 5, the 5.5 Opus and Haiku, Fable and Mythos we found only third-party lists, so they are not
 * mapped.
 *
 * Vertex AI (model names in the endpoint path, without the `@date` suffix the older pages used):
 * - Google Cloud, "Request predictions with Claude models"
 *   (https://cloud.google.com/vertex-ai/generative-ai/docs/partner-models/claude/use-claude; the
 *   current list read from its mirror documentation.s3ns.fr/gemini-enterprise-agent-platform/models/
 *   partner-models/claude/use-claude): every model below, and no Fable 5.2 and no Mythos.
 */
export const BEDROCK_MODEL_IDS: Readonly<Record<string, string>> = {
  'claude-sonnet-5-5': 'anthropic.claude-sonnet-5-5',
  'claude-opus-4-6': 'anthropic.claude-opus-4-6-v1',
  'claude-sonnet-4-6': 'anthropic.claude-sonnet-4-6',
  'claude-opus-4-5': 'anthropic.claude-opus-4-5-20251101-v1:0',
  'claude-sonnet-4-5': 'anthropic.claude-sonnet-4-5-20250929-v1:0',
  'claude-opus-4-1': 'anthropic.claude-opus-4-1-20250805-v1:0',
  'claude-sonnet-4-0': 'anthropic.claude-sonnet-4-20250514-v1:0',
  'claude-opus-4-0': 'anthropic.claude-opus-4-20250514-v1:0',
  'claude-haiku-4-5': 'anthropic.claude-haiku-4-5-20251001-v1:0'
};

export const VERTEX_MODEL_IDS: Readonly<Record<string, string>> = {
  'claude-sonnet-5-5': 'claude-sonnet-5-5',
  'claude-opus-5-5': 'claude-opus-5-5',
  'claude-haiku-5-5': 'claude-haiku-5-5',
  'claude-fable-5-1': 'claude-fable-5-1',
  'claude-fable-5': 'claude-fable-5',
  'claude-sonnet-5': 'claude-sonnet-5',
  'claude-opus-5': 'claude-opus-5',
  'claude-opus-4-8': 'claude-opus-4-8',
  'claude-opus-4-7': 'claude-opus-4-7',
  'claude-opus-4-6': 'claude-opus-4-6',
  'claude-sonnet-4-6': 'claude-sonnet-4-6',
  'claude-opus-4-5': 'claude-opus-4-5',
  'claude-opus-4-1': 'claude-opus-4-1',
  'claude-opus-4-0': 'claude-opus-4',
  'claude-sonnet-4-5': 'claude-sonnet-4-5',
  'claude-sonnet-4-0': 'claude-sonnet-4',
  'claude-haiku-4-5': 'claude-haiku-4-5'
};

export const PROVIDER_MODEL_SOURCES_CHECKED_ON = '2026-11-23';

const TABLES: Readonly<Record<Exclude<ProviderKind, 'anthropic'>, Readonly<Record<string, string>>>> = {
  bedrock: BEDROCK_MODEL_IDS,
  vertex: VERTEX_MODEL_IDS
};

/** The id sent to the provider, and the catalogue row that prices it (undefined: not one we know). */
export interface ProviderModel {
  readonly requestModel: string;
  readonly catalogueId: string | undefined;
}

/** A catalogue model the provider does not serve (by the tables above). */
export class ModelNotOnProviderError extends Error {
  constructor(
    readonly model: string,
    readonly provider: Exclude<ProviderKind, 'anthropic'>
  ) {
    const served = Object.keys(TABLES[provider]);
    super(
      `${model} is not available on ${PROVIDER_NAMES[provider]} as far as the official pages we read ` +
        `(${PROVIDER_MODEL_SOURCES_CHECKED_ON}) say. Models compact-agent maps there: ${served.join(', ')}. ` +
        `If your ${provider === 'bedrock' ? 'account has it under another id, give that id (a model id, an inference profile such as global.anthropic.…, or an ARN)' : 'project has it under another name, give that name'} as the model.`
    );
    this.name = 'ModelNotOnProviderError';
  }
}

/** Whether the provider serves the catalogue model (the Anthropic API serves them all). */
export function servesModel(provider: ProviderKind, catalogueId: string): boolean {
  return provider === 'anthropic' || TABLES[provider][catalogueId] !== undefined;
}

/**
 * Maps the model a person asked for to the provider's id. A catalogue id or alias is looked up in the
 * provider's table; anything else is taken as the provider's own id (passed through) and mapped back to
 * a catalogue row by its name when it has one, so that the run is still priced from the catalogue.
 */
export function providerModel(provider: ProviderKind, model: string): ProviderModel {
  const row = findModel(model);
  if (provider === 'anthropic') return { requestModel: model, catalogueId: row?.id };
  if (row) {
    const id = TABLES[provider][row.id];
    if (id === undefined) throw new ModelNotOnProviderError(row.id, provider);
    return { requestModel: id, catalogueId: row.id };
  }
  return { requestModel: model, catalogueId: catalogueIdOf(provider, model) };
}

/** The catalogue row a provider id names, if any: first the tables, then the name inside the id. */
export function catalogueIdOf(
  provider: Exclude<ProviderKind, 'anthropic'>,
  providerId: string
): string | undefined {
  const known = Object.entries(TABLES[provider]).find(([, id]) => id === providerId);
  if (known) return known[0];
  const name = provider === 'bedrock' ? bedrockModelName(providerId) : vertexModelName(providerId);
  return name === undefined ? undefined : findModel(name)?.id;
}

/**
 * `arn:aws:bedrock:us-east-1:123:inference-profile/us.anthropic.claude-sonnet-5-5` →
 * `claude-sonnet-5-5`; `anthropic.claude-sonnet-4-5-20250929-v1:0` → `claude-sonnet-4-5`. An
 * application inference profile's ARN (`…:application-inference-profile/abc123`) names no model.
 */
function bedrockModelName(id: string): string | undefined {
  const resource = id.startsWith('arn:') ? id.slice(id.lastIndexOf('/') + 1) : id;
  const match =
    /^(?:(?:global|us|us-gov|eu|jp|apac|au|ca)\.)?anthropic\.(claude-[a-z0-9-]+?)(?:-v\d+(?::\d+)?)?$/.exec(
      resource
    );
  if (!match) return undefined;
  return withoutDate(match[1]!);
}

/** `claude-sonnet-4-5@20250929` → `claude-sonnet-4-5`; `claude-sonnet-4` → `claude-sonnet-4-0`. */
function vertexModelName(id: string): string | undefined {
  const match = /^(claude-[a-z0-9-]+?)(?:@\d{8})?$/.exec(id);
  if (!match) return undefined;
  const name = withoutDate(match[1]!);
  const mapped = Object.entries(VERTEX_MODEL_IDS).find(([, vertexId]) => vertexId === name);
  return mapped ? mapped[0] : name;
}

function withoutDate(name: string): string {
  const bare = name.replace(/-\d{8}$/, '');
  // The 4.0 models are `claude-sonnet-4` and `claude-opus-4` outside the catalogue.
  return /^claude-(sonnet|opus)-4$/.test(bare) ? `${bare}-0` : bare;
}
