import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import type { ModelPrices } from '../config/models.js';
import { promptTooLong } from '../model/errors.js';
import type { ModelClient } from '../model/model-client.js';
import type { RequestBuilder } from '../model/request-builder.js';
import { stripThinkingFrom } from '../model/thinking.js';
import { addUsage, costUsd, NO_USAGE, type TokenUsage } from '../model/usage.js';
import {
  breakerAfter,
  breakerAllows,
  CLOSED_BREAKER,
  type BreakerSettings,
  type BreakerState
} from './circuit-breaker.js';
import type { CompactionLayer } from './compactor.js';
import type { CompactionStore } from './compaction-store.js';
import { filesShownIn, withoutDanglingNotes } from './duplicates.js';
import { normalizedPath, taskOf } from './history.js';
import { compactedHistory, selectTail, unseenTurnStart, type RestoredFile } from './rebuild.js';
import type { StepCall } from './steps/step.js';
import { summaryFromReply, summaryInstruction, withSummaryInstruction } from './summary.js';
import { renderWorkLedger } from './work-ledger.js';
import {
  canUpdateAnchor,
  describeUpdate,
  summaryUpdateInstruction,
  withUpdate,
  type SummaryAnchor
} from './summary-anchor.js';
import { errorMessage } from '../errors/error-message.js';

export interface SummarizerDependencies {
  readonly model: ModelClient;
  readonly requests: RequestBuilder;
  readonly prices: ModelPrices;
  readonly store: CompactionStore;
  readonly now: () => number;
  /**
   * Unset (what ships): the summary request is the agent's own history plus the instruction, so its
   * prefix is read from the prompt cache. The benchmark's ablation sends it another way
   * (bench/strategies/fresh-summary.ts; never better, BENCHMARKS.md).
   */
  readonly summaryRequest?: SummaryRequestShape;
}

/** A summary request built from the history (cut to fit) and the instruction, within `maxChars`. */
export type SummaryRequestShape = (
  history: readonly MessageParam[],
  instruction: string,
  maxChars: number
) => MessageParam[];

/** What a summary (or its fallback) replaced the history with. */
interface Rebuilt {
  readonly history: MessageParam[];
  readonly tokens: number;
}

/**
 * Summary compaction, shared by the auto, manual and overflow steps: save the history as a segment,
 * ask the model for a summary on the cached prefix (with retries, a budget and a circuit breaker),
 * and rebuild the history as task + summary + ledger + restored files + recent tail; without a
 * summary, the same rebuild with a note instead (the fallback, which needs no model).
 */
export class Summarizer {
  private summaries = 0;
  private segments = 0;
  private breaker: BreakerState = CLOSED_BREAKER;
  /** Our summary in the history, which the next one may update instead of rewriting (summary-anchor.ts). */
  private anchor: SummaryAnchor | undefined;

  constructor(private readonly deps: SummarizerDependencies) {}

