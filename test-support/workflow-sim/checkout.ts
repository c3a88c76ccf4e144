/**
 * `actions/checkout` on the simulated runner: the job's workspace made a clone of the repository's
 * bare remote at the run's commit, the way the action does it (README of actions/checkout v5, read
 * 2026-11-28): a fresh repository with `origin` set, only the commit fetched at depth 1 by default,
 * every branch with `fetch-depth: 0`, and the ref checked out as a local branch at the commit.
 */
import { execFileSync } from 'node:child_process';

export interface CheckoutSpec {
  /** The bare repository standing for GitHub's copy. */
  readonly remote: string;
  readonly workspace: string;
  /** The run's commit (github.sha) and branch (github.ref_name). */
  readonly sha: string;
  readonly branch: string;
  /** `with: fetch-depth` (default 1; 0 = all history and branches). */
  readonly fetchDepth: number;
}

export function checkout(spec: CheckoutSpec): void {
  const git = (...args: string[]) =>
    execFileSync('git', args, { cwd: spec.workspace, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
  git('init', '-q', '-b', spec.branch);
  git('remote', 'add', 'origin', spec.remote);
  // A local path would make git hard-link objects and ignore --depth: file:// speaks the protocol.
  git('remote', 'set-url', 'origin', `file://${spec.remote}`);
  const refspecs =
    spec.fetchDepth === 0
      ? ['+refs/heads/*:refs/remotes/origin/*', '+refs/tags/*:refs/tags/*']
      : [`+${spec.sha}:refs/remotes/origin/${spec.branch}`];
  git(
    '-c',
    'protocol.version=2',
    'fetch',
    '-q',
    '--no-tags',
    ...(spec.fetchDepth > 0 ? [`--depth=${spec.fetchDepth}`] : []),
    'origin',
    ...refspecs
  );
  // A branch that moved since the run started still checks out at the run's commit (checkout's
  // testRef: the commit fetched again into the branch's remote ref).
  if (spec.fetchDepth === 0)
    git('fetch', '-q', '--no-tags', 'origin', `+${spec.sha}:refs/remotes/origin/${spec.branch}`);
  git('checkout', '-q', '--force', '-B', spec.branch, `refs/remotes/origin/${spec.branch}`);
}
