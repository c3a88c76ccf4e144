import { historyChars } from '../history.js';
import {
  clearCandidates,
  clearResults,
  decideMicroClear,
  emptyMicroIndex,
  forgetCleared,
  keptTokensAfterClearPoint,
  indexNewResults,
  type MicroIndex
} from '../micro.js';
import type { CompactionStep, StepCall } from './step.js';

/**
 * Micro-compaction before a request: old tool results become placeholders, in batches past a floor
 * (so the cached prefix holds between batches), or at once when the cache has gone cold anyway.
 * Its index holds positions in the history, so it is rebuilt after every rebuild of the history.
 */
export function microStep(now: () => number): CompactionStep {
  let index: MicroIndex = emptyMicroIndex();
  let indexedGeneration = 0;
  return {
    name: 'micro',
    appliesTo: (trigger) => trigger.kind === 'before_request',
    run({ run, state }: StepCall) {
      const { settings, meter } = state;
      if (indexedGeneration !== state.generation) {
        index = emptyMicroIndex();
        indexedGeneration = state.generation;
      }
      indexNewResults(index, run.history, settings.micro, (chars) => meter.estimate(chars));
      const newest = run.history.length - 1;
      const candidates = clearCandidates(index, settings.micro, newest);
      const idle = state.lastRequestAt === undefined ? undefined : now() - state.lastRequestAt;
      const before = state.tokensOf(run);
      const decision = decideMicroClear(candidates, settings.micro, idle, settings.cacheTtlMs, {
        rewriteTokens: keptTokensAfterClearPoint(index, candidates, newest),
        headroomTokens: settings.thresholdTokens - before
      });
      if (!decision.clear) return;
      const cleared = clearResults(run.history, candidates);
      const changed = [...new Set(candidates.map((result) => result.messageIndex))];
      const sentBefore = historyChars(changed.map((position) => run.history[position]!));
      const sentAfter = historyChars(changed.map((position) => cleared[position]!));
      const stripped = run.edit(cleared, Math.min(...changed));
      if (stripped === 0 && changed.every((position) => position < state.sentCount))
        meter.rewroteSent(sentBefore, sentAfter);
      else run.changedOldMessages = true;
      forgetCleared(index, candidates);
      run.event({
        layer: 'micro',
        reason: decision.reason,
        tokens_before: before,
        tokens_after: state.tokensOf(run),
        results_cleared: candidates.length,
        tool_use_ids: candidates.map((result) => result.toolUseId)
      });
    }
  };
}
