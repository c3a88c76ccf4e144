import path from 'node:path';
import type { AgentConfig } from '../config/inputs.js';
import type { ModelSpec } from '../config/models.js';
import type { Compactor } from '../compaction/compactor.js';
import { CompactionPipeline } from '../compaction/pipeline.js';
import { RunFolderStore } from '../compaction/run-folder-store.js';
import {
  COMPACTION_DEFAULTS,
  compactionSettings,
  type CompactionEngine,
  type CompactionOptions
} from '../compaction/settings.js';
import { chooseMicroBy } from '../compaction/micro-choice.js';
import { ServerClears } from '../compaction/server-clears.js';
import { serverClearCaching } from '../compaction/server-clear-caching.js';
import { chooseCompactionEngine } from '../compaction/engine-choice.js';
import type { SummaryRequestShape } from '../compaction/summarizer.js';
import type { StepSelection } from '../compaction/steps/step.js';
import { createCompactionCapabilityLookup } from '../model/provider-client.js';
import { createModelClient } from '../model/anthropic-client.js';
import { credentialFileInRepository } from '../security/cloud-credentials.js';
import {
  watchNestedRepositories,
  type MovedGitEntry,
  type NestedRepositoryWatch
} from '../git/nested-repositories.js';
import type { ModelClient } from '../model/model-client.js';
import { RequestBuilder } from '../model/request-builder.js';
import { thinkingSettings } from '../model/thinking.js';
import { toolEnvironment, type ToolEnvironment, type WithheldVariables } from '../tools/environment.js';
import { createDefaultTools } from '../tools/index.js';
import { startMcpServers, type McpToolSet } from '../tools/mcp/index.js';
import { Workspace } from '../tools/workspace.js';
import type { BlockedAttempt } from '../sandbox/blocked-log.js';
import type { CommandBox } from '../sandbox/command-box.js';
import { openSessionBox, type SandboxRecord } from '../sandbox/session-box.js';
import { compactionLogWriter } from '../transcript/compaction-log.js';
import type { ThreadRecord } from '../transcript/events.js';
import { TranscriptWriter } from '../transcript/writer.js';
import { checkRunFolderPath } from '../transcript/run-folder-path.js';
import { WrittenFiles } from '../transcript/written-files.js';
import type { RunRecords } from '../artifacts/stage-run.js';
import type { DeniedCall } from '../tools/limits/denied.js';
import { runAgent, type ProgressUpdate } from './loop.js';
import type { RunResult } from './run-result.js';
import { buildSystemPrompt } from './system-prompt.js';
import { instructionsRecordOf, type RepositoryInstructions } from '../instructions/instruction-files.js';
import { FIX_MODE, type RunMode } from './run-mode.js';

/** Workflows (and the local actions they use) run with the repository's secrets: changing them is opt-in. */
export const WORKFLOW_FOLDERS: readonly string[] = ['.github/workflows/', '.github/actions/'];

export interface SessionOptions {
  readonly config: AgentConfig;
  /** As the person wrote it: redacted here, once, before the model or the transcript sees it. */
  readonly task: string;
  readonly repoDir: string;
  /** Parent of the run folder; transcripts go to `<transcriptsDir>/<runId>/`. */
  readonly transcriptsDir: string;
  readonly runId: string;
  readonly env: NodeJS.ProcessEnv;
  readonly signal?: AbortSignal;
  readonly onProgress?: (update: ProgressUpdate) => void;
  /** Handed in so tests and the benchmark can swap the model and the compaction strategy. */
  readonly model?: ModelClient;
  readonly compactor?: (parts: CompactorParts) => Compactor;
  readonly now?: () => number;
  /**
   * Hides the secrets the caller knows (its API key, tokens): applied to the task and to everything
   * written under the run folder (transcript, log, segments, spills).
   */
  readonly redact?: (text: string) => string;
  /** What the run's thread asked so far, recorded in the transcript for the next run (see ThreadRecord). */
  readonly thread?: ThreadRecord;
  /** One-line notices for the log before the first turn (the MCP servers and their tools). */
  readonly onNotice?: (line: string) => void;
  /** The repository's instruction files, read before the run: in the system prompt and run_start. */
  readonly instructions?: RepositoryInstructions;
  /** A fix (the default), or a read-only plan or review with its own rules and tools. */
  readonly mode?: RunMode;
  /** The repositories the run began with; by default a snapshot taken as the session starts. */
  readonly nestedRepositories?: NestedRepositoryWatch;
  /** Folders outside the repository the box shows read-only (a fan-out shard's borrowed git objects). */
  readonly readOnlyFolders?: readonly string[];
}

