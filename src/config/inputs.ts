import type { Effort } from './model-catalog.js';
import {
  DEFAULT_MODEL,
  resolveModelSpec,
  UnknownModelError,
  unknownModelMessage,
  type ModelSpec,
  type ModelSpecOverrides
} from './models.js';
import { ModelNotOnProviderError, providerModel, type ProviderModel } from './provider-models.js';
import { parseProvider, type ProviderConfig } from './provider-inputs.js';
import { parseBooleanInput } from './boolean-input.js';
import { parseInstructionFiles } from './instruction-files-input.js';
import type { RunLimits } from '../agent/limits.js';
import type { CompactionTunables, MicroBy } from '../compaction/settings.js';
import { parseCompactionEngine, type CompactionEngineChoice } from './compaction-engine-input.js';
import { readMcpConfig, type McpServerConfig } from '../tools/mcp/config.js';
import { readToolLimits, type ToolLimits } from '../tools/limits/config.js';
import type { OutputSchema } from '../structured/output-schema.js';
import { parseJsonSchemaInput } from './json-schema-input.js';
import { parseSandboxInputs, SANDBOX_DEFAULTS, type SandboxConfig } from './sandbox-input.js';

/** Everything a run needs, parsed and checked once: the action and the CLI both build it here. */
export interface AgentConfig {
  /** The Anthropic API key; '' when a cloud provider (Bedrock, Vertex) serves the model. */
  readonly apiKey: string;
  readonly baseURL: string | undefined;
  /** Where the model runs, with what that provider needs (region, project). */
  readonly provider: ProviderConfig;
  readonly model: string;
  /** The id sent on the wire: the provider's id for the model (`anthropic.claude-sonnet-5-5` on Bedrock). */
  readonly requestModel: string;
  readonly modelSpec: ModelSpec;
  readonly maxOutputTokens: number;
  /** `output_config.effort`; undefined leaves the model's default (the catalogue names it). */
  readonly effort: Effort | undefined;
  readonly limits: RunLimits;
  readonly bashTimeoutMs: number;
  /** Retries of a failed model request (429, 5xx, 529, connection errors), with backoff. */
  readonly apiMaxRetries: number;
  /** A response stream with no event for this long is dropped and retried. */
  readonly apiStallTimeoutMs: number;
  readonly bashEnvPassthrough: readonly string[];
  /** Whether the agent may change `.github/workflows/` (a workflow change can exfiltrate secrets). */
  readonly allowWorkflowChanges: boolean;
  readonly prompt: string | undefined;
  readonly compaction: CompactionInputs;
  /** Who writes the summaries (`compaction_engine`; absent: client); `auto` is resolved when the run starts. */
  readonly compactionEngine?: CompactionEngineChoice;
  /** MCP servers whose tools join the agent's (`mcp_config`, `--mcp-config`); none by default. */
  readonly mcpServers: readonly McpServerConfig[];
  /** Tools offered and bash commands allowed (allowed_tools, disallowed_tools, *_bash_commands); none by default. */
  readonly toolLimits: ToolLimits;
  /** The repository's instruction files to read (`instruction_files`); empty: none (see src/instructions/). */
  readonly instructionFiles: readonly string[];
  /**
   * The JSON Schema the final answer must match (`json_schema`, `--json-schema`): after the work, the
   * model is asked for it as JSON (src/structured/). Undefined: no structured output.
   */
  readonly outputSchema?: OutputSchema;
  /** The box the agent's commands run in (`sandbox`, `sandbox_*`; src/sandbox/). */
  readonly sandbox: SandboxConfig;
}

/** The compaction inputs; unset ones take the defaults in compaction/settings.ts. */
export type CompactionInputs = CompactionTunables;

/** Reads one input by its action.yml name; '' when unset (as @actions/core's getInput does). */
export type InputReader = (name: string) => string;

/**
 * How a person sets each input, for the error messages: `max_turns` in a workflow, `--max-turns` on
 * the command line. The validation is the same; only the names in its messages differ.
 */
export interface InputNaming {
  readonly nameOf: (input: string) => string;
  /** Where the API key comes from, in words that finish "No Anthropic API key: ...". */
  readonly apiKeySource: string;
}

