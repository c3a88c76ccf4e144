import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runSession } from '../src/agent/session.js';
import type { CompactionEvent, Compactor } from '../src/compaction/compactor.js';
import { parseAgentConfig } from '../src/config/inputs.js';
import { resolveModelSpec } from '../src/config/models.js';
import { AnthropicModelClient } from '../src/model/anthropic-client.js';
import type { ModelClient } from '../src/model/model-client.js';
import {
  compactionConfig,
  createPromptCache,
  renderPrompt,
  startFakeAnthropic,
  sumTokens,
  type MessageParam,
  type ParsedRequest,
  type TokenCounter,
  type UsageContext
} from '../test-support/fake-anthropic/index.js';
import type { MessageParam as SdkMessageParam } from '@anthropic-ai/sdk/resources/messages';
import { BENCH_TASK, benchScript, isSummaryRequest, type RetentionProbe } from './bench-model.js';
import type { ServerTools, ServerView } from './server-side/server-side.js';
import { NeedSchedule, type NeedRecord } from './needs.js';
import type { Strategy } from './strategies/index.js';
import type { SeedFile, WorkloadPlan } from './workload.js';
import { commitBenchRepository } from './bench-repository.js';

/** What one answered request cost, as the fake's prompt-cache model billed it. */
export interface RequestRecord {
  readonly kind: 'agent' | 'summary';
  readonly promptTokens: number;
  readonly input: number;
  readonly cacheWrite: number;
  readonly cacheRead: number;
  output: number;
  /** Agent requests: the compactor changed the history since the previous agent request. */
  readonly afterCompaction: boolean;
  /** Agent requests: what the strategy estimated this context at (undefined: no estimate). */
  readonly estimate: number | undefined;
  /** Agent requests: tokens first sent here (the new tool results and the reply before them). */
  readonly newTokens: number;
  /** Agent requests answered with a re-fetch of a forgotten fact: one extra turn. */
  readonly refetch: boolean;
  /** The fake's call that this record bills (undefined: a summary step the server ran inside a call). */
  readonly callIndex?: number;
}

/** Everything measured in one run of one strategy. */
export interface RunRecord {
  readonly strategy: string;
  readonly model: string;
  readonly turns: number;
  /** Planned turns answered (re-fetch turns not counted). */
  readonly agentTurns: number;
  readonly stopReason: string;
  readonly requests: readonly RequestRecord[];
  /** Requests the fake refused as longer than the window, and the agent turn of the first one. */
  readonly overflows: number;
  readonly firstOverflowTurn: number | undefined;
  readonly compactions: readonly CompactionEvent[];
  readonly probes: readonly RetentionProbe[];
  /** Every need of the run and what it took (empty when run without needs). */
  readonly needs: readonly NeedRecord[];
  /** Per agent request from the 11th on: the share of the last 10 turns' thinking it carried. */
  readonly thinkingShares: readonly number[];
  /** Thinking blocks the client stripped after its own edits, and their tokens. */
  readonly thinkingStrippedBlocks: number;
  readonly thinkingStrippedTokens: number;
  /** Server-side edits by kind (server_clear, server_compact). */
  readonly serverEvents: Readonly<Record<string, number>>;
}

export interface RunOptions {
  readonly strategy: Strategy;
  readonly turns: number;
  readonly seedDir: string;
  readonly plan: WorkloadPlan;
  /** Shared between runs: the same texts are tokenized once. */
  readonly tokenCounter: TokenCounter;
  /** The seed the plan was made from: with it, the agent needs earlier facts (needs.ts). */
  readonly seed?: readonly SeedFile[];
  /** The model named in the config; the fake's window is its window. Default claude-sonnet-5-5. */
  readonly model?: string;
}

export const BENCH_MODEL = 'claude-sonnet-5-5';
/** Simulated seconds a model call takes: the clock the prompt cache's 5-minute TTL runs on. */
const SECONDS_PER_CALL = 12;

