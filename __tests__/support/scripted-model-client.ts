import type { ContentBlockParam, StopReason } from '@anthropic-ai/sdk/resources/messages';
import type { ModelCallHooks, ModelClient, ModelReply, ModelRequest } from '../../src/model/model-client.js';
import type { TokenUsage } from '../../src/model/usage.js';
import type { TranscriptEvent } from '../../src/transcript/events.js';
import type { TranscriptSink } from '../../src/transcript/writer.js';

export type ScriptStep = (
  request: ModelRequest,
  hooks: ModelCallHooks
) => Promise<Partial<ModelReply>> | Partial<ModelReply>;

/** An in-memory ModelClient for unit tests of the loop: each call runs the next scripted step. */
export class ScriptedModelClient implements ModelClient {
  readonly requests: ModelRequest[] = [];
  private index = 0;

  constructor(
    private readonly steps: ScriptStep[],
    private readonly usage: TokenUsage = { input: 1000, cacheWrite: 0, cacheRead: 0, output: 100 }
  ) {}

  async complete(request: ModelRequest, hooks: ModelCallHooks = {}): Promise<ModelReply> {
    // Deep copy: the loop must not change what it already sent.
    this.requests.push(structuredClone(request));
    const step = this.steps[Math.min(this.index++, this.steps.length - 1)];
    if (!step) throw new Error('no scripted step');
    const reply = await step(request, hooks);
    const content = reply.content ?? [];
    return {
      id: `msg_${this.index}`,
      content,
      stopReason:
        reply.stopReason ?? (content.some((block) => block.type === 'tool_use') ? 'tool_use' : 'end_turn'),
      usage: reply.usage ?? this.usage
    };
  }
}

export const text = (value: string): ContentBlockParam => ({ type: 'text', text: value });
export const toolUse = (id: string, name: string, input: Record<string, unknown>): ContentBlockParam => ({
  type: 'tool_use',
  id,
  name,
  input
});
export const reply =
  (content: ContentBlockParam[], stopReason?: StopReason): ScriptStep =>
  () => ({
    content,
    ...(stopReason ? { stopReason } : {})
  });

export class MemoryTranscript implements TranscriptSink {
  readonly events: TranscriptEvent[] = [];
  append(event: TranscriptEvent): void {
    this.events.push(structuredClone(event));
  }
  ofType<T extends TranscriptEvent['type']>(type: T): Array<Extract<TranscriptEvent, { type: T }>> {
    return this.events.filter((event): event is Extract<TranscriptEvent, { type: T }> => event.type === type);
  }
}
