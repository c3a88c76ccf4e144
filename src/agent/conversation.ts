import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import type { CompactionExchange } from '../compaction/compactor.js';
import type { HistoryEntry, MessageContext } from '../transcript/events.js';
import type { TranscriptSink } from '../transcript/writer.js';

/** The tag every recorded message carries, so the audit reader never has to guess (events.ts). */
type MessageTag = { readonly history: HistoryEntry } | { readonly context: MessageContext };

/** Where and why the history stopped being append-only: what preserved thinking must know. */
export interface EditPoint {
  readonly turn: number;
  /** The first message that changed; everything before it is byte for byte what was sent. */
  readonly from: number;
  readonly by: 'compaction' | 'closing_summary';
}

/**
 * The one owner of the message list of a run. It only grows, by `append`, except at explicit edit
 * points, each recorded: a compaction replacing the history, or the closing summary folding its
 * instruction into the last, unsent message. Every message it holds reaches the transcript once:
 * compaction creates new message objects (summaries, placeholders, previews), and identity tells
 * which are new, so the work per edit is the size of what changed.
 */
export class Conversation {
  private list: MessageParam[] = [];
  private readonly recorded = new WeakSet<MessageParam>();
  private readonly points: EditPoint[] = [];

  constructor(
    private readonly transcript: TranscriptSink,
    private readonly turn: () => number
  ) {}

  /** The messages as they are now (the live list: read it, never change it). */
  get messages(): readonly MessageParam[] {
    return this.list;
  }

  get editPoints(): readonly EditPoint[] {
    return this.points;
  }

  append(message: MessageParam): void {
    this.list.push(message);
    this.record(message, this.list.length - 1, { history: 'appended' });
  }

  /**
   * Takes the history a compaction returned. `from` is the compaction's own edit point; without
   * one, the first changed message is found by identity (compactions copy only what they change).
   */
  replaceByCompaction(next: MessageParam[], from: number | undefined): void {
    if (next === this.list) return;
    const changed = from ?? firstDifference(this.list, next);
    this.points.push({ turn: this.turn(), from: changed, by: 'compaction' });
    this.list = next;
    next.forEach((message, index) => {
      if (!this.recorded.has(message)) this.record(message, index, { history: 'compaction' });
    });
  }

  /** Replaces the newest message, which the model has not seen yet (so no thinking is invalidated). */
  replaceUnsentLast(message: MessageParam): void {
    this.points.push({ turn: this.turn(), from: this.list.length - 1, by: 'closing_summary' });
    this.list = [...this.list.slice(0, -1), message];
    this.record(message, this.list.length - 1, { history: 'closing_summary' });
  }

  /** Records a compaction's model calls: what they sent beyond the history, and the replies. */
  recordExchanges(exchanges: readonly CompactionExchange[]): void {
    for (const exchange of exchanges) {
      exchange.history?.forEach((message, index) => {
        if (!this.recorded.has(message)) this.record(message, index, { context: 'summary_request' });
      });
      exchange.messages.forEach((message, index) => {
        if (!this.recorded.has(message)) this.record(message, index, { context: 'summary_request' });
      });
      if (exchange.reply) {
        this.record({ role: 'assistant', content: [...exchange.reply] }, exchange.messages.length, {
          context: 'summary_reply'
        });
      }
    }
  }

  private record(message: MessageParam, index: number, tag: MessageTag): void {
    this.recorded.add(message);
    this.transcript.append({
      type: 'message',
      turn: this.turn(),
      index,
      role: message.role,
      content: message.content,
      ...tag
    });
  }
}

function firstDifference(before: readonly MessageParam[], after: readonly MessageParam[]): number {
  const shared = Math.min(before.length, after.length);
  for (let index = 0; index < shared; index++) if (before[index] !== after[index]) return index;
  return shared;
}
