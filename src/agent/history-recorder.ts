import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import type { CompactionExchange } from '../compaction/compactor.js';
import type { TranscriptSink } from '../transcript/writer.js';

/**
 * Writes every message the model is sent or sends back to the transcript, once. Compaction creates
 * new message objects (summaries, placeholders, previews); identity tells which are new, so the
 * work per call is the size of what changed, and nothing sent can be missing.
 */
export class HistoryRecorder {
  private readonly recorded = new WeakSet<MessageParam>();

  constructor(
    private readonly transcript: TranscriptSink,
    private readonly turn: () => number
  ) {}

  /** Appends a message to the history and records it. */
  append(history: MessageParam[], message: MessageParam): void {
    history.push(message);
    this.record(message, history.length - 1);
  }

  /** Records the messages of a history that were not recorded yet (after a compaction). */
  recordNew(history: readonly MessageParam[]): void {
    history.forEach((message, index) => {
      if (!this.recorded.has(message)) this.record(message, index);
    });
  }

  /** Records a compaction's model calls: what they sent beyond the history, and the replies. */
  recordExchanges(exchanges: readonly CompactionExchange[]): void {
    for (const exchange of exchanges) {
      exchange.messages.forEach((message, index) => {
        if (!this.recorded.has(message)) this.record(message, index, 'summary_request');
      });
      if (exchange.reply) {
        this.record(
          { role: 'assistant', content: [...exchange.reply] },
          exchange.messages.length,
          'summary_reply'
        );
      }
    }
  }

  private record(message: MessageParam, index: number, context?: 'summary_request' | 'summary_reply'): void {
    this.recorded.add(message);
    this.transcript.append({
      type: 'message',
      turn: this.turn(),
      index,
      role: message.role,
      content: message.content,
      ...(context ? { context } : {})
    });
  }
}
