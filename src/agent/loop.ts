import type { MessageParam, ToolUseBlockParam } from '@anthropic-ai/sdk/resources/messages';
import type { SandboxRecord } from '../sandbox/session-box.js';
import { CATALOGUE_CHECKED_ON } from '../config/model-catalog.js';
import type { ModelSpec } from '../config/models.js';
import type { CompactionEvent, CompactionTrigger, Compactor } from '../compaction/compactor.js';
import type { ModelClient, ModelReply } from '../model/model-client.js';
import type { RequestBuilder } from '../model/request-builder.js';
import { promptTooLong } from '../model/errors.js';
import { promptTokens } from '../model/usage.js';
import { describeToolCall } from '../tools/describe-call.js';
import type { McpServerRecord } from '../tools/mcp/index.js';
import type { WithheldVariables } from '../tools/environment.js';
import type { ToolRegistry } from '../tools/registry.js';
import type { Workspace } from '../tools/workspace.js';
import type { InstructionsRecord, ThreadRecord } from '../transcript/events.js';
import type { TranscriptSink } from '../transcript/writer.js';
import { Conversation } from './conversation.js';
import { requestFinalSummary } from './final-summary.js';
import { describeLimit, reachedLimit, type RunLimits } from './limits.js';
import { outcomeOf } from './reply-outcome.js';
import { RunLedger, usageRecord } from './run-ledger.js';
import type { RunResult } from './run-result.js';
import type { StopReason } from './stop-reason.js';
import { answerToolCalls } from './tool-turn.js';
import { namedErrorMessage } from '../errors/error-message.js';
import type { OutputSchema } from '../structured/output-schema.js';
import { redactedJson } from '../structured/redacted-json.js';
import { requestStructuredAnswer, structuredFailureMessage } from '../structured/structured-answer.js';

export interface AgentSettings {
  readonly runId: string;
  readonly modelSpec: ModelSpec;
  readonly limits: RunLimits;
  /** Recorded in run_start for the next run on the thread (see ThreadRecord). */
  readonly thread?: ThreadRecord;
  /** A read-only run's kind (plan, review), recorded in run_start; absent for a fix. */
  readonly mode?: 'plan' | 'review';
  /** Recorded in run_start: the repository's instruction files the system prompt holds. */
  readonly instructions?: InstructionsRecord;
  /** When set, the run ends by asking for its answer as JSON matching this schema (src/structured/). */
  readonly outputSchema?: OutputSchema;
  /** Recorded in run_start: the job's variables the shell did not get, by name. */
  readonly withheldEnv?: WithheldVariables;
  /** Recorded in run_start: whether the commands ran in the box (src/sandbox/). */
  readonly sandbox?: SandboxRecord;
}

export interface ProgressUpdate {
  readonly turn: number;
  readonly contextTokens: number;
  readonly costUsd: number;
  /** Compaction events so far (micro clears, summaries, spills). */
  readonly compactions: number;
  /** What the agent is doing now, e.g. "waiting for the model" or "bash npm test". */
  readonly activity: string;
}

export interface AgentDependencies {
  readonly model: ModelClient;
  /** Builds each request (model, max_tokens, system, tools, thinking, cache breakpoints). */
  readonly requests: RequestBuilder;
  readonly tools: ToolRegistry;
  readonly workspace: Workspace;
  readonly toolEnv: NodeJS.ProcessEnv;
  readonly transcript: TranscriptSink;
  readonly compactor: Compactor;
  readonly now?: () => number;
  /** Cancellation from outside (a signal from the runner, Ctrl-C in the CLI). */
  readonly signal?: AbortSignal;
  readonly onProgress?: (update: ProgressUpdate) => void;
  readonly onCompaction?: (event: CompactionEvent) => void;
  /** Secrets a tool printed never reach the model: tool results pass this first. */
  readonly redact?: (text: string) => string;
  /** The MCP servers whose tools are in `tools`, recorded in run_start for auditors. */
  readonly mcpServers?: readonly McpServerRecord[];
}

const CONTINUE_AFTER_MAX_TOKENS = 'Your reply was cut off by the output limit. Continue where you stopped.';
/** A tool call whose input was cut off by max_tokens: its arguments may be incomplete, so it is not run. */
export const TRUNCATED_TOOL_CALL =
  'This tool call was cut off by the output limit (max_tokens) before its input was complete, so it was ' +
  'not run. Send it again with a smaller input: for a large file, write it in parts or use edit_file.';
/** model_context_window_exceeded answers in a row, each followed by a compaction, before the run gives up. */
const MAX_WINDOW_EXCEEDED_IN_A_ROW = 2;

