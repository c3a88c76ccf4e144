import type {
  ContentBlockParam,
  MessageParam,
  ToolUseBlockParam
} from '@anthropic-ai/sdk/resources/messages';
import { CATALOGUE_CHECKED_ON } from '../config/model-catalog.js';
import type { ModelPrices, ModelSpec } from '../config/models.js';
import type { CompactionEvent, CompactionTrigger, Compactor } from '../compaction/compactor.js';
import type { ModelClient, ModelReply } from '../model/model-client.js';
import type { RequestBuilder } from '../model/request-builder.js';
import { promptTooLong } from '../model/errors.js';
import { addUsage, costUsd, NO_USAGE, promptTokens, type TokenUsage } from '../model/usage.js';
import { describeToolCall } from '../tools/describe-call.js';
import type { ToolRegistry } from '../tools/registry.js';
import type { Workspace } from '../tools/workspace.js';
import type { UsageRecord } from '../transcript/events.js';
import type { TranscriptSink } from '../transcript/writer.js';
import { describeLimit, reachedLimit, type RunLimits } from './limits.js';
import type { RunResult } from './run-result.js';
import type { StopReason } from './stop-reason.js';
import { requestFinalSummary } from './final-summary.js';
import { HistoryRecorder } from './history-recorder.js';
import { answerToolCalls, toolUseBlocks } from './tool-turn.js';

export interface AgentSettings {
  readonly runId: string;
  readonly modelSpec: ModelSpec;
  readonly limits: RunLimits;
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
  /** Builds each request (model, max_tokens, system, tools, cache breakpoints). */
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
}

const CONTINUE_AFTER_MAX_TOKENS = 'Your reply was cut off by the output limit. Continue where you stopped.';
/** A tool call whose input was cut off by max_tokens: its arguments may be incomplete, so it is not run. */
export const TRUNCATED_TOOL_CALL =
  'This tool call was cut off by the output limit (max_tokens) before its input was complete, so it was ' +
  'not run. Send it again with a smaller input: for a large file, write it in parts or use edit_file.';
/** model_context_window_exceeded answers in a row, each followed by a compaction, before the run gives up. */
const MAX_WINDOW_EXCEEDED_IN_A_ROW = 2;

/** Mutable bookkeeping of one run, kept apart from the control flow that reads it. */
class RunLedger {
  turns = 0;
  usage: TokenUsage = NO_USAGE;
  cost = 0;
  lastUsage: TokenUsage | undefined;
  readonly contextTokensPerTurn: number[] = [];
  readonly compactionLog: CompactionEvent[] = [];

  /** Adds a call's usage to the totals and returns its cost. */
  charge(usage: TokenUsage, prices: ModelPrices): number {
    const cost = costUsd(usage, prices);
    this.usage = addUsage(this.usage, usage);
    this.cost += cost;
    return cost;
  }

  contextTokens(): number {
    return this.lastUsage ? promptTokens(this.lastUsage) + this.lastUsage.output : 0;
  }
}

/**
 * The agent loop: ask the model, run the tools it calls, answer them, repeat until it is done or a
 * limit is reached. Compaction runs before every request; everything is written to the transcript.
 */