/** What a custom compactor may build on: the same model, request shape and run folder. */
export interface CompactorParts {
  readonly model: ModelClient;
  readonly requests: RequestBuilder;
  readonly store: RunFolderStore;
  readonly config: AgentConfig;
  /** Set when the API clears old tool results (context editing) for this run. */
  readonly serverClears?: ServerClears;
}

export interface SessionOutcome {
  readonly result: RunResult;
  readonly runDir: string;
  readonly transcriptPath: string;
  readonly compactionLogPath: string;
  /** What the action itself wrote: the artifact is built from this, never from the workspace folder. */
  readonly records: RunRecords;
  /**
   * The tool calls the tool limits refused, grouped by tool, command head and rule (the report lists
   * them). Optional so that outcomes put together elsewhere (tests, fault paths) need not name it.
   */
  readonly deniedCalls?: readonly DeniedCall[];
  /** The names of the job's variables the agent's shell did not get (the report lists them). */
  readonly withheldEnv?: WithheldVariables;
  /** Whether the commands ran in the box, and the destinations it refused (the report lists them). */
  readonly sandbox?: SandboxRecord & { readonly blocked: readonly BlockedAttempt[] };
  /** The `.git` folders and files the agent's commands made, moved out of the workspace (the report lists them). */
  readonly movedGitEntries?: readonly MovedGitEntry[];
}

/**
 * Assembles one run from its parts (model, tools, workspace, transcript, compaction) and runs it.
 * MCP servers start first, so that one that does not start leaves no run folder behind, and they
 * are stopped however the run ends.
 */
export async function runSession(options: SessionOptions): Promise<SessionOutcome> {
  const { config } = options;
  // Before anything is written or called: a committed `.transcripts` link would take the run elsewhere.
  checkRunFolderPath(options.repoDir, path.join(options.transcriptsDir, options.runId));
  // Before anything is written or called: a credentials file the agent could read or commit.
  const exposedCredentials = credentialFileInRepository(options.env, options.repoDir);
  if (exposedCredentials !== undefined) throw new Error(exposedCredentials);
  const shell = toolEnvironment(options.env, config.bashEnvPassthrough);
  // Before any of the agent's processes: what is there now is the workspace's, not the run's.
  const nested = options.nestedRepositories ?? watchNestedRepositories(options.repoDir);
  // Before the MCP servers, which run in it too; `sandbox: required` without a box stops here.
  const sandbox = await openSessionBox(
    config.sandbox,
    {
      workspace: options.repoDir,
      env: options.env,
      nestedRepositories: nested,
      ...(options.readOnlyFolders ? { readOnly: options.readOnlyFolders } : {})
    },
    (line) => options.onNotice?.(line)
  );
  let outcome: SessionOutcome;
  try {
    // MCP servers get what the agent's own commands get: the tool environment, in the repository, in the box.
    const mcp = await startMcpServers(config.mcpServers, {
      cwd: options.repoDir,
      env: shell.env,
      callTimeoutMs: config.bashTimeoutMs,
      ...(sandbox.box ? { box: sandbox.box } : {}),
      ...(options.signal ? { signal: options.signal } : {})
    });
    try {
      if (mcp.notice !== '') options.onNotice?.(mcp.notice);
      const ran = await runWithTools(options, shell, mcp, sandbox.box, sandbox.record);
      outcome = { ...ran, sandbox: { ...sandbox.record, blocked: sandbox.box?.blockedAttempts() ?? [] } };
    } finally {
      await mcp.close();
    }
  } finally {
    await sandbox.box?.close();
    // Without the box nothing swept after each command; with it, an MCP server may have ended last.
    nested.sweep();
  }
  const moved = [...nested.moved()];
  return moved.length > 0 ? { ...outcome, movedGitEntries: moved } : outcome;
}

