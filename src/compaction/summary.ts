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
    'Keep every instruction and constraint the user gave, in their words.',
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

export class InvalidSummaryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidSummaryError';
  }
}

/** A summary as the model wrote it, with the requested sections it happens to have (for the log). */
export interface AcceptedSummary {
  readonly text: string;
  /** The reply stopped at its length limit: the later sections may be missing. */
  readonly cut: boolean;
  readonly sections: readonly string[];
}

/**
 * The summary text of a reply. The sections are a request to the model, not a gate: real models
 * paraphrase headings, merge sections, write prose or bullets, or answer in the user's language,
 * and the task, the ledger and the transcript path are kept by our own code anyway. So any reply
 * with text is kept as written, unless it is not a summary at all:
 * - it has no text (empty, or only tool calls);
 * - it is mostly tool calls (more characters of tool input than of text);
 * - it is longer than the context it replaces (it would not save anything).
 * `estimate` turns characters into tokens, as the token meter does.
 */
export function summaryFromReply(
  reply: ModelReply,
  replacedTokens: number,
  estimate: (chars: number) => number
): AcceptedSummary {
  const text = reply.content
    .flatMap((block) => (block.type === 'text' ? [block.text] : []))
    .join('\n')
    .trim();
  const calls = reply.content.filter((block) => block.type === 'tool_use');
  const callChars = calls.reduce((sum, block) => sum + JSON.stringify(block).length, 0);
  if (text === '') {
    throw new InvalidSummaryError(
      calls.length > 0
        ? `the summary reply called ${calls.length} tool(s) and wrote no text`
        : 'the summary reply had no text'
    );
  }
  if (callChars > text.length) {
    throw new InvalidSummaryError(
      `the summary reply was mostly tool calls (${calls.length} call(s), ${text.length} characters of text)`
    );
  }
  const tokens = estimate(text.length);
  if (tokens >= replacedTokens) {
    throw new InvalidSummaryError(
      `the summary (~${tokens} tokens) is not shorter than the context it replaces (~${replacedTokens} tokens)`
    );
  }
  return {
    text: reply.stopReason === 'max_tokens' ? `${text}\n[summary cut at its length limit]` : text,
    cut: reply.stopReason === 'max_tokens',
    sections: sectionsIn(text)
  };
}

/** The requested sections a summary has, however it words them: a heading or a bold lead naming it. */
export function sectionsIn(text: string): string[] {
  const leads = text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => /^(#{1,6}\s|\*\*|__|[A-Z][^.!?]{0,40}:)/.test(line))
    .map((line) => line.toLowerCase());
  return SUMMARY_SECTIONS.filter((name) => {
    const words = name.toLowerCase().split(' and ')[0]!.split(' ');
    return leads.some((lead) => words.every((word) => lead.includes(word)));
  });
}
