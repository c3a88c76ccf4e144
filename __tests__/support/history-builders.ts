import type { MessageParam, ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages';

/** Small builders for hand-written histories in unit tests. */
export const user = (content: MessageParam['content']): MessageParam => ({ role: 'user', content });

export const call = (id: string, name: string, input: Record<string, unknown>): MessageParam => ({
  role: 'assistant',
  content: [{ type: 'tool_use', id, name, input }]
});

export const calls = (...uses: Array<[string, string, Record<string, unknown>]>): MessageParam => ({
  role: 'assistant',
  content: uses.map(([id, name, input]) => ({ type: 'tool_use' as const, id, name, input }))
});

export const result = (id: string, content: string, isError = false): ToolResultBlockParam => ({
  type: 'tool_result',
  tool_use_id: id,
  content,
  ...(isError ? { is_error: true } : {})
});

export const results = (...blocks: ToolResultBlockParam[]): MessageParam => ({
  role: 'user',
  content: blocks
});

/** Text of about `chars` characters that looks like code. */
export function codeText(chars: number, seed = 'x'): string {
  const line = `const ${seed} = compute(${seed}, options); // keeps the lines realistic\n`;
  return line.repeat(Math.ceil(chars / line.length)).slice(0, chars);
}
