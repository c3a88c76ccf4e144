import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import type { CompactionContext, CompactionResult, CompactionTrigger, Compactor } from './compactor.js';
import { CompactionRun } from './compaction-run.js';
import { CompactionState } from './compaction-state.js';
import type { CompactionSettings } from './settings.js';
import { ALL_STEPS, type CompactionStep, type StepSelection } from './steps/step.js';
import { spillStep } from './steps/spill-step.js';
import { microStep } from './steps/micro-step.js';
import { duplicateStep } from './steps/duplicate-step.js';
import { autoStep, manualStep, overflowStep } from './steps/summary-steps.js';
import { Summarizer, type SummarizerDependencies } from './summarizer.js';
import { ApiSummarizer } from './api-summarizer.js';
import { apiAutoStep, apiManualStep } from './steps/api-steps.js';
import { recordWork } from './work-ledger.js';
import type { ServerClears } from './server-clears.js';
import { serverClearStep } from './steps/server-clear-step.js';

export type { CompactionStore } from './compaction-store.js';
export interface CompactionDependencies extends SummarizerDependencies {
  /** Set when the API clears old tool results (context editing): then our micro layer does not. */
  readonly serverClears?: ServerClears;
}

/**
 * The three layers and the spill as an ordered list of small steps over the history: spill new
 * oversized results, point repeated results at their earlier copy, micro-clear in batches, summarize past the threshold, on request, or after an
 * overflow. Each step decides from the trigger whether it has work; the state they share (settings,
 * token meter, work ledger, the sent boundary) lives in one CompactionState.
 */
export class CompactionPipeline implements Compactor {
  private readonly state: CompactionState;
  private readonly steps: readonly CompactionStep[];

  /** `selection`: which steps run; the product runs all, the bench's ablations and tests fewer. */
  constructor(
    settings: CompactionSettings,
    private readonly deps: CompactionDependencies,
    selection: StepSelection = ALL_STEPS
  ) {
    const clears = deps.serverClears;
    this.state = new CompactionState(
      settings,
      deps.requests.prefixChars(),
      clears && ((history) => clears.view(history))
    );
    const summarizer = new Summarizer(deps);
    // Old results are cleared by our micro layer, or by the API when it clears them (context editing).
    const micro = clears ? serverClearStep(clears) : microStep(deps.now);
    const steps =
      settings.engine === 'api'
        ? apiEngineSteps(deps, summarizer, micro)
        : [
            spillStep(deps.store.spill),
            duplicateStep(),
            micro,
            autoStep(summarizer),
            manualStep(summarizer),
            overflowStep(summarizer)
          ];
    this.steps = steps.filter(selection);
  }

  get thresholdTokens(): number {
    return this.state.settings.thresholdTokens;
  }

  /** The chars-per-token ratio learned so far (reported by the benchmark). */
  get charsPerToken(): number {
    return this.state.meter.ratio;
  }

  async compact(
    history: MessageParam[],
    trigger: CompactionTrigger,
    context: CompactionContext
  ): Promise<CompactionResult> {
    const { state } = this;
    state.meter.observe(context.lastUsage);
    recordWork(state.work, history, context.turn);
    const run = new CompactionRun(history, context.turn, this.deps.requests.bindsThinking);
    for (const step of this.steps) {
      if (step.appliesTo(trigger, state)) await step.run({ run, trigger, context, state });
    }
    const measured = state.tokensOf(run);
    // With the API clearing, what the model will read is the view after the clear this request makes.
    const predicted = this.deps.serverClears?.predict(run.history, measured, (chars) =>
      state.meter.estimate(chars)
    );
    const estimated = measured - (predicted?.freedTokens ?? 0);
    if (trigger.kind === 'before_request') {
      // What is sent now becomes the measured base of the next call.
      state.meter.recordSent(state.view(run.history), run.changedOldMessages ? 0 : state.sentCount);
      state.lastRequestAt = this.deps.now();
    }
    return run.result(estimated);
  }
}

/**
 * The API engine: the usual edits, then the API's compaction when they left the context over the
 * threshold without touching what was sent (see api-steps.ts); an overflow is still ours (the
 * request that overflowed cannot be sent again to be compacted), and so is any compaction the API
 * could not do.
 */
function apiEngineSteps(
  deps: CompactionDependencies,
  summarizer: Summarizer,
  micro: CompactionStep
): CompactionStep[] {
  const api = new ApiSummarizer(deps, summarizer);
  return [
    spillStep(deps.store.spill),
    duplicateStep(),
    micro,
    apiAutoStep(api),
    apiManualStep(api),
    overflowStep(summarizer)
  ];
}
