import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import type { ModelPrices } from '../config/models.js';
import { promptTooLong } from '../model/errors.js';
import type { ModelClient } from '../model/model-client.js';
import type { RequestBuilder } from '../model/request-builder.js';
import { addUsage, costUsd, NO_USAGE, type TokenUsage } from '../model/usage.js';
import {
  compactionEvent,
  type CompactionContext,
  type CompactionEvent,
  type CompactionExchange,
  type CompactionLayer,
  type CompactionResult,
  type CompactionTrigger,
  type Compactor
} from './compactor.js';
import {
  breakerAfter,
  breakerAllows,
  CLOSED_BREAKER,
  type BreakerSettings,
  type BreakerState
} from './circuit-breaker.js';
import { historyChars, taskOf } from './history.js';
import {
  clearCandidates,
  clearResults,
  decideMicroClear,
  emptyMicroIndex,
  forgetCleared,
  indexNewResults,
  type MicroIndex
} from './micro.js';
import { compactedHistory, selectTail, type RestoredFile } from './rebuild.js';
import { withLowerWindow, type CompactionSettings } from './settings.js';
import { spillLargeResults, type SpillWriter } from './spill.js';
import {
  freshSummaryMessages,
  summaryFromReply,
  summaryInstruction,
  withSummaryInstruction
} from './summary.js';
import { countThinkingBlocks, stripThinkingFrom } from '../model/thinking.js';
import { TokenMeter } from './token-meter.js';
import { emptyWorkLedger, recordWork, renderWorkLedger, type WorkLedger } from './work-ledger.js';

/** The disk and the repository, as compaction needs them. Handed in, so strategies test without I/O. */
export interface CompactionStore {
  /** Saves the history as it is before a compaction drops anything; returns the segment's path. */
  saveSegment(number: number, history: readonly MessageParam[]): string;
  readonly spill: SpillWriter;
  /** A file as read_file would show it, bounded to `maxTokens`; undefined when it is gone. */
  readRecentFile(path: string, maxTokens: number, estimate: (chars: number) => number): string | undefined;
  /** `git status --porcelain` lines, or undefined when git cannot say. */
  changedFiles(): Promise<string[] | undefined>;
  /** Where the model is told the full transcript is. */
  readonly transcriptPath: string;
}

export interface CompactionDependencies {
  readonly model: ModelClient;
  readonly requests: RequestBuilder;
  readonly prices: ModelPrices;
  readonly store: CompactionStore;
  readonly now: () => number;
}

/** What a summary (or its fallback) replaced the history with. */
interface Rebuilt {
  readonly history: MessageParam[];
  readonly tokens: number;
}

/**
 * The three layers and the spill, composed: spill new oversized results, micro-clear in batches,
 * auto-compact past the threshold, and compact on request. Holds the run's compaction state; the
 * strategies it calls are functions over the history.
 */
export class CompactionPipeline implements Compactor {
  private readonly meter: TokenMeter;
  private micro: MicroIndex = emptyMicroIndex();
  private readonly ledger: WorkLedger = emptyWorkLedger();
  private sentCount = 0;
  private lastRequestAt: number | undefined;
  private summaryCompactions = 0;
  private breaker: BreakerState = CLOSED_BREAKER;
  private segments = 0;

  constructor(
    /** Replaced, never mutated, if the API reports a smaller window. */
    private settings: CompactionSettings,
    private readonly deps: CompactionDependencies
  ) {
    this.meter = new TokenMeter(deps.requests.prefixChars());
  }

  private breakerSettings(): BreakerSettings {
    return {
      maxFailures: this.settings.maxConsecutiveFailures,
      cooldownTurns: this.settings.breakerCooldownTurns
    };
  }

  /** The chars-per-token ratio learned so far (reported by the benchmark). */
  get charsPerToken(): number {
    return this.meter.ratio;
  }