/** One run's state: the conversation, the ledger, the clock and the signal. Kept apart from the steps. */
interface Run {
  readonly task: string;
  readonly settings: AgentSettings;
  readonly deps: AgentDependencies;
  readonly ledger: RunLedger;
  readonly conversation: Conversation;
  readonly signal: AbortSignal;
  readonly deadline: AbortSignal;
  readonly now: () => number;
  readonly startedAt: number;
  /** The token meter's estimate of the next request's context, for the transcript. */
  estimatedContext: number | undefined;
  /** The earliest message a compaction changed since the last request (where its cached prefix ends). */
  editedSinceRequest: number | undefined;
}

/**
 * The agent loop: ask the model, act on its reply (see reply-outcome.ts), repeat until it is done or
 * a limit is reached. Compaction runs before every request; everything goes to the transcript.
 */
export async function runAgent(
  task: string,
  settings: AgentSettings,
  deps: AgentDependencies
): Promise<RunResult> {
  const now = deps.now ?? Date.now;
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(new Error('timeout')), settings.limits.timeoutMs);
  const ledger = new RunLedger(settings.modelSpec.prices);
  const run: Run = {
    task,
    settings,
    deps,
    ledger,
    conversation: new Conversation(deps.transcript, () => ledger.turns),
    signal: deps.signal ? AbortSignal.any([deadline.signal, deps.signal]) : deadline.signal,
    deadline: deadline.signal,
    now,
    startedAt: now(),
    estimatedContext: undefined,
    editedSinceRequest: undefined
  };
  try {
    recordStart(run);
    // Blocks, not a string: a message then serializes the same whether or not it carries a cache marker.
    run.conversation.append({ role: 'user', content: [{ type: 'text', text: task }] });
    return await loop(run);
  } catch (error) {
    if (run.deadline.aborted && !deps.signal?.aborted) return await finishAtLimit(run, 'error_timeout');
    if (deps.signal?.aborted)
      return finish(run, 'error_during_execution', '', 'The run was cancelled.', true);
    return finish(run, 'error_during_execution', '', namedErrorMessage(error));
  } finally {
    clearTimeout(timer);
  }
}

async function loop(run: Run): Promise<RunResult> {
  const { ledger, conversation } = run;
  let windowExceededInARow = 0;
  for (;;) {
    const limit = reachedLimit(
      { turns: ledger.turns, elapsedMs: run.now() - run.startedAt, costUsd: ledger.cost },
      run.settings.limits
    );
    if (limit) return finishAtLimit(run, limit);

    await compact(run, { kind: 'before_request' });
    const reply = await requestTurnOrCompact(run);
    const outcome = outcomeOf(reply);
    if (outcome.kind === 'compact_and_retry') {
      // The prompt fit, but prompt + output did not: the partial reply never joins the history (so
      // nothing is edited), and the history is compacted before the turn is asked again.
      if (++windowExceededInARow > MAX_WINDOW_EXCEEDED_IN_A_ROW) {
        return finish(
          run,
          'error_during_execution',
          '',
          `The model's context window was exceeded ${windowExceededInARow} times in a row, even after ` +
            'compacting. Lower max_output_tokens or compaction_threshold_tokens, or use a model with a larger window.'
        );
      }
      run.deps.transcript.append({
        type: 'retry',
        turn: ledger.turns,
        attempt: windowExceededInARow,
        error: 'model_context_window_exceeded: the reply was dropped; compacting, then asking again'
      });
      const tokens = promptTokens(reply.usage) + reply.usage.output;
      await compact(run, {
        kind: 'overflow',
        actualTokens: tokens,
        maximumTokens: undefined,
        cause: 'window_exceeded'
      });
      continue;
    }
    windowExceededInARow = 0;
    if (reply.content.length > 0) conversation.append({ role: 'assistant', content: reply.content });

    switch (outcome.kind) {
      case 'answer_tools':
        await answerTools(run, outcome.calls, outcome.truncated);
        break;
      case 'ask_to_continue':
        conversation.append({ role: 'user', content: [{ type: 'text', text: CONTINUE_AFTER_MAX_TOKENS }] });
        break;
      case 'resume':
        break;
      case 'empty_cut_off':
        return finish(run, 'error_during_execution', '', 'The model returned no content before max_tokens.');
      case 'refused':
        return finish(run, 'error_during_execution', outcome.text, refusalMessage(ledger.turns));
      case 'done':
        return run.settings.outputSchema
          ? finishWithStructuredAnswer(run, outcome.text, run.settings.outputSchema)
          : finish(run, 'success', outcome.text);
    }
  }
}

function progress(run: Run, activity: string): void {
  run.deps.onProgress?.({
    turn: run.ledger.turns,
    contextTokens: run.ledger.contextTokens(),
    costUsd: run.ledger.cost,
    compactions: run.ledger.compactionLog.length,
    activity
  });
}

function onRetry(run: Run, turn = run.ledger.turns) {
  return (attempt: number, error: Error) =>
    run.deps.transcript.append({ type: 'retry', turn, attempt, error: error.message });
}

