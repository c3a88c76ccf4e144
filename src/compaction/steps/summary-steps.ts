import { taskOf } from '../history.js';
import { renderWorkLedger } from '../work-ledger.js';
import type { Summarizer } from '../summarizer.js';
import type { CompactionStep, StepCall } from './step.js';

/**
 * Why auto-compaction should run now, or undefined: past the threshold, and only when the rebuild
 * would free enough to be worth it. Shared by both engines.
 */
export function autoCompactionDue({ run, state }: StepCall): string | undefined {
  const { settings, meter } = state;
  const tokens = state.tokensOf(run);
  if (tokens <= settings.thresholdTokens) return undefined;
  // A cheap upper estimate of the history after a compaction: summary budget, the ledger as it is
  // now, restored files and tail.
  const ledger = meter.estimate(renderWorkLedger(state.work, undefined).length);
  const expectedAfter =
    meter.estimate(taskOf(run.history).length) +
    2_000 +
    ledger +
    settings.keepTailTokens +
    settings.maxRestoredTokens;
  if (tokens - expectedAfter < settings.minSavingsTokens) return undefined;
  return `context ~${tokens} tokens > threshold ${settings.thresholdTokens}`;
}

/** Auto-compaction by our summarizer. */
export function autoStep(summarizer: Summarizer): CompactionStep {
  return {
    name: 'auto',
    appliesTo: (trigger) => trigger.kind === 'before_request',
    async run(call: StepCall) {
      const reason = autoCompactionDue(call);
      if (reason !== undefined) await summarizer.summarize(call, 'auto', reason);
    }
  };
}

/** The agent called `compact`: a summary now, with its focus, whatever the size. */
export function manualStep(summarizer: Summarizer): CompactionStep {
  return {
    name: 'manual',
    appliesTo: (trigger) => trigger.kind === 'manual',
    async run(call: StepCall) {
      const focus = call.trigger.kind === 'manual' ? call.trigger.focus : undefined;
      await summarizer.summarize(call, 'manual', 'the agent called compact', focus);
    }
  };
}

/** The API said the prompt was too long (or the window was exceeded): learn from it, then summarize. */
export function overflowStep(summarizer: Summarizer): CompactionStep {
  return {
    name: 'overflow',
    appliesTo: (trigger) => trigger.kind === 'overflow',
    async run(call: StepCall) {
      const { trigger, state, run } = call;
      if (trigger.kind !== 'overflow') return;
      if (trigger.actualTokens) state.meter.correct(trigger.actualTokens, run.history);
      if (trigger.maximumTokens) state.lowerWindow(trigger.maximumTokens);
      const why =
        trigger.cause === 'window_exceeded'
          ? `the reply exceeded the context window (${trigger.actualTokens ?? '?'} tokens with its output)`
          : `the API answered prompt is too long (${trigger.actualTokens ?? '?'} tokens)`;
      await summarizer.summarize(call, 'auto', why);
    }
  };
}
