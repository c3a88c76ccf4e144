import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { systemWithBreakpoint, withMessageBreakpoints } from '../../src/model/cache-breakpoints.js';

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
});