/** Runs the workload for one strategy through the real loop, the real compaction code and the fake API. */
export async function runStrategy(options: RunOptions): Promise<RunRecord> {
  const { strategy, turns } = options;
  const repo = createRepo(options.seedDir);
  let clock = Date.UTC(2026, 10, 22, 9);
  const model = options.model ?? BENCH_MODEL;
  const schedule = options.seed ? new NeedSchedule(options.plan, options.seed) : undefined;
  const script = benchScript(options.plan, turns, schedule);
  const cache = createPromptCache();
  const records: RequestRecord[] = [];
  const counter = options.tokenCounter;
  const window = resolveModelSpec(model).contextWindow;
  const server = strategy.serverSide?.();
  // What the server made of each call's request (by callIndex), from the script to the usage model.
  const views = new Map<number, ServerView>();
  const serverEvents: Record<string, number> = {};
  let serverOverflows = 0;
  const serverTools: ServerTools = {
    count: (request) => sumTokens(renderPrompt(request, counter)),
    countText: (value) => counter.count(value),
    summarize: (request) => {
      clock += SECONDS_PER_CALL * 1000;
      const answer = script(asSummaryRequest(request), { callIndex: -1 });
      return answer.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('\n');
    }
  };
  let thinkingStrippedBlocks = 0;
  let thinkingStrippedTokens = 0;
  // The summary of the on-demand compaction being answered: billed as that request's output.
  let compactionOutput: number | undefined;
  // Set by the compactor wrapper before each request, read by the usage model when it is answered.
  let pending: { estimate: number | undefined; compacted: boolean } = {
    estimate: undefined,
    compacted: false
  };

  const fake = await startFakeAnthropic({
    recordBodies: false,
    tokenCounter: options.tokenCounter,
    // With server-side edits the client sends its whole history; the window applies to the edited one.
    contextWindow: server ? Number.MAX_SAFE_INTEGER : window,
    clock: () => clock,
    // The product's API engine (compaction_engine: api) asks the fake for an on-demand compaction:
    // the bench's model writes that summary as it writes ours.
    compactionSummary: (request) => {
      const summary = serverTools.summarize(request);
      compactionOutput = counter.count(summary);
      return summary;
    },
    script: (request, context) => {
      clock += SECONDS_PER_CALL * 1000;
      if (!server) return script(request, context);
      const view = server.view(request, serverTools);
      views.set(context.callIndex, view);
      return script(view.request, context);
    },
    usageModel: (sent) => {
      const view = views.get(sent.callIndex);
      views.delete(sent.callIndex);
      for (const iteration of view?.iterations ?? [])
        records.push(billIteration(iteration.prompt, iteration.summary));
      for (const event of view?.events ?? []) serverEvents[event] = (serverEvents[event] ?? 0) + 1;
      const context = view ? seenContext(sent, view.request) : sent;
      if (context.promptTokens > window) serverOverflows++;
      const usage = cache(context);
      // An on-demand compaction uses no script call: it has no call of its own to match its output by.
      const compaction = compactionConfig(context.request) !== undefined;
      const kind = isSummaryRequest(context.request) || compaction ? 'summary' : 'agent';
      records.push({
        ...(compaction ? {} : { callIndex: sent.callIndex }),
        kind,
        promptTokens: context.promptTokens,
        input: usage.input_tokens,
        cacheWrite: usage.cache_creation_input_tokens,
        cacheRead: usage.cache_read_input_tokens,
        output: compaction ? (compactionOutput ?? 0) : 0,
        afterCompaction: kind === 'agent' && pending.compacted,
        estimate: kind === 'agent' ? pending.estimate : undefined,
        // What the client sent new, whatever the server did to it.
        newTokens: kind === 'agent' ? newTokensOf(sent.request, sent.segments, records.length === 0) : 0,
        refetch: kind === 'agent' && script.refetchCalls.has(context.callIndex)
      });
      if (kind === 'agent') pending = { estimate: undefined, compacted: false };
      return usage;
    }
  });
  /** The request as the model reads it after the server's edits, counted and cached as such. */
  const seenContext = (sent: UsageContext, request: ParsedRequest): UsageContext => {
    const segments = renderPrompt(request, counter);
    return { ...sent, request, segments, promptTokens: sumTokens(segments) };
  };
  /** A summary step the server ran inside a request (threshold compaction's usage.iterations). */
  const billIteration = (prompt: ParsedRequest, summary: string): RequestRecord => {
    const segments = renderPrompt(prompt, counter);
    const promptTokens = sumTokens(segments);
    const usage = cache({ request: prompt, segments, promptTokens, callIndex: -1, now: clock });
    return {
      kind: 'summary',
      promptTokens,
      input: usage.input_tokens,
      cacheWrite: usage.cache_creation_input_tokens,
      cacheRead: usage.cache_read_input_tokens,
      output: counter.count(summary),
      afterCompaction: false,
      estimate: undefined,
      newTokens: 0,
      refetch: false
    };
  };
  try {
    const inputs: Record<string, string> = {
      model,
      // Re-fetch turns come on top of the planned ones.
      max_turns: String(2 * turns + 10),
      max_budget_usd: '100000',
      micro_by: strategy.microBy ?? 'client',
      timeout_minutes: '30000'
    };
    const config = parseAgentConfig((name) => inputs[name] ?? '', { ANTHROPIC_API_KEY: 'bench-key' });
    const wrap = strategy.wrapModel ?? ((model: ModelClient) => model);
    const measured = (inner: Compactor): Compactor => ({
      async compact(history, trigger, context) {
        const result = await inner.compact(history, trigger, context);
        const dropped = result.thinkingBlocksDropped ?? 0;
        if (dropped > 0) {
          thinkingStrippedBlocks += dropped;
          thinkingStrippedTokens += dropped * meanRemovedThinkingTokens(history, result.history, counter);
        }
        pending = {
          estimate: result.estimatedContextTokens,
          compacted: pending.compacted || result.events.length > 0
        };
        return result;
      }
    });
    const outcome = await runSession({
      config,
      task: BENCH_TASK,
      repoDir: repo,
      transcriptsDir: path.join(repo, '.transcripts'),
      runId: `bench-${strategy.name}-${turns}`,
      env: { PATH: process.env.PATH, HOME: process.env.HOME },
      model: wrap(new AnthropicModelClient({ apiKey: 'bench-key', baseURL: fake.url, retryBaseDelayMs: 1 })),
      compactor: (parts) => measured(strategy.build(parts, () => clock)),
      now: () => clock
    });
    // Output tokens come from the answers, matched by call (server summary steps carry their own).
    const answered = fake.requests.filter((request) => request.response?.kind === 'message');
    const byCall = new Map(
      records.flatMap((record) => (record.callIndex === undefined ? [] : [[record.callIndex, record]]))
    );
    for (const request of answered) {
      const record = request.callIndex === null ? undefined : byCall.get(request.callIndex);
      if (record && request.response?.kind === 'message')
        record.output = request.response.usage.output_tokens;
    }
    const seqOfCall = new Map(answered.map((request) => [request.callIndex, request.seq]));
    const overflowed = fake.requests.filter(
      (request) => request.response?.kind === 'error' && /prompt is too long/.test(request.response.message)
    );
    const firstOverflow = overflowed[0];
    return {
      strategy: strategy.name,
      model,
      turns,
      agentTurns: script.agentTurns(),
      stopReason: outcome.result.stopReason,
      requests: records,
      overflows: overflowed.length + serverOverflows,
      firstOverflowTurn:
        firstOverflow === undefined
          ? undefined
          : records.filter(
              (record) =>
                record.kind === 'agent' &&
                record.callIndex !== undefined &&
                (seqOfCall.get(record.callIndex) ?? Infinity) < firstOverflow.seq
            ).length,
      compactions: outcome.result.compactionLog,
      probes: script.probes,
      needs: script.needs,
      thinkingShares: script.thinkingShares,
      thinkingStrippedBlocks,
      thinkingStrippedTokens,
      serverEvents
    };
  } finally {
    await fake.close();
    rmSync(repo, { recursive: true, force: true });
  }
}

