import type { RunMode } from '../agent/run-mode.js';
import type { FindingsCollector } from './findings-collector.js';
import { recordFindingTool, resolveThreadTool } from './findings-tool.js';
import type { ReviewContext } from './review-context.js';

/**
 * A review run: read-only, with the two tools that record what the review will post. The rules are
 * fixed for the run (system prompt); what changes per pull request goes in the first message.
 */
export function reviewMode(context: ReviewContext, collector: FindingsCollector): RunMode {
  return {
    name: 'review',
    readOnly: true,
    tools: [
      recordFindingTool({ collector, diffs: context.files.diffs }),
      ...(context.candidates.length > 0
        ? [resolveThreadTool(collector, context.candidates, context.headSha)]
        : [])
    ],
    brief: [
      'This is a review run of a pull request. Its diff and the findings already posted are in the first message.',
      '- Read the changed files and what they touch; run the tests or a build with bash when that settles a question.',
      '- Record each real problem with record_finding, on the lines it is about: bugs, security holes, broken',
      '  contracts, unhandled errors, missing or wrong tests. No praise, no style nits unless the repository asks.',
      '- Give a `suggestion` only when you are sure of the replacement lines; it must replace exactly those lines.',
      '- Do not record again what the first message lists as already posted.',
      '- When the first message lists earlier threads whose lines changed, check each, and call resolve_thread',
      '  for those the new code fixes.',
      'When you are done, reply without tool calls with a short overall assessment (two to five sentences): it is',
      "posted as the review's summary."
    ].join('\n')
  };
}
