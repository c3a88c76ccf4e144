import type { WorkflowArtifacts } from '../github/api/github-api.js';
import { stateFromArtifact } from './artifact-state.js';
import type { CarriedState } from './carried-state.js';
import type { StateOrigin } from './workflow-origin.js';

/**
 * What a carried state found in a bot comment turned out to be (issue #33: the trust root is this
 * workflow, not the bot account):
 * - `verified`: a run of this workflow wrote it, and its transcript artifact proves it (the artifact
 *   is the run's, its transcript's hash chain ends at the state's head, and the state the run wrote
 *   into the artifact holds the same costs, branch and mode). Only such a state is carried: its
 *   plan, its work, its branch. `state` is the artifact's account of the run.
 * - `unverifiable`: its run is this workflow's, but its artifact cannot be read (expired, deleted,
 *   never uploaded, too large): what it says cannot be proven. It is not carried, yet its spend
 *   counts towards the thread's budget (previous-run.ts says why).
 * - `unchecked`: it could not be checked at all (see workflow-origin.ts): not carried, and while it
 *   may be the thread's latest run, the thread's spend is unknown.
 * - `foreign`: another workflow's comment, or a state whose artifact says otherwise: ignored.
 */
export type CheckedState =
  | { readonly kind: 'verified'; readonly state: CarriedState; readonly source: string }
  | { readonly kind: 'unverifiable' | 'unchecked' | 'foreign'; readonly reason: string };

export interface StateCheck {
  check(state: CarriedState): Promise<CheckedState>;
}

/** The check of a state against this workflow's runs (origin) and the run's transcript artifact. */
export function workflowStateCheck(
  origin: StateOrigin,
  options: {
    readonly artifacts: WorkflowArtifacts | undefined;
    /** This repository's id (the event payload's `repository.id`): the artifact's run must match it. */
    readonly repositoryId: number | undefined;
    readonly redact: (text: string) => string;
    /** The issue or pull request this run serves: a state written for another is not this thread's. */
    readonly thread: number;
  }
): StateCheck {
  return {
    async check(state) {
      // Before any lookup: a state of another thread is foreign here, however genuine it is there.
      // The pull request the run opened continues its thread (a follow-up may be asked there).
      if (
        state.thread !== undefined &&
        state.thread !== options.thread &&
        state.pullRequest !== options.thread
      )
        return {
          kind: 'foreign',
          reason: `it is the state of ${state.thread === null ? 'a run on no thread' : `#${state.thread}`}, not of this thread (#${options.thread})`
        };
      const verdict = await origin.judge(state);
      if (verdict.kind === 'foreign' || verdict.kind === 'unchecked') return verdict;
      if (verdict.kind === 'ours-without-artifact') return { kind: 'unverifiable', reason: verdict.reason };
      if (options.artifacts === undefined)
        return { kind: 'unverifiable', reason: 'its transcript artifact is not read here' };
      const read = await stateFromArtifact(options.artifacts, state, {
        repositoryId: options.repositoryId,
        redact: options.redact
      });
      if (read.kind === 'mismatch') return { kind: 'foreign', reason: read.reason };
      if (read.kind === 'unusable')
        return { kind: 'unverifiable', reason: `it cannot be checked, because ${read.reason}` };
      // Written before states named their thread: it may be another thread's, so it is not carried.
      if (read.state.thread === undefined)
        return { kind: 'unverifiable', reason: 'it names no thread (it was written by an older version)' };
      return {
        kind: 'verified',
        state: read.state,
        source: `The previous run's state was read from its transcript artifact ${read.artifactId}, whose hash chain checked out.`
      };
    }
  };
}
