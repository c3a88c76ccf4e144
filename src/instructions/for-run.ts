import { errorFirstLine } from '../errors/error-message.js';
import type { GitRepository } from '../git/repository.js';
import { CheckoutSource } from './checkout-source.js';
import { GitCommitSource } from './git-source.js';
import { readRepositoryInstructions, type RepositoryInstructions } from './instruction-files.js';

/**
 * Where a run's instructions come from. `checkout`: the working tree the run starts from (the
 * default branch, base_branch, or a local folder for the CLI). `base-branch`: the run works on a
 * branch someone else wrote (a pull request's head, a fork's, or a previous run's branch), so the
 * instructions come from the branch it merges into, as origin has it now: a contributor's pull
 * request cannot rewrite the agent's instructions.
 */
export type InstructionOrigin =
  | { readonly kind: 'checkout'; readonly root: string }
  | { readonly kind: 'base-branch'; readonly git: GitRepository; readonly branch: string };

/** The run's instructions, or undefined when `names` is empty (instruction_files: none). */
export async function readInstructionsForRun(
  origin: InstructionOrigin,
  names: readonly string[],
  request: string
): Promise<RepositoryInstructions | undefined> {
  if (names.length === 0) return undefined;
  if (origin.kind === 'checkout')
    return readRepositoryInstructions(new CheckoutSource(origin.root), names, request);
  const git = origin.git;
  let commit: string;
  try {
    await git.run(['fetch', '--no-tags', 'origin', `refs/heads/${origin.branch}`]);
    commit = (await git.run(['rev-parse', '--verify', 'FETCH_HEAD^{commit}'])).trim();
  } catch (error) {
    // Never the head's files instead: without the base's, the run has none.
    return {
      source: `the base branch ${origin.branch}`,
      files: [],
      skipped: [],
      cut: [],
      problem: `the base branch ${origin.branch} could not be fetched from origin (${errorFirstLine(error)})`
    };
  }
  const source = new GitCommitSource(
    git,
    commit,
    `the base branch ${origin.branch} at ${commit.slice(0, 7)}`
  );
  return readRepositoryInstructions(source, names, request);
}