export async function runAgent(
  task: string,
  settings: AgentSettings,
  deps: AgentDependencies
): Promise<RunResult> {
  const now = deps.now ?? Date.now;
  const startedAt = now();
  const ledger = new RunLedger();
  let history: MessageParam[] = [];

  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(new Error('timeout')), settings.limits.timeoutMs);
  const signal = deps.signal ? AbortSignal.any([deadline.signal, deps.signal]) : deadline.signal;

  const progress = (activity: string) =>
    deps.onProgress?.({
      turn: ledger.turns,
      contextTokens: ledger.contextTokens(),
      costUsd: ledger.cost,
      compactions: ledger.compactionLog.length,
      activity
    });

  let windowExceededInARow = 0;
  const recorder = new HistoryRecorder(deps.transcript, () => ledger.turns);
  const append = (message: MessageParam) => recorder.append(history, message);

  let estimatedContext: number | undefined;
  const compact = async (trigger: CompactionTrigger) => {
    const result = await deps.compactor.compact(history, trigger, {
      turn: ledger.turns,
      lastUsage: ledger.lastUsage,
      signal,
      onRetry: (attempt, error) =>
        deps.transcript.append({ type: 'retry', turn: ledger.turns, attempt, error: error.message })
    });
    estimatedContext = result.estimatedContextTokens;
    recorder.recordExchanges(result.exchanges ?? []);
    if (result.usage) ledger.charge(result.usage, settings.modelSpec.prices);
    if (result.history !== history) {
      history = result.history;
      recorder.recordNew(history);
    }
    for (const event of result.events) {
      ledger.compactionLog.push(event);
      deps.transcript.append({ type: 'compaction', ...event });
      deps.onCompaction?.(event);
      progress(`compacted (${event.layer}): ${event.tokens_before} → ${event.tokens_after} tokens`);
    }
  };

  const finish = (stopReason: StopReason, summary: string, error?: string, cancelled = false): RunResult => {
    const durationMs = now() - startedAt;
    deps.transcript.append({
      type: 'run_end',
      stop_reason: stopReason,
      turns: ledger.turns,
      usage: toRecord(ledger.usage),
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
      history
    };
  };

  const shape = deps.requests.shape;
  deps.transcript.append({
    type: 'run_start',
    run_id: settings.runId,
    task,
    model: shape.model,
    repo: deps.workspace.root,
    system_prompt: shape.systemPrompt,
    tools: deps.tools.names(),
    limits: {
      max_turns: settings.limits.maxTurns,
      timeout_minutes: settings.limits.timeoutMs / 60_000,
      max_budget_usd: settings.limits.maxBudgetUsd
    },
    context_window: settings.modelSpec.contextWindow
  });
  // Blocks, not a string: a message then serializes the same whether or not it carries a cache marker.
  append({ role: 'user', content: [{ type: 'text', text: task }] });

  const requestTurn = async (): Promise<ModelReply> => {
    const turn = ledger.turns + 1;
    deps.transcript.append({
      type: 'request',
      turn,
      message_count: history.length,
      max_tokens: shape.maxTokens,
      estimated_context_tokens: estimatedContext ?? null
    });
    progress('waiting for the model');
    const requestStarted = now();
    const reply = await deps.model.complete(deps.requests.build(history), {
      signal,
      onRetry: (attempt, error) =>
        deps.transcript.append({ type: 'retry', turn, attempt, error: error.message })
    });
    const turnCost = ledger.charge(reply.usage, settings.modelSpec.prices);
    ledger.turns = turn;
    ledger.lastUsage = reply.usage;
    ledger.contextTokensPerTurn.push(promptTokens(reply.usage));
    deps.transcript.append({
      type: 'response',
      turn,
      message_id: reply.id,
      stop_reason: reply.stopReason,
      usage: toRecord(reply.usage),
      context_tokens: promptTokens(reply.usage),
      cost_usd: turnCost,
      total_cost_usd: ledger.cost,
      duration_ms: now() - requestStarted
    });
    return reply;
  };

  /** A prompt-too-long 400 forces a compaction and one retry of the turn. */
  const requestTurnOrCompact = async (): Promise<ModelReply> => {
    try {
      return await requestTurn();
    } catch (error) {
      const overflow = promptTooLong(error);
      if (!overflow) throw error;
      deps.transcript.append({
        type: 'retry',
        turn: ledger.turns + 1,
        attempt: 1,
        error: describeError(error)
      });
      await compact({ kind: 'overflow', ...overflow });
      return requestTurn();
    }
  };

  /** Runs the calls; a call cut off by max_tokens (`truncated`) is answered with an error, not run. */
  const answerTools = async (calls: ToolUseBlockParam[], truncated?: ToolUseBlockParam) => {
    const result = await answerToolCalls(calls, ledger.turns, {
      tools: deps.tools,
      workspace: deps.workspace,
      env: deps.toolEnv,
      signal,
      transcript: deps.transcript,
      onToolStart: (call) => progress(describeToolCall(call.name, call.input)),
      ...(deps.redact ? { redact: deps.redact } : {})
    });
    append(truncated ? withTruncatedCall(result.message, truncated) : result.message);
    if (result.compactionRequest) {
      deps.transcript.append({
        type: 'compaction_requested',
        turn: ledger.turns,
        focus: result.compactionRequest.focus ?? null
      });
      await compact({ kind: 'manual', focus: result.compactionRequest.focus });
    }
  };

  /** A limit ends the run; the model is asked once for a closing summary the report can show. */
  const finishAtLimit = async (limit: StopReason): Promise<RunResult> => {
    const why = describeLimit(limit, settings.limits);
    const closing = await requestFinalSummary(history, why, {
      model: deps.model,
      requests: deps.requests,
      signal: deps.signal,
      onRetry: (attempt, error) =>
        deps.transcript.append({ type: 'retry', turn: ledger.turns, attempt, error: error.message })
    });
    if (!closing) return finish(limit, why);
    ledger.charge(closing.reply.usage, settings.modelSpec.prices);
    if (closing.text === '') return finish(limit, why);
    history = history.at(-1)?.role === 'user' ? history.slice(0, -1) : history;
    append(closing.request);
    append({ role: 'assistant', content: closing.reply.content });
    return finish(limit, `${why}\n\n${closing.text}`);
  };

  try {
    for (;;) {
      const limit = reachedLimit(
        { turns: ledger.turns, elapsedMs: now() - startedAt, costUsd: ledger.cost },
        settings.limits
      );
      if (limit) return await finishAtLimit(limit);

      await compact({ kind: 'before_request' });
      const reply = await requestTurnOrCompact();
      if (reply.stopReason === 'model_context_window_exceeded') {
        // The prompt fit, but prompt + output did not: the partial reply is dropped (it never joins
        // the history, so nothing is edited) and the history is compacted before the turn is tried again.
        if (++windowExceededInARow > MAX_WINDOW_EXCEEDED_IN_A_ROW) {
          return finish(
            'error_during_execution',
            '',
            `The model's context window was exceeded ${windowExceededInARow} times in a row, even after ` +
              'compacting. Lower max_output_tokens or compaction_threshold_tokens, or use a model with a larger window.'
          );
        }
        deps.transcript.append({
          type: 'retry',
          turn: ledger.turns,
          attempt: windowExceededInARow,
          error: 'model_context_window_exceeded: the reply was dropped; compacting, then asking again'
        });
        await compact({
          kind: 'overflow',
          actualTokens: promptTokens(reply.usage) + reply.usage.output,
          maximumTokens: undefined
        });
        continue;
      }
      windowExceededInARow = 0;
      if (reply.content.length > 0) append({ role: 'assistant', content: reply.content });
      const calls = toolUseBlocks(reply.content);

      switch (reply.stopReason) {
        case 'tool_use':
          await answerTools(calls);
          break;
        case 'max_tokens':
          if (calls.length > 0) await answerTools(calls.slice(0, -1), calls.at(-1));
          else if (reply.content.length > 0)
            append({ role: 'user', content: [{ type: 'text', text: CONTINUE_AFTER_MAX_TOKENS }] });
          else
            return finish('error_during_execution', '', 'The model returned no content before max_tokens.');
          break;
        case 'pause_turn':
          // A paused turn: the docs say to send the reply back as it is, and the model resumes.
          break;
        case 'refusal':
          return finish('error_during_execution', finalText(reply.content), refusalMessage(ledger.turns));
        default:
          return finish('success', finalText(reply.content));
      }
    }
  } catch (error) {
    if (deadline.signal.aborted && !deps.signal?.aborted) return await finishAtLimit('error_timeout');
    if (deps.signal?.aborted) return finish('error_during_execution', '', 'The run was cancelled.', true);
    return finish('error_during_execution', '', describeError(error));
  } finally {
    clearTimeout(timer);
  }
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

function finalText(content: readonly ContentBlockParam[]): string {
  return content
    .flatMap((block) => (block.type === 'text' ? [block.text] : []))
    .join('\n')
    .trim();
}

function toRecord(usage: TokenUsage): UsageRecord {
  return {
    input: usage.input,
    cache_write: usage.cacheWrite,
    cache_read: usage.cacheRead,
    output: usage.output
  };
}

function describeError(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}
