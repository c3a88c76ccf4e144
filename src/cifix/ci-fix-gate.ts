import { isActionBotAccount, type BotIdentity } from '../github/events/bot-author.js';
import type { CiFailureReads, CiPullRequest } from '../github/api/ci-failure-reads.js';
import type { WorkflowRunFacts } from '../github/events/workflow-run-event.js';
import type { ThreadComment } from '../github/api/github-api.js';
import { readCiFailure, type CiFailure } from './ci-failure.js';
import { trustedCiFixMarks, type CiFixMark } from './ci-fix-markers.js';
import type { CiFixSettings } from '../config/ci-fix-settings.js';
import type { RunOrigin } from '../followup/workflow-origin.js';

/**
 * What a failed CI run on a pull request leads to, decided before any model call:
 * - `skip`: not a pull request this action fixes (not its own, no label, closed, moved on): nothing
 *   is said on it, as for any event that does not ask for the agent;
 * - `rerun`: the failed jobs are re-run once first (a flaky test then costs no model run: when the
 *   re-run passes, its `workflow_run` event ends `success`, which starts nothing);
 * - `stop`: fixing ends here, and the pull request is told why (once per reason);
 * - `fix`: the failure, read, and this attempt's number.
 */
export type CiFixGate =
  | { readonly kind: 'skip'; readonly reason: string }
  | { readonly kind: 'rerun'; readonly pull: CiPullRequest; readonly jobs: number }
  | {
      readonly kind: 'stop';
      readonly pull: CiPullRequest;
      /** A short key: a stop already said with it on the pull request is not said again. */
      readonly key: string;
      readonly reason: string;
    }
  | {
      readonly kind: 'fix';
      readonly pull: CiPullRequest;
      readonly failure: CiFailure;
      /** 1 for the first fix on this pull request. */
      readonly attempt: number;
    };

export interface CiFixGateContext {
  readonly reads: CiFailureReads;
  readonly listComments: (pullNumber: number) => Promise<ThreadComment[]>;
  readonly settings: CiFixSettings;
  readonly bot: BotIdentity;
  readonly branchPrefix: string;
  readonly repositoryFullName: string;
  readonly redact: (text: string) => string;
  /** Whether a mark's run is one of the trusted workflows' (workflow-origin.ts). */
  readonly judgeRun: (runId: number) => Promise<RunOrigin>;
}

export async function gateCiFix(
  context: CiFixGateContext,
  run: WorkflowRunFacts,
  pullNumber: number
): Promise<CiFixGate> {
  const { settings, reads } = context;
  const pull = await reads.pullRequest(pullNumber);
  const whose = ownership(pull, context);
  if (whose !== undefined) return { kind: 'skip', reason: whose };
  if (pull.headSha !== run.headSha)
    return {
      kind: 'skip',
      reason: `pull request #${pull.number} has moved on from the failed commit ${run.headSha.slice(0, 12)} (its head is ${pull.headSha.slice(0, 12)}): the newer commit's own CI run decides`
    };
  const marks = await trustedCiFixMarks(
    await context.listComments(pull.number),
    context.bot.login,
    context.judgeRun
  );
  const attempts = marks.filter(
    (mark): mark is Extract<CiFixMark, { kind: 'attempt' }> => mark.kind === 'attempt'
  );
  if (attempts.length >= settings.maxAttempts)
    return {
      kind: 'stop',
      pull,
      key: 'attempts',
      reason:
        settings.maxAttempts === 0
          ? 'CI fixing is off here (`ci_fix.max_attempts` is 0 in the config file)'
          : `compact-agent has made ${attempts.length} CI fix attempt${attempts.length === 1 ? '' : 's'} on this pull request, ` +
            `the most \`ci_fix.max_attempts\` (${settings.maxAttempts}) allows; a person takes it from here, or raises that key`
    };
  const jobs = await reads.failedJobs(run.id, run.attempt);
  if (jobs.length === 0)
    return {
      kind: 'stop',
      pull,
      key: `no-jobs-${run.id}`,
      reason: `the run ${run.id} failed, but GitHub lists no failed job in its attempt ${run.attempt} (it may have failed before any job started, e.g. an invalid workflow file), so there is nothing to read and fix`
    };
  const rerunBefore = marks.some((mark) => mark.kind === 'rerun' && mark.run === run.id);
  if (settings.rerunFirst && run.attempt === 1 && !rerunBefore)
    return { kind: 'rerun', pull, jobs: jobs.length };
  const failure = await readCiFailure(reads, run, context.redact, jobs);
  const repeated = attempts.findIndex((mark) => mark.signature === failure.signature);
  if (repeated !== -1)
    return {
      kind: 'stop',
      pull,
      key: `same-${failure.signature}`,
      reason:
        `the CI failure is the same as the one fix attempt ${repeated + 1} was for (failure signature \`${failure.signature}\`): ` +
        'that fix did not change it, and another run would most likely not either. A person takes it from here'
    };
  return { kind: 'fix', pull, failure, attempt: attempts.length + 1 };
}

/**
 * The pull requests this action fixes: one it opened itself (its bot account, on a branch under
 * `branch_prefix`: the rules a follow-up continues on), or any other of this repository with the
 * opt-in label. Undefined when it may fix this one; else why not.
 */
function ownership(pull: CiPullRequest, context: CiFixGateContext): string | undefined {
  if (pull.state !== 'open') return `pull request #${pull.number} is closed`;
  if (pull.headRepoFullName !== context.repositoryFullName)
    return `pull request #${pull.number} comes from ${pull.headRepoFullName ?? 'a deleted fork'}, not from ${context.repositoryFullName}: a fork's CI is never fixed here`;
  const agents =
    pull.headRef.startsWith(context.branchPrefix) &&
    pull.author !== undefined &&
    isActionBotAccount(pull.author, context.bot);
  if (agents || pull.labels.includes(context.settings.label)) return undefined;
  return (
    `pull request #${pull.number} was not opened by ${context.bot.login} on a branch under \`${context.branchPrefix}\`, ` +
    `and has no \`${context.settings.label}\` label (add it to let compact-agent fix its CI)`
  );
}
