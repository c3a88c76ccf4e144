import type { ApiSummarizer } from '../api-summarizer.js';
import type { CompactionStep, StepCall } from './step.js';
import { autoCompactionDue } from './summary-steps.js';

/**
 * Auto-compaction by the API's on-demand compaction. It runs before the steps that edit sent
 * history (duplicates, micro): the compaction request must be the request already sent, byte for
 * byte, or the kept turn's thinking would be bound to a prefix the API never summarized. After it,
 * the history is rebuilt and those steps start over on the new one.
 */
export function apiAutoStep(summarizer: ApiSummarizer): CompactionStep {
  return {
    name: 'api-auto',
    appliesTo: (trigger, state) => trigger.kind === 'before_request' && state.settings.layers.auto,
    async run(call: StepCall) {
      const reason = autoCompactionDue(call);
      if (reason !== undefined) await summarizer.summarize(call, 'auto', reason);
    }
  };
}

/** The agent called `compact`: the API writes the summary now, with the agent's focus. */
export function apiManualStep(summarizer: ApiSummarizer): CompactionStep {
  return {
    name: 'api-manual',
    appliesTo: (trigger) => trigger.kind === 'manual',
    async run(call: StepCall) {
      const focus = call.trigger.kind === 'manual' ? call.trigger.focus : undefined;
      await summarizer.summarize(call, 'manual', 'the agent called compact', focus);
    }
  };
}
