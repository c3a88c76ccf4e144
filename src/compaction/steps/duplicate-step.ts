import { findDuplicateResults, replaceDuplicates } from '../duplicates.js';
import type { CompactionStep, StepCall } from './step.js';

/** A result shorter than this many tokens is kept even when it repeats: its note would be as long. */
const MIN_DUPLICATE_TOKENS = 100;

/**
 * Before a request, a new tool result that repeats an earlier one still in the context (a file read
 * again unchanged, the same search or command printing the same, a window of a file the context
 * shows whole) becomes a short note pointing at it. Only results not yet sent change, so the cached prefix is untouched and nothing is written twice.
 */
export function duplicateStep(): CompactionStep {
  return {
    name: 'duplicate',
    appliesTo: (trigger) => trigger.kind === 'before_request',
    run({ run, state }: StepCall) {
      const { meter } = state;
      const minChars = Math.ceil(MIN_DUPLICATE_TOKENS * meter.ratio);
      const duplicates = findDuplicateResults(run.history, state.sentCount, minChars);
      if (duplicates.length === 0) return;
      run.edit(
        replaceDuplicates(run.history, duplicates),
        Math.min(...duplicates.map((d) => d.messageIndex))
      );
      for (const duplicate of duplicates) {
        run.event({
          layer: 'micro',
          reason:
            duplicate.kind === 'repeat'
              ? `the result repeats, unchanged, that of tool_use ${duplicate.earlierToolUseId}, still in the context: replaced by a note pointing at it`
              : `every line the read returned is shown, unchanged, by the read of tool_use ${duplicate.earlierToolUseId}, still in the context: replaced by a note pointing at it`,
          tokens_before: meter.estimate(duplicate.chars),
          tokens_after: meter.estimate(200),
          results_cleared: 1,
          tool_use_ids: [duplicate.toolUseId]
        });
      }
    }
  };
}