async function compact(run: Run, trigger: CompactionTrigger): Promise<void> {
  const { deps, ledger, conversation } = run;
  const result = await deps.compactor.compact(conversation.messages as MessageParam[], trigger, {
    turn: ledger.turns,
    lastUsage: ledger.lastUsage,
    signal: run.signal,
    onRetry: onRetry(run)
  });
  run.estimatedContext = result.estimatedContextTokens;
  conversation.recordExchanges(result.exchanges ?? []);
  if (result.usage) ledger.charge(result.usage);
  conversation.replaceByCompaction(result.history, result.editedFrom);
  if (result.editedFrom !== undefined)
    run.editedSinceRequest = Math.min(run.editedSinceRequest ?? result.editedFrom, result.editedFrom);
  for (const event of result.events) {
    ledger.compactionLog.push(event);
    deps.transcript.append({ type: 'compaction', ...event });
    deps.onCompaction?.(event);
    progress(run, `compacted (${event.layer}): ${event.tokens_before} → ${event.tokens_after} tokens`);
  }
}

async function requestTurn(run: Run): Promise<ModelReply> {
  const { deps, ledger, conversation } = run;
  const turn = ledger.turns + 1;
  deps.transcript.append({
    type: 'request',
    turn,
    message_count: conversation.messages.length,
    max_tokens: deps.requests.shape.maxTokens,
    estimated_context_tokens: run.estimatedContext ?? null
  });
  progress(run, 'waiting for the model');
  const requestStarted = run.now();
  // After an edit, a breakpoint just before it lets the request read the unchanged prefix from the cache.
  const request = deps.requests.build(conversation.messages, undefined, run.editedSinceRequest);
  run.editedSinceRequest = undefined;
  const reply = await deps.model.complete(request, {
    signal: run.signal,
    onRetry: onRetry(run, turn)
  });
  const turnCost = ledger.recordTurn(reply.usage);
  deps.transcript.append({
    type: 'response',
    turn,
    message_id: reply.id,
    stop_reason: reply.stopReason,
    usage: usageRecord(reply.usage),
    context_tokens: promptTokens(reply.usage),
    cost_usd: turnCost,
    total_cost_usd: ledger.cost,
    duration_ms: run.now() - requestStarted
  });
  return reply;
}

/** A prompt-too-long 400 forces a compaction and one retry of the turn. */
async function requestTurnOrCompact(run: Run): Promise<ModelReply> {
  try {
    return await requestTurn(run);
  } catch (error) {
    const overflow = promptTooLong(error);
    if (!overflow) throw error;
    run.deps.transcript.append({
      type: 'retry',
      turn: run.ledger.turns + 1,
      attempt: 1,
      error: namedErrorMessage(error)
    });
    await compact(run, { kind: 'overflow', ...overflow });
    return requestTurn(run);
  }
}

/** Runs the calls; a call cut off by max_tokens (`truncated`) is answered with an error, not run. */
async function answerTools(
  run: Run,
  calls: ToolUseBlockParam[],
  truncated?: ToolUseBlockParam
): Promise<void> {
  const { deps, ledger } = run;
  const result = await answerToolCalls(calls, ledger.turns, {
    tools: deps.tools,
    workspace: deps.workspace,
    env: deps.toolEnv,
    signal: run.signal,
    transcript: deps.transcript,
    onToolStart: (call) => progress(run, describeToolCall(call.name, call.input)),
    ...(deps.redact ? { redact: deps.redact } : {})
  });
  run.conversation.append(truncated ? withTruncatedCall(result.message, truncated) : result.message);
  if (result.compactionRequest) {
    deps.transcript.append({
      type: 'compaction_requested',
      turn: ledger.turns,
      focus: result.compactionRequest.focus ?? null
    });
    await compact(run, { kind: 'manual', focus: result.compactionRequest.focus });
  }
}

/** A limit ends the run; the model is asked once for a closing summary the report can show. */
async function finishAtLimit(run: Run, limit: StopReason): Promise<RunResult> {
  const { deps, ledger, conversation } = run;
  const why = describeLimit(limit, run.settings.limits);
  const closing = await requestFinalSummary(conversation.messages, why, {
    model: deps.model,
    requests: deps.requests,
    signal: deps.signal,
    onRetry: onRetry(run)
  });
  if (!closing) return finish(run, limit, why);
  ledger.charge(closing.reply.usage);
  if (closing.text === '') return finish(run, limit, why);
  // The closing request folds its instruction into the last, unsent user message (tool results).
  if (conversation.messages.at(-1)?.role === 'user') conversation.replaceUnsentLast(closing.request);
  else conversation.append(closing.request);
  conversation.append({ role: 'assistant', content: closing.reply.content });
  return finish(run, limit, `${why}\n\n${closing.text}`);
}

