import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { resolveModelSpec } from '../../src/config/models.js';
import { RequestBuilder } from '../../src/model/request-builder.js';
import {
  countThinkingBlocks,
  stripThinkingFrom,
  THINKING_REMOVED,
  thinkingSettings
} from '../../src/model/thinking.js';

const thought = (n: number) => ({
  type: 'thinking' as const,
  thinking: `thought ${n}`,
  signature: `sig${n}`
});
const HISTORY: MessageParam[] = [
  { role: 'user', content: [{ type: 'text', text: 'task' }] },
  { role: 'assistant', content: [thought(1), { type: 'tool_use', id: 't1', name: 'glob', input: {} }] },
  { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'a.ts' }] },
  {
    role: 'assistant',
    content: [
      thought(2),
      { type: 'redacted_thinking', data: 'xx' },
      { type: 'tool_use', id: 't2', name: 'glob', input: {} }
    ]
  },
  { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't2', content: 'b.ts' }] },
  { role: 'assistant', content: [thought(3)] },
  { role: 'user', content: [{ type: 'text', text: 'continue' }] }
];

describe('thinking after an edit of earlier history', () => {
  it('keeps everything before the edit point as the same objects, and thinking before it', () => {
    const stripped = stripThinkingFrom(HISTORY, 2);
    expect(stripped[0]).toBe(HISTORY[0]);
    expect(stripped[1]).toBe(HISTORY[1]);
    expect(countThinkingBlocks(stripped.slice(0, 2))).toBe(1);
  });

  it('removes every thinking and redacted_thinking block after it, not only the first', () => {
    const stripped = stripThinkingFrom(HISTORY, 2);
    expect(countThinkingBlocks(stripped)).toBe(1);
    expect(stripped[3]).toEqual({
      role: 'assistant',
      content: [{ type: 'tool_use', id: 't2', name: 'glob', input: {} }]
    });
  });

  it('keeps an assistant message that held only thinking in its place, with a note (positions must not move)', () => {
    const stripped = stripThinkingFrom(HISTORY, 2);
    expect(stripped).toHaveLength(HISTORY.length);
    expect(stripped[5]).toEqual({ role: 'assistant', content: [{ type: 'text', text: THINKING_REMOVED }] });
  });

  it('leaves a history without thinking as the same messages', () => {
    const plain = HISTORY.map((message) =>
      message.role === 'assistant'
        ? { ...message, content: [{ type: 'text' as const, text: 'ok' }] }
        : message
    );
    const stripped = stripThinkingFrom(plain, 0);
    stripped.forEach((message, index) => expect(message).toBe(plain[index]));
  });
});

describe('the thinking settings of a request', () => {
  it('asks adaptive models for adaptive thinking with the chosen effort, and never forces a tool', () => {
    const requests = new RequestBuilder({
      model: 'claude-sonnet-5-5',
      maxTokens: 8000,
      systemPrompt: 'system',
      tools: [],
      thinking: thinkingSettings(resolveModelSpec('claude-sonnet-5-5'), 'medium')
    });
    const request = requests.build(HISTORY);
    expect(request.thinking).toEqual({ type: 'adaptive' });
    expect(request.effort).toBe('medium');
    expect(request).not.toHaveProperty('toolChoice');
    expect(requests.bindsThinking).toBe(true);
  });

  it('does not ask an opt-in model (Opus 4.8) to think, but passes its effort', () => {
    expect(thinkingSettings(resolveModelSpec('claude-opus-4-8'), 'high')).toMatchObject({
      thinking: undefined,
      effort: 'high'
    });
  });

  it('sends no thinking and no effort to a manual-thinking model (Claude 4.x runs without thinking)', () => {
    const settings = thinkingSettings(resolveModelSpec('claude-haiku-4-5'), 'high');
    expect(settings).toEqual({
      thinking: undefined,
      effort: undefined,
      boundToConversation: false
    });
  });
});