/** A git repository holding the seed, as actions/checkout would leave it. */
function createRepo(seedDir: string): string {
  const root = mkdtempSync(path.join(tmpdir(), 'compact-agent-bench-repo-'));
  cpSync(seedDir, root, { recursive: true });
  commitBenchRepository(root, 'seed');
  return root;
}

/**
 * The tokens a request sends for the first time: all of the first request, then the last message
 * (new tool results) and the reply before it. The cost floor writes each of them once.
 */
function newTokensOf(
  request: ParsedRequest,
  segments: ReadonlyArray<{ messageIndex?: number; tokens: number }>,
  first: boolean
): number {
  if (first) return segments.reduce((sum, segment) => sum + segment.tokens, 0);
  const last = request.messages.length - 1;
  return segments
    .filter((segment) => segment.messageIndex !== undefined && segment.messageIndex >= last - 1)
    .reduce((sum, segment) => sum + segment.tokens, 0);
}

/** The request with our summary instruction appended: the scripted model answers it with a summary. */
function asSummaryRequest(request: ParsedRequest): ParsedRequest {
  const instruction = {
    type: 'text' as const,
    text: '<compaction-request>Summarize the conversation.</compaction-request>'
  };
  const messages: MessageParam[] = [...request.messages];
  const last = messages.at(-1);
  if (last?.role === 'user')
    messages[messages.length - 1] = {
      ...last,
      content: [
        ...(typeof last.content === 'string'
          ? [{ type: 'text' as const, text: last.content }]
          : last.content),
        instruction
      ]
    };
  else messages.push({ role: 'user', content: [instruction] });
  return { ...request, messages };
}

/** The mean tokens of the thinking blocks an edit removed (stripped ones and summarized ones alike). */
function meanRemovedThinkingTokens(
  before: readonly SdkMessageParam[],
  after: readonly SdkMessageParam[],
  counter: TokenCounter
): number {
  const thinkingOf = (history: readonly SdkMessageParam[]) =>
    history.flatMap((message) =>
      typeof message.content === 'string'
        ? []
        : message.content.flatMap((block) => (block.type === 'thinking' ? [block.thinking] : []))
    );
  const kept = new Set(thinkingOf(after));
  const removed = thinkingOf(before).filter((text) => !kept.has(text));
  return removed.length === 0
    ? 0
    : removed.reduce((sum, text) => sum + counter.count(text), 0) / removed.length;
}