/**
 * The work is done: the answer the workflow reads is asked for as JSON and checked against the
 * schema (src/structured/), in the same conversation and request shape, billed like every request.
 * No match after the second request fails the run; the agent's summary is kept either way.
 */
async function finishWithStructuredAnswer(
  run: Run,
  summary: string,
  schema: OutputSchema
): Promise<RunResult> {
  const { deps, ledger, conversation } = run;
  progress(run, 'asking for the structured output');
  let cost = 0;
  const answer = await requestStructuredAnswer(schema, {
    ask: async (message) => {
      conversation.append(message);
      const reply = await deps.model.complete(deps.requests.build(conversation.messages), {
        signal: run.signal,
        onRetry: onRetry(run)
      });
      cost = ledger.charge(reply.usage);
      if (reply.content.length > 0) conversation.append({ role: 'assistant', content: reply.content });
      return reply;
    },
    onAttempt: ({ attempt, reply, problems, value }) =>
      deps.transcript.append({
        type: 'structured_output',
        turn: ledger.turns,
        attempt,
        message_id: reply.id,
        stop_reason: reply.stopReason,
        usage: usageRecord(reply.usage),
        cost_usd: cost,
        output: problems.length === 0 ? JSON.stringify(value) : null,
        problems
      })
  });
  if (!answer.ok) {
    const error = structuredFailureMessage(answer.problems, answer.attempts.length);
    return finish(run, 'error_during_execution', summary, error);
  }
  const output = redactedJson(answer.value, deps.redact ?? ((text) => text));
  return { ...finish(run, 'success', summary), structuredOutput: output };
}

function recordStart(run: Run): void {
  const { settings, deps } = run;
  const shape = deps.requests.shape;
  deps.transcript.append({
    type: 'run_start',
    run_id: settings.runId,
    task: run.task,
    model: shape.model,
    repo: deps.workspace.root,
    system_prompt: shape.systemPrompt,
    tools: deps.tools.names(),
    limits: {
      max_turns: settings.limits.maxTurns,
      timeout_minutes: settings.limits.timeoutMs / 60_000,
      max_budget_usd: settings.limits.maxBudgetUsd
    },
    context_window: settings.modelSpec.contextWindow,
    ...(deps.compactor.thresholdTokens === undefined
      ? {}
      : { compaction_threshold_tokens: deps.compactor.thresholdTokens }),
    ...(deps.mcpServers && deps.mcpServers.length > 0 ? { mcp_servers: deps.mcpServers } : {}),
    ...(settings.thread ? { thread: settings.thread } : {}),
    ...(settings.mode ? { mode: settings.mode } : {}),
    ...(settings.instructions ? { instructions: settings.instructions } : {}),
    ...(settings.withheldEnv ? { withheld_env: settings.withheldEnv } : {}),
    ...(settings.sandbox ? { sandbox: settings.sandbox } : {})
  });
}

function finish(
  run: Run,
  stopReason: StopReason,
  summary: string,
  error?: string,
  cancelled = false
): RunResult {
  const { ledger, settings } = run;
  const durationMs = run.now() - run.startedAt;
  run.deps.transcript.append({
    type: 'run_end',
    stop_reason: stopReason,
    turns: ledger.turns,
    usage: usageRecord(ledger.usage),
    cost_usd: ledger.cost,
    duration_ms: durationMs,
    summary,
    error: error ?? null
  });
  return {
    model: {
      id: settings.modelSpec.id,
      name: settings.modelSpec.name,
      pricedSince: settings.modelSpec.prices.pricedSince,
      checkedOn: CATALOGUE_CHECKED_ON
    },
    stopReason,
    turns: ledger.turns,
    usage: ledger.usage,
    costUsd: ledger.cost,
    durationMs,
    summary,
    error,
    cancelled,
    contextTokensPerTurn: ledger.contextTokensPerTurn,
    compactionLog: ledger.compactionLog,
    compactionThresholdTokens: run.deps.compactor.thresholdTokens,
    history: run.conversation.messages
  };
}

function refusalMessage(turn: number): string {
  return (
    `The model refused to continue at turn ${turn} (stop_reason "refusal"): it declined the request on ` +
    'policy grounds. Nothing after that turn was run; what was done before is kept. Read the last turns ' +
    'of the transcript, then rephrase the task or narrow it.'
  );
}

/** The tool results of a max_tokens turn, with the cut-off call answered as an error after the others. */
function withTruncatedCall(message: MessageParam, truncated: ToolUseBlockParam): MessageParam {
  const results = typeof message.content === 'string' ? [] : message.content;
  return {
    role: 'user',
    content: [
      ...results,
      { type: 'tool_result', tool_use_id: truncated.id, content: TRUNCATED_TOOL_CALL, is_error: true }
    ]
  };
}