export const ACTION_INPUT_NAMING: InputNaming = {
  nameOf: (input) => input,
  apiKeySource:
    'set the input anthropic_api_key (e.g. `${{ secrets.ANTHROPIC_API_KEY }}`) ' +
    'or the environment variable ANTHROPIC_API_KEY; or run the model on Amazon Bedrock (use_bedrock) ' +
    'or Google Vertex AI (use_vertex).'
};

export const INPUT_DEFAULTS = {
  model: DEFAULT_MODEL,
  max_output_tokens: 16_384,
  max_turns: 200,
  timeout_minutes: 60,
  max_budget_usd: 10,
  bash_timeout_seconds: 120,
  api_max_retries: 4,
  api_stall_timeout_seconds: 120,
  use_bedrock: false,
  use_vertex: false,
  allow_workflow_changes: false,
  // Codex, OpenHands, Jules and Cursor read AGENTS.md; Claude Code CLAUDE.md; Copilot its own file.
  instruction_files: 'AGENTS.md,CLAUDE.md,.github/copilot-instructions.md',
  // Our summarizer until the bench measures the API's engine (issue 25, part 4).
  compaction_engine: 'client',
  ...SANDBOX_DEFAULTS
} as const;

/** A bad input: the message says which input, what was given and what is expected. */
export class InputError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `- ${problem}`).join('\n')}`);
    this.name = 'InputError';
  }
}

/** Parses every input and reports all problems at once, before any model call. */
export function parseAgentConfig(
  read: InputReader,
  env: NodeJS.ProcessEnv,
  naming: InputNaming = ACTION_INPUT_NAMING,
  /** False for a job that calls no model (a fan-out's plan and land): no API key is needed. */
  callsModel = true
): AgentConfig {
  const problems: string[] = [];
  const name = naming.nameOf;
  const numbers = new NumberInputs(read, problems, name);

  const provider = parseProvider(read, env, name, problems);
  // A cloud provider signs with its own credentials (AWS, Google): no Anthropic key is needed then.
  const apiKey =
    provider?.kind === 'anthropic' || provider === undefined
      ? read('anthropic_api_key').trim() || env.ANTHROPIC_API_KEY?.trim() || ''
      : '';
  if (apiKey === '' && provider?.kind === 'anthropic' && callsModel)
    problems.push(`No Anthropic API key: ${naming.apiKeySource}`);
  const model = read('model').trim() || INPUT_DEFAULTS.model;
  const overrides = {
    contextWindow: numbers.optionalInteger('context_window'),
    maxOutputTokens: undefined,
    inputPerMTok: numbers.optionalNumber('input_price_per_mtok'),
    outputPerMTok: numbers.optionalNumber('output_price_per_mtok'),
    cacheWritePerMTok: numbers.optionalNumber('cache_write_price_per_mtok'),
    cacheWrite1hPerMTok: numbers.optionalNumber('cache_write_1h_price_per_mtok'),
    cacheReadPerMTok: numbers.optionalNumber('cache_read_price_per_mtok')
  };
  const { wire, modelSpec } = resolveRunModel(provider, model, overrides, name, problems);
  const maxOutputTokens = numbers.integer('max_output_tokens', INPUT_DEFAULTS.max_output_tokens);
  if (modelSpec && maxOutputTokens > modelSpec.maxOutputTokens) {
    problems.push(
      `${name('max_output_tokens')} is ${maxOutputTokens}, but ${model} allows at most ${modelSpec.maxOutputTokens}.`
    );
  }
  const effort = parseEffort(read('effort'), name('effort'), model, modelSpec, problems);
  const limits: RunLimits = {
    maxTurns: numbers.integer('max_turns', INPUT_DEFAULTS.max_turns),
    timeoutMs: numbers.number('timeout_minutes', INPUT_DEFAULTS.timeout_minutes) * 60_000,
    maxBudgetUsd: numbers.number('max_budget_usd', INPUT_DEFAULTS.max_budget_usd)
  };
  const bashTimeoutMs = numbers.number('bash_timeout_seconds', INPUT_DEFAULTS.bash_timeout_seconds) * 1000;
  const apiMaxRetries = numbers.optionalCount('api_max_retries') ?? INPUT_DEFAULTS.api_max_retries;
  const apiStallTimeoutMs =
    numbers.number('api_stall_timeout_seconds', INPUT_DEFAULTS.api_stall_timeout_seconds) * 1000;
  const prompt = read('prompt').trim() || undefined;
  const allowWorkflowChanges =
    parseBooleanInput(
      read('allow_workflow_changes'),
      name('allow_workflow_changes'),
      INPUT_DEFAULTS.allow_workflow_changes,
      problems
    ) ?? INPUT_DEFAULTS.allow_workflow_changes;
  const preserveTools = splitList(read('micro_preserve_tools'));
  const compaction: CompactionInputs = {
    thresholdTokens: numbers.optionalInteger('compaction_threshold_tokens'),
    microKeepRecent: numbers.optionalCount('micro_keep_recent'),
    microClearAtLeast: numbers.optionalCount('micro_clear_at_least'),
    ...microByOf(read('micro_by'), name('micro_by'), problems),
    ...(preserveTools.length > 0 ? { microPreserveTools: preserveTools } : {}),
    keepTailTokens: numbers.optionalCount('compaction_keep_tail'),
    restoreRecentFiles: numbers.optionalCount('restore_recent_files'),
    maxCompactions: numbers.optionalCount('max_compactions')
  };
  if (
    modelSpec &&
    compaction.thresholdTokens !== undefined &&
    compaction.thresholdTokens >= modelSpec.contextWindow
  ) {
    problems.push(
      `${name('compaction_threshold_tokens')} is ${compaction.thresholdTokens}, but the context window of ${model} is ` +
        `${modelSpec.contextWindow}: it must be lower.`
    );
  }

  const baseURL = parseBaseUrl(env.ANTHROPIC_BASE_URL, problems);
  const mcp = readMcpConfig(read('mcp_config'), name('mcp_config'));
  if (!mcp.ok) problems.push(...mcp.problems);
  const toolLimits = readToolLimits(read, name, problems);
  const instructionFiles = parseInstructionFiles(
    read('instruction_files'),
    name('instruction_files'),
    INPUT_DEFAULTS.instruction_files,
    problems
  );
  const outputSchema = parseJsonSchemaInput(read('json_schema'), name('json_schema'), problems);
  const compactionEngine = parseCompactionEngine(
    read('compaction_engine'),
    name('compaction_engine'),
    INPUT_DEFAULTS.compaction_engine,
    problems
  );

  if (compactionEngine === 'api' && provider && provider.kind !== 'anthropic') {
    problems.push(
      `${name('compaction_engine')} is api, but the API's on-demand compaction is used only on the Claude API ` +
        `(this run uses ${provider.kind}): set it to auto or client.`
    );
  }
  const sandbox = parseSandboxInputs(read, name, problems);

  if (problems.length > 0 || !modelSpec || !wire || !provider) throw new InputError(problems);
  return {
    apiKey,
    baseURL,
    provider,
    // On a cloud provider `model` may be the provider's id: the run is described by the catalogue's.
    model: provider.kind === 'anthropic' ? model : (wire.catalogueId ?? model),
    requestModel: wire.requestModel,
    modelSpec,
    maxOutputTokens,
    effort,
    limits,
    bashTimeoutMs,
    apiMaxRetries,
    apiStallTimeoutMs,
    bashEnvPassthrough: splitList(read('bash_env_passthrough')),
    allowWorkflowChanges,
    prompt,
    compaction: withoutUndefined(compaction),
    compactionEngine,
    mcpServers: mcp.ok ? mcp.servers : [],
    toolLimits,
    instructionFiles,
    ...(outputSchema ? { outputSchema } : {}),
    sandbox
  };
}