async function runWithTools(
  options: SessionOptions,
  shell: ToolEnvironment,
  mcp: McpToolSet,
  box: CommandBox | undefined,
  sandbox: SandboxRecord
): Promise<SessionOutcome> {
  const { config } = options;
  const withheld = [...shell.withheld.secret, ...shell.withheld.unlisted];
  const runDir = path.join(options.transcriptsDir, options.runId);
  const redact = options.redact ?? ((text: string) => text);
  // The writer's own words may hold a pasted key or token: the model is never sent it.
  const task = redact(options.task);
  const transcript = new TranscriptWriter(runDir, { redact });
  const compactionLog = compactionLogWriter(runDir, redact);
  const written = new WrittenFiles(runDir, options.repoDir);
  const now = options.now ?? Date.now;
  const mode = options.mode ?? FIX_MODE;
  try {
    const tools = createDefaultTools({
      mode,
      bashTimeoutMs: config.bashTimeoutMs,
      extraTools: mcp.tools,
      limits: config.toolLimits,
      ...(box ? { box } : {}),
      onUnmatchedNames: (names) =>
        options.onNotice?.(`The tool limits name tools this run does not have: ${names.join(', ')}.`)
    });
    const workspace = new Workspace(options.repoDir, {
      readOnlyFolders: config.allowWorkflowChanges ? [] : WORKFLOW_FOLDERS
    });
    // Who clears old tool results: the API (context editing) where this platform's client can ask it.
    // The API's on-demand compaction request cannot carry context_management (compaction-on-demand):
    // with that engine it would summarize results the server had cleared, so our micro layer clears.
    const apiEngine = config.compactionEngine === 'api' || config.compactionEngine === 'auto';
    const micro = chooseMicroBy(
      config.compaction.microBy ?? (apiEngine ? 'client' : COMPACTION_DEFAULTS.microBy),
      config.provider.kind
    );
    if (micro.notice) options.onNotice?.(micro.notice);
    const serverClear =
      micro.microBy === 'server'
        ? compactionSettings({
            ...modelCompactionOptions(config.modelSpec, config.maxOutputTokens),
            ...config.compaction,
            microBy: 'server'
          }).serverClear
        : undefined;
    const requests = new RequestBuilder({
      model: config.requestModel,
      maxTokens: config.maxOutputTokens,
      // Redacted as the task is: a token pasted into AGENTS.md reaches neither the model nor the record.
      systemPrompt: buildSystemPrompt(
        options.instructions && {
          ...options.instructions,
          files: options.instructions.files.map((file) => ({ ...file, text: redact(file.text) }))
        },
        mode,
        withheld
      ),
      tools: tools.definitions,
      thinking: thinkingSettings(config.modelSpec, config.effort),
      ...(serverClear ? { serverClears: serverClear } : {})
    });
    const serverClears = serverClear && new ServerClears(serverClear);
    const baseModel = options.model ?? createModelClient(config);
    const model = serverClears
      ? serverClearCaching(baseModel, serverClears, requests.prefixChars())
      : baseModel;
    const parts: CompactorParts = {
      model,
      requests,
      store: new RunFolderStore(
        runDir,
        workspace,
        displayPath(workspace.root, transcript.path),
        redact,
        written
      ),
      config,
      ...(serverClears ? { serverClears } : {})
    };
    const compactor = options.compactor
      ? options.compactor(parts)
      : defaultCompactor(parts, now, { engine: await compactionEngineFor(config, options.onNotice) });
    const result = await runAgent(
      task,
      {
        runId: options.runId,
        modelSpec: config.modelSpec,
        limits: config.limits,
        ...(mode.name !== 'fix' ? { mode: mode.name } : {}),
        ...(config.outputSchema ? { outputSchema: config.outputSchema } : {}),
        // The transcript writer redacts every line it writes, this record too.
        ...(options.thread ? { thread: options.thread } : {}),
        ...(options.instructions ? { instructions: instructionsRecordOf(options.instructions) } : {}),
        ...(withheld.length > 0 ? { withheldEnv: shell.withheld } : {}),
        sandbox
      },
      {
        model,
        requests,
        tools,
        workspace,
        toolEnv: shell.env,
        mcpServers: mcp.servers,
        transcript,
        compactor,
        now,
        onCompaction: (event) => compactionLog.append(event),
        redact,
        ...(options.signal ? { signal: options.signal } : {}),
        ...(options.onProgress ? { onProgress: options.onProgress } : {})
      }
    );
    return {
      result,
      runDir,
      transcriptPath: transcript.path,
      compactionLogPath: compactionLog.path,
      records: { runDir, transcript, compactionLog, files: written.entries() },
      deniedCalls: tools.deniedCalls(),
      ...(withheld.length > 0 ? { withheldEnv: shell.withheld } : {})
    };
  } finally {
    transcript.close();
    compactionLog.close();
  }
}

