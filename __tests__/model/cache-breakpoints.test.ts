import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { systemWithBreakpoint, withMessageBreakpoints } from '../../src/model/cache-breakpoints.js';
import {
  createPromptCache,
  renderPrompt,
  TokenCounter,
  type ParsedRequest
} from '../../test-support/fake-anthropic/index.js';

const history: MessageParam[] = [
  { role: 'user', content: 'The task.' },
  { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'glob', input: { pattern: '*' } }] },
  { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'a.ts' }] },
  {
    role: 'assistant',
    content: [
      { type: 'text', text: 'Reading.' },
      { type: 'tool_use', id: 't2', name: 'read_file', input: { path: 'a.ts' } }
    ]
  },
  { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't2', content: '1\tx' }] }
];

function markedIndexes(messages: MessageParam[]): number[] {
  return messages.flatMap((message, index) =>
    JSON.stringify(message).includes('cache_control') ? [index] : []
  );
}

describe('cache breakpoints', () => {
  it('marks the system prompt, which closes the tools + system prefix', () => {
    expect(systemWithBreakpoint('sys')).toEqual([
      { type: 'text', text: 'sys', cache_control: { type: 'ephemeral' } }
    ]);
  });

  it('marks the last message and the user message before it, and nothing else', () => {
    const marked = withMessageBreakpoints(history);
    expect(markedIndexes(marked)).toEqual([2, 4]);
    expect(marked[4]).toEqual({
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 't2', content: '1\tx', cache_control: { type: 'ephemeral' } }
      ]
    });
  });

  it('never changes the history it is given', () => {
    const before = JSON.stringify(history);
    withMessageBreakpoints(history);
    expect(JSON.stringify(history)).toBe(before);
    expect(markedIndexes(history)).toEqual([]);
  });

  it('turns a string task into a marked text block', () => {
    expect(withMessageBreakpoints([{ role: 'user', content: 'Do it.' }])).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Do it.', cache_control: { type: 'ephemeral' } }] }
    ]);
  });

  it('keeps the earlier breakpoint where the previous request put it, so that prefix is hit exactly', () => {
    const previous = withMessageBreakpoints(history.slice(0, 3));
    const next = withMessageBreakpoints(history);
    expect(next[2]).toEqual(previous[2]);
  });

  it('skips thinking blocks, which cannot carry cache_control', () => {
    const marked = withMessageBreakpoints([
      { role: 'user', content: 'Task' },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Hmm' },
          { type: 'thinking', thinking: 'deep', signature: 'sig' }
        ]
      }
    ]);
    expect(marked[1]!.content).toEqual([
      { type: 'text', text: 'Hmm', cache_control: { type: 'ephemeral' } },
      { type: 'thinking', thinking: 'deep', signature: 'sig' }
    ]);
  });

  it('after an edit, also marks the last user message before it, and only when the edit is before the moving pair', () => {
    const long: MessageParam[] = [history[0]!];
    for (let turn = 0; turn < 6; turn++) {
      long.push(
        { role: 'assistant', content: [{ type: 'tool_use', id: `t${turn}`, name: 'glob', input: {} }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: `t${turn}`, content: `r${turn}` }] }
      );
    }
    // Messages 0 (task) and 2, 4, ..., 12 are user messages; an edit at 6 leaves 0..5 as they were.
    expect(markedIndexes(withMessageBreakpoints(long, 6))).toEqual([4, 10, 12]);
    expect(markedIndexes(withMessageBreakpoints(long, 5))).toEqual([4, 10, 12]);
    expect(markedIndexes(withMessageBreakpoints(long, 11))).toEqual([10, 12]);
    expect(markedIndexes(withMessageBreakpoints(long, 0))).toEqual([10, 12]);
    expect(markedIndexes(withMessageBreakpoints(long))).toEqual([10, 12]);
  });

  it('lets the request after an edit far back read the unchanged prefix from the cache', () => {
    const counter = new TokenCounter();
    const system = systemWithBreakpoint('You are a careful agent. '.repeat(60));
    const requestOf = (messages: MessageParam[]) =>
      ({ model: 'claude-sonnet-4-5', tools: [], system, messages }) as unknown as ParsedRequest;
    const cache = createPromptCache({ minCacheableTokens: 1 });
    const send = (messages: MessageParam[], now: number) => {
      const request = requestOf(messages);
      const segments = renderPrompt(request, counter);
      return cache({ request, segments, promptTokens: 0, callIndex: 0, now });
    };
    const turns: MessageParam[] = [{ role: 'user', content: [{ type: 'text', text: 'The task.' }] }];
    const resultText = (turn: number) => `${turn}: ${'const value = compute(input);\n'.repeat(40)}`;
    for (let turn = 0; turn < 16; turn++) {
      turns.push(
        {
          role: 'assistant',
          content: [{ type: 'tool_use', id: `t${turn}`, name: 'read_file', input: { path: `f${turn}` } }]
        },
        {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: `t${turn}`, content: resultText(turn) }]
        }
      );
      send(withMessageBreakpoints(turns), turn * 1000);
    }
    // A clear of turns 2..13's results: an edit from message 6 on, 30 blocks before the end.
    const cleared = turns.map((message, index) =>
      index >= 6 && index <= 28 && index % 2 === 0
        ? ({
            role: 'user',
            content: [{ type: 'tool_result', tool_use_id: `t${index / 2 - 1}`, content: '[cleared]' }]
          } as MessageParam)
        : message
    );
    const prefixTokens = counter.count(JSON.stringify(turns.slice(0, 6)));
    const withAnchor = send(withMessageBreakpoints(cleared, 6), 17_000);
    expect(withAnchor.cache_read_input_tokens).toBeGreaterThan(prefixTokens / 2);
    // The same request without the extra breakpoint finds nothing within 20 blocks but tools + system.
    const cold = createPromptCache({ minCacheableTokens: 1 });
    let now = 0;
    const replay = (messages: MessageParam[]) => {
      const request = requestOf(messages);
      return cold({
        request,
        segments: renderPrompt(request, counter),
        promptTokens: 0,
        callIndex: 0,
        now: now++
      });
    };
    for (let length = 3; length <= turns.length; length += 2)
      replay(withMessageBreakpoints(turns.slice(0, length)));
    const without = replay(withMessageBreakpoints(cleared));
    expect(without.cache_read_input_tokens).toBeLessThan(withAnchor.cache_read_input_tokens);
  });
});