/** ANTHROPIC_BASE_URL, if set, must be an http(s) URL: checked here so a typo fails before the run starts. */
function parseBaseUrl(raw: string | undefined, problems: string[]): string | undefined {
  const value = raw?.trim() || undefined;
  if (value === undefined) return undefined;
  let protocol: string | undefined;
  try {
    protocol = new URL(value).protocol;
  } catch {
    protocol = undefined;
  }
  if (protocol !== 'http:' && protocol !== 'https:') {
    problems.push(
      `ANTHROPIC_BASE_URL is "${value}", which is not an http(s) URL. Set it to a gateway's address ` +
        '(e.g. https://gateway.example.com) or unset it to use the Anthropic API.'
    );
    return undefined;
  }
  return value;
}

/**
 * The id sent on the wire and the spec that prices it: the provider's id for a catalogue model, or the
 * given id passed through and priced by the catalogue row it names (or by the override inputs).
 */
function resolveRunModel(
  provider: ProviderConfig | undefined,
  model: string,
  overrides: ModelSpecOverrides,
  name: (input: string) => string,
  problems: string[]
): { wire: ProviderModel | undefined; modelSpec: ModelSpec | undefined } {
  let wire: ProviderModel | undefined;
  try {
    wire = providerModel(provider?.kind ?? 'anthropic', model);
  } catch (error) {
    if (!(error instanceof ModelNotOnProviderError)) throw error;
    problems.push(error.message);
    return { wire: undefined, modelSpec: undefined };
  }
  try {
    return { wire, modelSpec: resolveModelSpec(wire.catalogueId ?? model, overrides) };
  } catch (error) {
    if (!(error instanceof UnknownModelError)) throw error;
  }
  problems.push(unknownModelMessage(model, name, provider?.kind));
  return { wire, modelSpec: undefined };
}

