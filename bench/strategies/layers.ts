import { withoutSteps, type StepSelection } from '../../src/compaction/steps/step.js';

/**
 * The pipeline's steps with layers switched off, for the ablations and peers: micro is the micro
 * clear and the duplicate notes; auto is the summary past the threshold (by either engine).
 */
export function layerSteps(layers: { readonly micro: boolean; readonly auto: boolean }): StepSelection {
  return withoutSteps(
    ...(layers.micro ? [] : ['micro', 'duplicate']),
    ...(layers.auto ? [] : ['auto', 'api-auto'])
  );
}

/** Summaries only: what Claude Code and the no-micro ablation run. */
export const SUMMARIES_ONLY = layerSteps({ micro: false, auto: true });
