import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { countThinkingBlocks, stripThinkingFrom } from '../model/thinking.js';
import { NO_USAGE, type TokenUsage } from '../model/usage.js';
import {
  compactionEvent,
  type CompactionEvent,
  type CompactionExchange,
  type CompactionResult
} from './compactor.js';

/**
 * One compaction call's working state: the history as the steps change it, and what they report
 * (events, model usage and exchanges). Every change to earlier history goes through `edit`, which
 * records the edit point and, on models whose thinking is bound to the conversation, removes the
 * thinking blocks after it before any request can carry them (see model/thinking.ts).
 */
export class CompactionRun {
  readonly events: CompactionEvent[] = [];
  readonly exchanges: CompactionExchange[] = [];
  usage: TokenUsage = NO_USAGE;
  /** True once a message that was already sent has changed: the token base must be measured again. */
  changedOldMessages = false;
  /** The earliest message index this call changed, if any. */
  editedFrom: number | undefined;
  /** Thinking blocks removed because an edit came before them. */
  thinkingDropped = 0;

  /** The history as this call received it, before any step changed it (edits make new arrays). */
  readonly received: readonly MessageParam[];

  constructor(
    public history: MessageParam[],
    readonly turn: number,
    private readonly bindsThinking: boolean
  ) {
    this.received = history;
  }

  /** Takes `next` as the history, changed from `from` on; returns how many thinking blocks went. */
  edit(next: MessageParam[], from: number): number {
    this.editedFrom = Math.min(this.editedFrom ?? from, from);
    if (!this.bindsThinking) {
      this.history = next;
      return 0;
    }
    const dropped = countThinkingBlocks(next.slice(from));
    this.history = stripThinkingFrom(next, from);
    this.thinkingDropped += dropped;
    return dropped;
  }

  /**
   * Takes `next` as the whole history WITHOUT removing thinking: only for a history the API itself
   * rebuilt (its compaction block first, kept turns unchanged), whose kept thinking stays valid.
   */
  adoptApiCompaction(next: MessageParam[]): void {
    this.editedFrom = 0;
    this.history = next;
    // Thinking an earlier step of this call stripped is either summarized now or back in the kept turn.
    this.thinkingDropped = 0;
  }

  event(
    fields: Partial<CompactionEvent> &
      Pick<CompactionEvent, 'layer' | 'reason' | 'tokens_before' | 'tokens_after'>
  ): void {
    this.events.push(compactionEvent(this.turn, fields));
  }

  result(estimatedContextTokens: number): CompactionResult {
    return {
      history: this.history,
      events: this.events,
      usage: this.usage,
      exchanges: this.exchanges,
      estimatedContextTokens,
      ...(this.editedFrom !== undefined ? { editedFrom: this.editedFrom } : {}),
      ...(this.thinkingDropped > 0 ? { thinkingBlocksDropped: this.thinkingDropped } : {})
    };
  }
}
