import { spillLargeResults, type SpillWriter } from '../spill.js';
import type { CompactionStep, StepCall } from './step.js';

/** Moves oversized tool results that were not sent yet to files, on every trigger. */
export function spillStep(write: SpillWriter): CompactionStep {
  return {
    name: 'spill',
    appliesTo: () => true,
    run({ run, state }: StepCall) {
      const { settings, meter } = state;
      const { history, spilled } = spillLargeResults(run.history, state.sentCount, settings.spill, write);
      if (spilled.length === 0) return;
      run.edit(history, Math.min(...spilled.map((item) => item.messageIndex)));
      for (const item of spilled) {
        run.event({
          layer: 'spill',
          reason: `tool result of ${item.chars} characters saved to ${item.path}`,
          tokens_before: meter.estimate(item.chars),
          tokens_after: meter.estimate(settings.spill.previewChars + 300),
          results_cleared: 1,
          tool_use_ids: [item.toolUseId]
        });
      }
    }
  };
}
