import type { ApiSummarizer } from '../api-summarizer.js';
import type { CompactionStep, StepCall } from './step.js';
import { autoCompactionDue } from './summary-steps.js';

/**
 * Auto-compaction by the API's on-demand compaction. Like our summarizer, it runs after micro, so a
 * clear that brings the context under the threshold spares a summary (run first, it summarized about
 * twice as often in the bench). Its request must be the request already sent, byte for byte (read
 * from the cache, and the kept turn's thinking bound to what the API summarized), so it waits for a
 * call in which nothing edited the sent messages: after a clear that left the context over the
 * threshold, the summary comes one request later.
 */
export function apiAutoStep(summarizer: ApiSummarizer): CompactionStep {
  return {
    name: 'api-auto',
    appliesTo: (trigger, state) => trigger.kind === 'before_request' && state.settings.layers.auto,
    async run(call: StepCall) {
      if (editedSentMessages(call)) return;
      const reason = autoCompactionDue(call);
      if (reason !== undefined) await summarizer.summarize(call, 'auto', reason);
    }
  };
}

/** Whether an earlier step of this call changed a message the API has already read. */
export function editedSentMessages({ run, state }: StepCall): boolean {
  return run.editedFrom !== undefined && run.editedFrom < state.sentCount;
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
