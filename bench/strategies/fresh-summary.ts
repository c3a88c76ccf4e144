import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import type { SummaryRequestShape } from '../../src/compaction/summarizer.js';

/**
 * The summary request without prefix reuse (the `no-prefix-reuse` strategy): the history pasted as
 * JSON into one new user message, its oldest part cut to fit `maxChars`. It misses the prompt cache;
 * the benchmark measures by how much (never better than reusing the prefix, BENCHMARKS.md).
 */
export const freshSummaryRequest: SummaryRequestShape = (history, instruction, maxChars): MessageParam[] => {
  const conversation = JSON.stringify(history);
  const kept =
    conversation.length > maxChars ? conversation.slice(conversation.length - maxChars) : conversation;
  return [{ role: 'user', content: `${instruction}\n\n<conversation>\n${kept}\n</conversation>` }];
};