  async summarize(call: StepCall, layer: CompactionLayer, reason: string, focus?: string): Promise<void> {
    const { run, state, context } = call;
    if (run.history.length < 2) return;
    const started = this.deps.now();
    const before = state.tokensOf(run);
    const unseen = this.unseenTurn(call);
    const segment = this.saveSegment(run.history);
    // Another request shape (the bench's) may cut the kept summary out: every summary is whole there.
    const updating =
      state.settings.summaryUpdates &&
      this.deps.summaryRequest === undefined &&
      canUpdateAnchor(this.anchor, run.history, focus)
        ? this.anchor
        : undefined;
    const instruction = updating ? summaryUpdateInstruction() : summaryInstruction(focus);
    const gate = breakerAllows(this.breaker, this.breakerSettings(call), context.turn);
    const overBudget = this.summaries >= state.settings.maxCompactions;
    let summary: { text: string; cut: boolean; usage: TokenUsage } | undefined;
    let failure: string | undefined;
    if (!gate.allowed) failure = gate.reason;
    else if (overBudget) failure = `max_compactions (${state.settings.maxCompactions}) reached`;
    else {
      // Half-open: one try, not the usual retries, before the breaker decides again.
      const attempts = gate.halfOpen ? 1 : state.settings.summaryAttempts;
      const attempt = await this.requestSummary(call, instruction, before, attempts, unseen);
      run.usage = addUsage(run.usage, attempt.usage);
      // A cancelled run ends now, with its history as it is: no fallback rebuild, no breaker count.
      if (context.signal?.aborted) throw context.signal.reason ?? new Error('The run was cancelled.');
      if (attempt.text !== undefined)
        summary = { text: attempt.text, cut: attempt.cut ?? false, usage: attempt.usage };
      else failure = attempt.error;
      this.breaker = breakerAfter(
        this.breaker,
        this.breakerSettings(call),
        context.turn,
        summary !== undefined
      );
    }
    if (summary) this.summaries++;
    const anchored = summary ? this.nextAnchor(updating, summary.text, context.turn, state) : undefined;
    // A summary cut at its length limit may lack its last sections: the next one is written whole.
    this.anchor = summary?.cut ? undefined : anchored;

    const header = anchored
      ? this.summaryHeader(anchored.text, segment, context.turn)
      : this.fallbackHeader(failure ?? 'unknown', segment);
    const rebuilt = await this.rebuild(call, header, unseen);
    run.edit(rebuilt.history, 0);
    run.changedOldMessages = true;
    state.rebuilt(run.history);
    run.event({
      layer: summary ? layer : 'fallback',
      reason: !summary
        ? `${reason}; summary failed (${failure}), dropped the oldest turns`
        : updating
          ? `${reason}; summary updated (${describeUpdate(updating)})`
          : reason,
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

  /** The anchor after this summary: the update appended to the kept one, or a new full summary. */
  private nextAnchor(
    updating: SummaryAnchor | undefined,
    text: string,
    turn: number,
    state: StepCall['state']
  ): SummaryAnchor {
    const tokens = state.meter.estimate(text.length);
    return updating
      ? withUpdate(updating, text, turn, tokens)
      : { text, tokens, fullTokens: tokens, fullTurn: turn, updates: 0 };
  }

  /** Saves the history before a compaction as the next segment (one numbering for both engines). */
  saveSegment(history: readonly MessageParam[]): string {
    return this.deps.store.saveSegment(++this.segments, history);
  }

  /**
   * Before a request, the turn the model has not seen yet (its latest reply and the results of its
   * calls) is left out of the summary request and kept whole after it: the request is then the
   * cached prefix plus the instruction, so nothing is written twice, and the model still reads the
   * results it asked for. Only when that turn fits well under the threshold; else all is summarized.
   */
  private unseenTurn({ run, state, trigger }: StepCall): number | undefined {
    if (trigger.kind !== 'before_request') return undefined;
    return unseenTurnStart(
      run.history,
      state.sentCount,
      Math.floor((state.settings.thresholdTokens * 3) / 4),
      (message) => state.meter.estimateMessages([message])
    );
  }

  private breakerSettings({ state }: StepCall): BreakerSettings {
    return {
      maxFailures: state.settings.maxConsecutiveFailures,
      cooldownTurns: state.settings.breakerCooldownTurns
    };
  }

  /** Asks the model for the summary, up to `attempts` times. Never throws: failures fall back. */
  private async requestSummary(
    call: StepCall,
    instruction: string,
    replacedTokens: number,
    attempts: number,
    unseen: number | undefined
  ): Promise<{ text?: string; cut?: boolean; error?: string; usage: TokenUsage }> {
    const { run, state, context } = call;
    const { signal, onRetry } = context;
    let usage = NO_USAGE;
    let error = 'no attempt made';
    for (let attempt = 1; attempt <= attempts; attempt++) {
      if (signal?.aborted) return { error: 'aborted', usage };
      // Built per attempt: a prompt-too-long answer lowers the window, and the next try fits under it.
      const messages = this.summaryMessages(call, instruction, unseen);
      const settings = state.settings;
      const request = this.deps.requests.build(messages, settings.summaryMaxTokens);
      if (state.meter.estimateRequest(messages) + settings.summaryMaxTokens > settings.contextWindow) {
        return { error: 'even the shortest summary request would not fit the context window', usage };
      }
      try {
        const reply = await this.deps.model.complete(request, {
          ...(signal ? { signal } : {}),
          ...(onRetry ? { onRetry } : {})
        });
        run.exchanges.push({ messages, history: run.history, reply: reply.content });
        usage = addUsage(usage, reply.usage);
        const accepted = summaryFromReply(reply, replacedTokens, (chars) => state.meter.estimate(chars));
        return { text: accepted.text, cut: accepted.cut, usage };
      } catch (failure) {
        if (run.exchanges.at(-1)?.messages !== messages)
          run.exchanges.push({ messages, history: run.history, reply: undefined });
        error = errorMessage(failure);
        // The summary request was the first to meet a smaller real window (a gateway, say): learn it.
        const overflow = promptTooLong(failure);
        if (overflow?.actualTokens) state.meter.correct(overflow.actualTokens, messages);
        if (overflow?.maximumTokens) state.lowerWindow(overflow.maximumTokens);
        if (attempt < attempts) onRetry?.(attempt, failure instanceof Error ? failure : new Error(error));
      }
    }
    return { error, usage };
  }

  private summaryMessages(call: StepCall, instruction: string, unseen: number | undefined): MessageParam[] {
    const { state } = call;
    const fitted = this.fitForSummary(call, unseen);
    const shape = this.deps.summaryRequest;
    if (shape === undefined) return withSummaryInstruction(fitted, instruction);
    const budget = state.settings.contextWindow - state.settings.summaryMaxTokens - 2_000;
    return shape(fitted, instruction, Math.floor(budget * state.meter.ratio * 0.8));
  }

  /**
   * The history the summary request can carry without overflowing the window: as it is when it fits
   * (so the cached prefix is read), else the task and as many recent turns as fit.
   */
  private fitForSummary({ run, state }: StepCall, unseen: number | undefined): readonly MessageParam[] {
    const { settings, meter } = state;
    const history = unseen === undefined ? run.history : run.history.slice(0, unseen);
    const budget = settings.contextWindow - settings.summaryMaxTokens - 2_000;
    if (meter.estimateRequest(history) <= budget) return history;
    const prefix = meter.estimate(this.deps.requests.prefixChars());
    const first = history[0]!;
    const room = budget - prefix - meter.estimateMessages([first]);
    const recent = selectTail(history, room, (message) => meter.estimateMessages([message]));
    const fitted = [first, ...withoutDanglingNotes(recent, history)];
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
  private async rebuild(
    { run, state }: StepCall,
    header: string,
    unseen: number | undefined
  ): Promise<Rebuilt> {
    const { settings, meter } = state;
    const history = run.history;
    const ledger = renderWorkLedger(state.work, await this.deps.store.changedFiles());
    const target = Math.floor(settings.thresholdTokens / 2);
    const tokensOf = (message: MessageParam) => meter.estimateMessages([message]);
    const plans = [
      { tail: settings.keepTailTokens, files: settings.restoreRecentFiles },
      { tail: Math.floor(settings.keepTailTokens / 2), files: settings.restoreRecentFiles },
      { tail: Math.floor(settings.keepTailTokens / 2), files: 0 },
      { tail: 0, files: 0 }
    ];
    // The plans re-read the same files: read each (at each size) from disk once per rebuild.
    const reads = new Map<string, string | undefined>();
    const readFile = (path: string, maxTokens: number) => {
      const key = `${maxTokens}\0${path}`;
      if (!reads.has(key))
        reads.set(
          key,
          this.deps.store.readRecentFile(path, maxTokens, (chars) => meter.estimate(chars))
        );
      return reads.get(key);
    };
    let rebuilt: Rebuilt | undefined;
    for (const plan of plans) {
      const selected = selectTail(history, plan.tail, tokensOf);
      // The unseen turn was not summarized: it stays whole, whatever the tail's budget.
      const kept =
        unseen !== undefined && history.length - selected.length > unseen ? history.slice(unseen) : selected;
      const tail = withoutDanglingNotes(kept, history);
      const next = compactedHistory({
        task: taskOf(history),
        header,
        ledger,
        files: restoreFiles(state, tail, plan.files, readFile),
        tail
      });
      const tokens = meter.estimateRequest(next);
      rebuilt = { history: next, tokens };
      if (tokens <= target) break;
    }
    return rebuilt!;
  }
}

/** Up to `count` recently read files that the tail does not already show, re-read from disk. */
export function restoreFiles(
  state: StepCall['state'],
  tail: readonly MessageParam[],
  count: number,
  readFile: (path: string, maxTokens: number) => string | undefined
): RestoredFile[] {
  if (count === 0) return [];
  const { settings, meter } = state;
  const inTail = filesShownIn(tail);
  const files: RestoredFile[] = [];
  let budget = settings.maxRestoredTokens;
  for (const path of [...state.work.recentReads].reverse()) {
    if (files.length >= count || budget <= 0) break;
    if (inTail.has(normalizedPath(path))) continue;
    const text = readFile(path, Math.min(settings.maxFileTokens, budget));
    if (text === undefined) continue;
    budget -= meter.estimate(text.length);
    files.push({ path, text });
  }
  return files;
}