/** An effort level the model accepts; the model's own default when the input is empty. */
function parseEffort(
  raw: string,
  shown: string,
  model: string,
  spec: ModelSpec | undefined,
  problems: string[]
): Effort | undefined {
  const value = raw.trim().toLowerCase();
  if (value === '' || !spec) return undefined;
  const accepted = spec.thinking.efforts;
  if (accepted.length === 0) {
    problems.push(`${shown} is "${raw.trim()}", but ${model} has no effort levels: leave ${shown} empty.`);
    return undefined;
  }
  const effort = accepted.find((level) => level === value);
  if (!effort) {
    problems.push(`${shown} must be one of ${accepted.join(', ')} for ${model}, got "${raw.trim()}".`);
  }
  return effort;
}

function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as T;
}

function splitList(raw: string): string[] {
  return raw
    .split(/[\s,]+/)
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

/** Numeric inputs: each bad one adds a problem naming the input and the value it got. */
class NumberInputs {
  constructor(
    private readonly read: InputReader,
    private readonly problems: string[],
    private readonly nameOf: (input: string) => string
  ) {}

  integer(name: string, fallback: number): number {
    return this.optionalInteger(name) ?? fallback;
  }

  number(name: string, fallback: number): number {
    return this.optionalNumber(name) ?? fallback;
  }

  optionalInteger(name: string): number | undefined {
    const value = this.optionalNumber(name);
    if (value !== undefined && !Number.isInteger(value)) {
      this.problems.push(`${this.nameOf(name)} must be a whole number, got "${this.read(name).trim()}".`);
      return undefined;
    }
    return value;
  }

  /** A whole number that may be 0 (a count or a size that can be switched off). */
  optionalCount(name: string): number | undefined {
    const raw = this.read(name).trim();
    if (raw === '') return undefined;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < 0) {
      this.problems.push(`${this.nameOf(name)} must be a whole number of 0 or more, got "${raw}".`);
      return undefined;
    }
    return value;
  }

  optionalNumber(name: string): number | undefined {
    const raw = this.read(name).trim();
    if (raw === '') return undefined;
    const value = Number(raw);
    if (!Number.isFinite(value) || value <= 0) {
      this.problems.push(`${this.nameOf(name)} must be a positive number, got "${raw}".`);
      return undefined;
    }
    return value;
  }
}

/** `micro_by`: client (our micro layer) or server (the API's context editing); empty: the default. */
function microByOf(raw: string, shown: string, problems: string[]): { microBy?: MicroBy } {
  const value = raw.trim().toLowerCase();
  if (value === '') return {};
  if (value === 'client' || value === 'server') return { microBy: value };
  problems.push(
    `${shown} must be client (our micro layer clears old tool results) or server (the API's context ` +
      `editing clears them and the model keeps its reasoning), got "${raw.trim()}".`
  );
  return {};
}