  async compact(
    history: MessageParam[],
    trigger: CompactionTrigger,
    context: CompactionContext
  ): Promise<CompactionResult> {
    this.meter.observe(context.lastUsage);
    recordWork(this.ledger, history, context.turn);
    const run = new CompactionRun(history, context.turn);

    this.spill(run);
    if (trigger.kind === 'before_request') {
      if (this.settings.layers.micro) this.microClear(run);
      if (this.settings.layers.auto) await this.autoCompact(run, context);
    } else if (trigger.kind === 'manual') {
      await this.summarize(run, context, 'manual', 'the agent called compact', trigger.focus);
    } else {
      if (trigger.actualTokens) this.meter.correct(trigger.actualTokens, run.history);
      // The API knows the real window: a gateway or a model may allow less than the table says.
      if (trigger.maximumTokens) this.settings = withLowerWindow(this.settings, trigger.maximumTokens);
      await this.summarize(
        run,
        context,
        'auto',
        `the API answered prompt is too long (${trigger.actualTokens ?? '?'} tokens)`,
        undefined
      );
    }

    const estimated = this.tokensOf(run);
    if (trigger.kind === 'before_request') {
      this.meter.recordSent(run.history, run.changedOldMessages ? 0 : this.sentCount);
      this.sentCount = run.history.length;
      this.lastRequestAt = this.deps.now();
    }
    return {
      history: run.history,
      events: run.events,
      usage: run.usage,
      exchanges: run.exchanges,
      estimatedContextTokens: estimated,
      ...(run.editedFrom !== undefined ? { editedFrom: run.editedFrom } : {}),
      ...(run.thinkingDropped > 0 ? { thinkingBlocksDropped: run.thinkingDropped } : {})
    };
  }

  /**
   * Every change to earlier history goes through here. The history is append-only but for these
   * edit points; on models whose thinking is bound to the conversation, the thinking blocks after
   * the edit are removed before any request can carry them (see model/thinking.ts).
   * Returns how many thinking blocks were removed.
   */
  private edit(run: CompactionRun, history: MessageParam[], editedFrom: number): number {
    run.editedFrom = Math.min(run.editedFrom ?? editedFrom, editedFrom);
    if (!this.deps.requests.bindsThinking) {
      run.history = history;
      return 0;
    }
    const before = countThinkingBlocks(history.slice(editedFrom));
    run.history = stripThinkingFrom(history, editedFrom);
    run.thinkingDropped += before;
    return before;
  }

  /** Measured plus estimated, unless a sent message changed in this call: then all of it is estimated. */
  private tokensOf(run: CompactionRun): number {
    return run.changedOldMessages
      ? this.meter.estimateRequest(run.history)
      : this.meter.contextTokens(run.history);
  }

  private spill(run: CompactionRun): void {
    const { history, spilled } = spillLargeResults(
      run.history,
      this.sentCount,
      this.settings.spill,
      this.deps.store.spill
    );
    if (spilled.length === 0) return;
    this.edit(run, history, Math.min(...spilled.map((item) => item.messageIndex)));
    for (const item of spilled) {
      run.event({
        layer: 'spill',
        reason: `tool result of ${item.chars} characters saved to ${item.path}`,
        tokens_before: this.meter.estimate(item.chars),
        tokens_after: this.meter.estimate(this.settings.spill.previewChars + 300),
        results_cleared: 1,
        tool_use_ids: [item.toolUseId]
      });
    }
  }

