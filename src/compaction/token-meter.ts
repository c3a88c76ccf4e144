import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { promptTokens, type TokenUsage } from '../model/usage.js';
import { historyChars, messageChars } from './history.js';

/** Chars per token before any usage was seen: low on purpose (code tokenizes densely), so we overestimate. */
export const INITIAL_CHARS_PER_TOKEN = 2.5;
/** Added to every estimated (not measured) part, so an estimate errs on the side of compacting early. */
export const ESTIMATE_SAFETY_MARGIN = 0.1;
/** Growth below this many tokens says more about rounding than about the content's ratio. */
const MIN_GROWTH_TO_LEARN = 200;

/**
 * Context accounting. What the API measured for the last request is exact; only the messages added
 * since are estimated, with a chars-per-token ratio learned from the same measurements.
 * Per-turn work is proportional to the new messages, not to the history.
 */
export class TokenMeter {
  private charsPerToken = INITIAL_CHARS_PER_TOKEN;
  /** What the last request held: its message count and its size in characters (prefix included). */
  private sentMessages = 0;
  /** Undefined when the history changed in a way that makes the old size meaningless. */
  private sentChars: number | undefined;
  private measuredTokens: number | undefined;
  private lastUsageSeen: TokenUsage | undefined;
  /** The last measurement and the size it measured, while the history only grew since. */
  private previous: { tokens: number; chars: number } | undefined;
  private seeded = false;

  constructor(private readonly prefixChars: number) {}

  get ratio(): number {
    return this.charsPerToken;
  }

  /**
   * Messages of the history already sent to the model (their tokens are measured, not estimated).
   * The compaction steps read it here: this is its one owner.
   */
  get sentCount(): number {
    return this.sentMessages;
  }

  /** Tokens for characters not yet measured by the API, margin included. */
  estimate(chars: number): number {
    return Math.ceil((chars / this.charsPerToken) * (1 + ESTIMATE_SAFETY_MARGIN));
  }

  estimateMessages(messages: readonly MessageParam[]): number {
    return this.estimate(historyChars(messages));
  }

  /** The whole request estimated from characters: for a history that changed since it was measured. */
  estimateRequest(history: readonly MessageParam[]): number {
    return this.estimate(this.prefixChars + historyChars(history));
  }

  /**
   * Learns from the last response's usage, once per response. The ratio that matters is the one of
   * what gets added (tool results, mostly code), so it is learned from the growth between two
   * measurements of the same history; the whole prompt's ratio (tools and prose) only seeds it.
   */
  observe(lastUsage: TokenUsage | undefined): void {
    if (!lastUsage || lastUsage === this.lastUsageSeen || this.sentChars === undefined) return;
    this.lastUsageSeen = lastUsage;
    const measured = promptTokens(lastUsage);
    if (measured <= 0) return;
    const growth = this.previous && measured - this.previous.tokens;
    if (this.previous && growth !== undefined && growth >= MIN_GROWTH_TO_LEARN) {
      this.learn((this.sentChars - this.previous.chars) / growth);
    } else if (!this.seeded) {
      this.learn(this.sentChars / measured);
      this.seeded = true;
    }
    this.measuredTokens = measured;
    this.previous = { tokens: measured, chars: this.sentChars };
  }

  private learn(observed: number): void {
    if (!Number.isFinite(observed) || observed <= 0) return;
    // Weighted toward the newest measurement: the content mix drifts during a run.
    this.charsPerToken = 0.4 * this.charsPerToken + 0.6 * observed;
  }

  /**
   * The context the next request would have: measured tokens of what was sent, plus the last
   * reply's output tokens, plus an estimate of what was added after it.
   */
  contextTokens(history: readonly MessageParam[]): number {
    if (this.measuredTokens === undefined || this.sentMessages > history.length)
      return this.estimateRequest(history);
    let total = this.measuredTokens;
    for (let index = this.sentMessages; index < history.length; index++) {
      const message = history[index]!;
      const isReply = index === this.sentMessages && message.role === 'assistant' && this.lastUsageSeen;
      total += isReply ? this.lastUsageSeen!.output : this.estimate(messageChars(message));
    }
    return total;
  }

  /**
   * Records the history about to be sent. `unchangedPrefix` is how many leading messages are the same
   * objects as in the previous request; their size is known, so only the rest is measured.
   */
  recordSent(history: readonly MessageParam[], unchangedPrefix: number): void {
    if (
      this.sentChars !== undefined &&
      unchangedPrefix === this.sentMessages &&
      unchangedPrefix <= history.length
    ) {
      for (let index = unchangedPrefix; index < history.length; index++)
        this.sentChars += messageChars(history[index]!);
    } else {
      this.sentChars = this.prefixChars + historyChars(history);
      // The old measurement no longer describes this history: estimate everything until the next response.
      this.measuredTokens = undefined;
      this.previous = undefined;
    }
    this.sentMessages = history.length;
  }

  /**
   * Already-sent messages were rewritten in place (placeholders for cleared results): the measured
   * base stays valid, less the tokens of the characters that went away.
   */
  rewroteSent(charsBefore: number, charsAfter: number): void {
    if (this.measuredTokens === undefined || this.sentChars === undefined) return;
    const removed = charsBefore - charsAfter;
    const removedTokens = Math.round(removed / this.charsPerToken);
    this.measuredTokens = Math.max(0, this.measuredTokens - removedTokens);
    this.sentChars -= removed;
    if (this.previous)
      this.previous = { tokens: this.previous.tokens - removedTokens, chars: this.previous.chars - removed };
  }

  /** The history was replaced: nothing measured applies to it until the next response. */
  forget(): void {
    this.sentChars = undefined;
    this.measuredTokens = undefined;
    this.previous = undefined;
    this.sentMessages = 0;
  }

  /** Re-bases the measurement after the API told us a prompt's real size (a prompt-too-long error). */
  correct(actualTokens: number, history: readonly MessageParam[]): void {
    const chars = this.prefixChars + historyChars(history);
    if (actualTokens > 0) this.charsPerToken = Math.min(this.charsPerToken, chars / actualTokens);
  }
}
