import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import type { ModelReply } from '../model/model-client.js';

export const SUMMARY_SECTIONS = [
  'Task and intent',
  'Decisions',
  'Files and code',
  'Errors and fixes',
  'Current state',
  'Pending work',
  'Next step'
] as const;

/** The instruction appended to the conversation as its last user turn. */
export function summaryInstruction(focus: string | undefined): string {
  const sections = [...SUMMARY_SECTIONS, ...(focus ? ['Focus'] : [])];
  return [
    '<compaction-request>',
    'The conversation above is about to be compacted: the earlier messages will be replaced by your summary.',
    'Write the summary you will need to continue the work without them. Reply with text only: do not call tools.',
    `Use exactly these sections, as markdown headings: ${sections.map((name) => `## ${name}`).join(', ')}.`,
    'Be concrete: file paths, function names, commands and their results, exact error messages, decisions and why.',
    'The task itself is kept verbatim and need not be repeated in full.',
    ...(focus ? [`Under "## Focus", keep in detail what the agent asked to keep: ${focus}`] : []),
    '</compaction-request>'
  ].join('\n');
}

/**
 * The summary request's messages: the history as it is (so the cached prefix is reused), with the
 * instruction added to the last user message, or as a new user message after an assistant one.
 * The tools and tool_choice stay as in a normal turn, because changing either would miss the cache.
 */
export function withSummaryInstruction(
  history: readonly MessageParam[],
  instruction: string
): MessageParam[] {
  const last = history.at(-1);
  if (!last || last.role !== 'user') return [...history, { role: 'user', content: instruction }];
  const content =
    typeof last.content === 'string' ? [{ type: 'text' as const, text: last.content }] : last.content;
  return [
    ...history.slice(0, -1),
    { ...last, content: [...content, { type: 'text', text: instruction }] } as MessageParam
  ];
}

/**
 * The summary request without prefix reuse: the history pasted as JSON into one new user message,
 * its oldest part cut to fit `maxChars`. It misses the prompt cache; the benchmark measures by how much.
 */
export function freshSummaryMessages(
  history: readonly MessageParam[],
  instruction: string,
  maxChars: number
): MessageParam[] {
  const conversation = JSON.stringify(history);
  const kept =
    conversation.length > maxChars ? conversation.slice(conversation.length - maxChars) : conversation;
  return [{ role: 'user', content: `${instruction}\n\n<conversation>\n${kept}\n</conversation>` }];
}

export class InvalidSummaryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidSummaryError';
  }
}

/** The summary text of a reply. Model output is checked here: a reply without usable text is a failure. */
export function summaryFromReply(reply: ModelReply): string {
  const text = reply.content
    .flatMap((block) => (block.type === 'text' ? [block.text] : []))
    .join('\n')
    .trim();
  if (text.length < 40) {
    const tools = reply.content.filter((block) => block.type === 'tool_use').length;
    throw new InvalidSummaryError(
      tools > 0
        ? `the summary reply called ${tools} tool(s) instead of writing text`
        : 'the summary reply was empty'
    );
  }
  const found = SUMMARY_SECTIONS.filter((name) => text.includes(name)).length;
  if (found < 3)
    throw new InvalidSummaryError(`the summary has ${found} of the ${SUMMARY_SECTIONS.length} sections`);
  return reply.stopReason === 'max_tokens' ? `${text}\n[summary cut at its length limit]` : text;
}