  private microClear(run: CompactionRun): void {
    indexNewResults(this.micro, run.history, this.settings.micro, (chars) => this.meter.estimate(chars));
    const candidates = clearCandidates(this.micro, this.settings.micro, run.history.length - 1);
    const idle = this.lastRequestAt === undefined ? undefined : this.deps.now() - this.lastRequestAt;
    const decision = decideMicroClear(candidates, this.settings.micro, idle, this.settings.cacheTtlMs);
    if (!decision.clear) return;
    const before = this.tokensOf(run);
    const cleared = clearResults(run.history, candidates);
    const changed = [...new Set(candidates.map((result) => result.messageIndex))];
    const sentBefore = historyChars(changed.map((index) => run.history[index]!));
    const sentAfter = historyChars(changed.map((index) => cleared[index]!));
    const stripped = this.edit(run, cleared, Math.min(...changed));
    if (stripped === 0 && changed.every((index) => index < this.sentCount))
      this.meter.rewroteSent(sentBefore, sentAfter);
    else run.changedOldMessages = true;
    forgetCleared(this.micro, candidates);
    run.event({
      layer: 'micro',
      reason: decision.reason,
      tokens_before: before,
      tokens_after: this.tokensOf(run),
      results_cleared: candidates.length,
      tool_use_ids: candidates.map((result) => result.toolUseId)
    });
  }

  private async autoCompact(run: CompactionRun, context: CompactionContext): Promise<void> {
    const tokens = this.tokensOf(run);
    if (tokens <= this.settings.thresholdTokens) return;
    const expectedAfter = this.rebuildEstimate(run.history);
    if (tokens - expectedAfter < this.settings.minSavingsTokens) return;
    await this.summarize(
      run,
      context,
      'auto',
      `context ~${tokens} tokens > threshold ${this.settings.thresholdTokens}`,
      undefined
    );
  }

  /** A cheap upper estimate of the history after a compaction: summary budget, ledger, files and tail. */
  private rebuildEstimate(history: readonly MessageParam[]): number {
    const task = this.meter.estimate(taskOf(history).length);
    return task + 3_000 + this.settings.keepTailTokens + this.settings.maxRestoredTokens;
  }

  /** Summary compaction with retries, the circuit breaker, and the fallback that needs no model. */
  private async summarize(
    run: CompactionRun,
    context: CompactionContext,
    layer: CompactionLayer,
    reason: string,
    focus: string | undefined
  ): Promise<void> {
    if (run.history.length < 2) return;
    const started = this.deps.now();
    const before = this.tokensOf(run);
    const segment = this.deps.store.saveSegment(++this.segments, run.history);
    const gate = breakerAllows(this.breaker, this.breakerSettings(), context.turn);
    const overBudget = this.summaryCompactions >= this.settings.maxCompactions;
    let summary: { text: string; usage: TokenUsage } | undefined;
    let failure: string | undefined;
    if (!gate.allowed) failure = gate.reason;
    else if (overBudget) failure = `max_compactions (${this.settings.maxCompactions}) reached`;
    else {
      // Half-open: one try, not the usual retries, before the breaker decides again.
      const attempts = gate.halfOpen ? 1 : this.settings.summaryAttempts;
      const attempt = await this.requestSummary(run, focus, context, before, attempts);
      run.usage = addUsage(run.usage, attempt.usage);
      if (attempt.text !== undefined) summary = { text: attempt.text, usage: attempt.usage };
      else failure = attempt.error;
      this.breaker = breakerAfter(this.breaker, this.breakerSettings(), context.turn, summary !== undefined);
    }
    if (summary) this.summaryCompactions++;
    const header = summary
      ? this.summaryHeader(summary.text, segment, context.turn)
      : this.fallbackHeader(failure ?? 'unknown', segment);
    const rebuilt = await this.rebuild(run.history, header);
    this.edit(run, rebuilt.history, 0);
    run.changedOldMessages = true;
    this.afterRebuild(run.history);
    run.event({
      layer: summary ? layer : 'fallback',
      reason: summary ? reason : `${reason}; summary failed (${failure}), dropped the oldest turns`,
      tokens_before: before,
      tokens_after: rebuilt.tokens,
      summary_tokens: summary?.usage.output ?? 0,
      summary_cost_usd: summary ? costUsd(summary.usage, this.deps.prices) : 0,
      duration_ms: this.deps.now() - started,
      segment_path: segment,
      focus: focus ?? null,
      ...(summary ? { summary: summary.text } : {})
    });
  }