/** `compaction_engine` resolved for this run (auto asks the Models API once, before the first turn). */
async function compactionEngineFor(
  config: AgentConfig,
  onNotice: ((line: string) => void) | undefined
): Promise<CompactionEngine> {
  const auto = config.compactionEngine === 'auto' && config.provider.kind === 'anthropic';
  const decision = await chooseCompactionEngine(
    config.compactionEngine,
    config.provider.kind,
    config.requestModel,
    auto ? createCompactionCapabilityLookup(config) : undefined
  );
  if (config.compactionEngine === 'auto')
    onNotice?.(`Compaction engine: ${decision.engine} (${decision.why}).`);
  return decision.engine;
}

/** What compaction's rule takes from the model: its window, output cap, cache-read price ratio and cache minimum. */
export function modelCompactionOptions(
  spec: ModelSpec,
  maxOutputTokens: number
): Pick<CompactionOptions, 'contextWindow' | 'maxOutputTokens' | 'cacheReadRatio' | 'minCacheableTokens'> {
  return {
    contextWindow: spec.contextWindow,
    maxOutputTokens,
    cacheReadRatio: spec.prices.cacheReadPerMTok / spec.prices.inputPerMTok,
    minCacheableTokens: spec.minCacheableTokens
  };
}

/** What the benchmark's ablations change beyond the settings: the summary request, the steps that run. */
export interface CompactorVariant {
  readonly summaryRequest?: SummaryRequestShape;
  readonly steps?: StepSelection;
}

/** Our pipeline with the run's settings; `overrides` and `variant` let the benchmark build its ablations. */
export function defaultCompactor(
  parts: CompactorParts,
  now: () => number,
  overrides: Partial<CompactionOptions> = {},
  { summaryRequest, steps }: CompactorVariant = {}
): CompactionPipeline {
  const { config } = parts;
  const settings = compactionSettings({
    ...modelCompactionOptions(config.modelSpec, config.maxOutputTokens),
    ...config.compaction,
    // The run's requests ask the API to clear, or not: the pipeline follows what they ask.
    microBy: parts.serverClears ? 'server' : 'client',
    ...overrides
  });
  return new CompactionPipeline(
    settings,
    {
      ...(parts.serverClears && settings.microBy === 'server' ? { serverClears: parts.serverClears } : {}),
      model: parts.model,
      requests: parts.requests,
      prices: config.modelSpec.prices,
      store: parts.store,
      now,
      ...(summaryRequest ? { summaryRequest } : {})
    },
    steps
  );
}

function displayPath(root: string, file: string): string {
  const relative = path.relative(root, file);
  return relative.startsWith('..') || path.isAbsolute(relative) ? file : relative;
}
