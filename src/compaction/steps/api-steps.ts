import type { ApiSummarizer } from '../api-summarizer.js';
import type { CompactionStep, StepCall } from './step.js';
import { autoCompactionDue } from './summary-steps.js';

/**
 * Auto-compaction by the API's on-demand compaction. Like our summarizer, it runs after micro, so a
 * clear that brings the context under the threshold spares a summary (run first, it summarized about
 * twice as often in the bench). When the context is still over the threshold after micro, the API
 * summarizes the request as it was sent, before this call's clears (see ApiSummarizer): that is what
 * the API last read (from the cache), and what the kept turn's thinking is bound to.
 */
export function apiAutoStep(summarizer: ApiSummarizer): CompactionStep {
  return {
    name: 'api-auto',
    appliesTo: (trigger) => trigger.kind === 'before_request',
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