  /** Asks the model for the summary, up to `summaryAttempts` times. Never throws: failures fall back. */
  private async requestSummary(
    run: CompactionRun,
    focus: string | undefined,
    context: CompactionContext,
    replacedTokens: number,
    attempts: number
  ): Promise<{ text?: string; error?: string; usage: TokenUsage }> {
    const { signal, onRetry } = context;
    let usage = NO_USAGE;
    let error = 'no attempt made';
    for (let attempt = 1; attempt <= attempts; attempt++) {
      if (signal?.aborted) return { error: 'aborted', usage };
      // Built per attempt: a prompt-too-long answer lowers the window, and the next try fits under it.
      const messages = this.summaryMessages(run.history, summaryInstruction(focus));
      const request = this.deps.requests.build(messages, this.settings.summaryMaxTokens);
      if (
        this.meter.estimateRequest(messages) + this.settings.summaryMaxTokens >
        this.settings.contextWindow
      ) {
        return { error: 'even the shortest summary request would not fit the context window', usage };
      }
      try {
        const reply = await this.deps.model.complete(request, {
          ...(signal ? { signal } : {}),
          ...(onRetry ? { onRetry } : {})
        });
        run.exchanges.push({ messages, reply: reply.content });
        usage = addUsage(usage, reply.usage);
        const accepted = summaryFromReply(reply, replacedTokens, (chars) => this.meter.estimate(chars));
        return { text: accepted.text, usage };
      } catch (failure) {
        if (run.exchanges.at(-1)?.messages !== messages) run.exchanges.push({ messages, reply: undefined });
        error = failure instanceof Error ? failure.message : String(failure);
        // The summary request was the first to meet a smaller real window (a gateway, say): learn it.
        const overflow = promptTooLong(failure);
        if (overflow?.actualTokens) this.meter.correct(overflow.actualTokens, messages);
        if (overflow?.maximumTokens) this.settings = withLowerWindow(this.settings, overflow.maximumTokens);
        if (attempt < attempts) onRetry?.(attempt, failure instanceof Error ? failure : new Error(error));
      }
    }
    return { error, usage };
  }

  private summaryMessages(history: readonly MessageParam[], instruction: string): MessageParam[] {
    const fitted = this.fitForSummary(history);
    if (this.settings.summaryPrefixReuse) return withSummaryInstruction(fitted, instruction);
    const budget = this.settings.contextWindow - this.settings.summaryMaxTokens - 2_000;
    const maxChars = Math.floor(budget * this.meter.ratio * 0.8);
    return freshSummaryMessages(fitted, instruction, maxChars);
  }

  /**
   * The history the summary request can carry without overflowing the window: as it is when it fits
   * (so the cached prefix is read), else the task and as many recent turns as fit.
   */
  private fitForSummary(history: readonly MessageParam[]): readonly MessageParam[] {
    const budget = this.settings.contextWindow - this.settings.summaryMaxTokens - 2_000;
    if (this.meter.estimateRequest(history) <= budget) return history;
    const prefix = this.meter.estimate(this.deps.requests.prefixChars());
    const first = history[0]!;
    const room = budget - prefix - this.meter.estimateMessages([first]);
    const fitted = [first, ...selectTail(history, room, (message) => this.meter.estimateMessages([message]))];
    // Dropping the middle is an edit: the tail's thinking no longer matches its prefix.
    return this.deps.requests.bindsThinking ? stripThinkingFrom(fitted, 1) : fitted;
  }

  private summaryHeader(summary: string, segment: string, turn: number): string {
    return [
      `<conversation-summary compaction="${this.segments}" turn="${turn}">`,
      `Earlier messages were compacted. Full transcript: ${this.deps.store.transcriptPath}; the history as it`,
      `was before this compaction: ${segment}. Read them with read_file if a detail is missing.`,
      '',
      summary,
      '</conversation-summary>'
    ].join('\n');
  }

