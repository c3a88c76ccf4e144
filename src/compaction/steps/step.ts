import type { CompactionContext, CompactionTrigger } from '../compactor.js';
import type { CompactionRun } from '../compaction-run.js';
import type { CompactionState } from '../compaction-state.js';

/**
 * One small compaction strategy over the history, in the style of SWE-agent's history processors:
 * the pipeline runs its steps in order, each deciding from the trigger and the shared state
 * whether it has anything to do. The model and the disk are handed in when a step needs them.
 */
export interface CompactionStep {
  readonly name: string;
  appliesTo(trigger: CompactionTrigger, state: CompactionState): boolean;
  run(call: StepCall): Promise<void> | void;
}

export interface StepCall {
  readonly run: CompactionRun;
  readonly trigger: CompactionTrigger;
  readonly context: CompactionContext;
  readonly state: CompactionState;
}

/**
 * Which of the pipeline's steps run: all of them in the product. The bench's ablations and the
 * single-layer tests pass a subset (see withoutSteps); it is not a setting anyone tunes.
 */
export type StepSelection = (step: CompactionStep) => boolean;

export const ALL_STEPS: StepSelection = () => true;

/** Every step but the named ones (e.g. 'micro' and 'duplicate': summaries only). */
export function withoutSteps(...names: readonly string[]): StepSelection {
  return (step) => !names.includes(step.name);
}