  private fallbackHeader(failure: string, segment: string): string {
    return [
      '<conversation-summary kind="fallback">',
      `The oldest turns were dropped without a summary (${failure}).`,
      `They are in ${segment} and in ${this.deps.store.transcriptPath}; read them with read_file if needed.`,
      '</conversation-summary>'
    ].join('\n');
  }

  /**
   * Builds the compacted history, harder each time it is not well under the threshold: a shorter
   * tail, then no files, then no tail. A compaction that leaves the context near the threshold would
   * trigger again on the next turn.
   */
  private async rebuild(history: readonly MessageParam[], header: string): Promise<Rebuilt> {
    const ledger = renderWorkLedger(this.ledger, await this.deps.store.changedFiles());
    const target = Math.floor(this.settings.thresholdTokens / 2);
    const tokensOf = (message: MessageParam) => this.meter.estimateMessages([message]);
    const plans = [
      { tail: this.settings.keepTailTokens, files: this.settings.restoreRecentFiles },
      { tail: Math.floor(this.settings.keepTailTokens / 2), files: this.settings.restoreRecentFiles },
      { tail: Math.floor(this.settings.keepTailTokens / 2), files: 0 },
      { tail: 0, files: 0 }
    ];
    let rebuilt: Rebuilt | undefined;
    for (const plan of plans) {
      const tail = selectTail(history, plan.tail, tokensOf);
      const next = compactedHistory({
        task: taskOf(history),
        header,
        ledger,
        files: this.restoreFiles(tail, plan.files),
        tail
      });
      const tokens = this.meter.estimateRequest(next);
      rebuilt = { history: next, tokens };
      if (tokens <= target) break;
    }
    return rebuilt!;
  }

  /** Up to `count` recently read files that the tail does not already show, re-read from disk. */
  private restoreFiles(tail: readonly MessageParam[], count: number): RestoredFile[] {
    if (count === 0) return [];
    const inTail = JSON.stringify(tail);
    const files: RestoredFile[] = [];
    let budget = this.settings.maxRestoredTokens;
    for (const path of [...this.ledger.recentReads].reverse()) {
      if (files.length >= count || budget <= 0) break;
      if (inTail.includes(`"path":"${path}"`)) continue;
      const text = this.deps.store.readRecentFile(
        path,
        Math.min(this.settings.maxFileTokens, budget),
        (chars) => this.meter.estimate(chars)
      );
      if (text === undefined) continue;
      budget -= this.meter.estimate(text.length);
      files.push({ path, text });
    }
    return files;
  }

  /** The new history is indexed afresh: its positions changed, and its tail results are now the recent ones. */
  private afterRebuild(history: readonly MessageParam[]): void {
    this.micro = emptyMicroIndex();
    this.ledger.indexedUpTo = history.length;
    this.meter.forget();
    this.sentCount = 0;
  }
}

/** One call's working state: the history as it evolves, the events, and the model usage. */
class CompactionRun {
  readonly events: CompactionEvent[] = [];
  readonly exchanges: CompactionExchange[] = [];
  usage: TokenUsage = NO_USAGE;
  /** True once a message that was already sent has changed: the token base must be measured again. */
  changedOldMessages = false;
  /** The earliest message index this call changed, if any. */
  editedFrom: number | undefined;
  /** Thinking blocks removed because an edit came before them. */
  thinkingDropped = 0;

  constructor(
    public history: MessageParam[],
    private readonly turn: number
  ) {}

  event(
    fields: Partial<CompactionEvent> &
      Pick<CompactionEvent, 'layer' | 'reason' | 'tokens_before' | 'tokens_after'>
  ): void {
    this.events.push(compactionEvent(this.turn, fields));
  }
}
