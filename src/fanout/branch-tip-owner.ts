import type { GitIdentity, GitRepository } from '../git/repository.js';

/** The parts of a commit that say who made it and on what. */
interface CommitFacts {
  readonly committer: GitIdentity;
  readonly parents: readonly string[];
  readonly message: string;
}

async function commitFacts(git: GitRepository, commit: string): Promise<CommitFacts | undefined> {
  try {
    const shown = await git.run(['show', '-s', '--format=%cn%x00%ce%x00%P%x00%B', commit, '--']);
    const [name = '', email = '', parents = '', ...message] = shown.split('\0');
    return {
      committer: { name, email },
      parents: parents.split(' ').filter((parent) => parent !== ''),
      message: message.join('\0')
    };
  } catch {
    return undefined;
  }
}

const sameIdentity = (a: GitIdentity, b: GitIdentity) =>
  a.name === b.name && a.email.toLowerCase() === b.email.toLowerCase();

/**
 * Why origin's tip of a fan-out branch is not a commit a land run made, or undefined when it is
 * one. A land run makes exactly one commit on the base: committed by the land identity, naming its
 * plan, with one parent that the land identity did not commit (the base, or an earlier base). A
 * person's commit on top, an amended one (amending makes the amender the committer) or a message
 * that merely mentions the plan fails one of these, so that work is never force-pushed over.
 * `local` is the commit this run is about to push: a tip on the same base is this run's kind.
 */
export async function foreignTipReason(
  git: GitRepository,
  options: {
    readonly remote: string;
    readonly local: string;
    readonly planId: string;
    readonly identity: GitIdentity;
  }
): Promise<string | undefined> {
  const tip = await commitFacts(git, options.remote);
  if (tip === undefined) return 'its tip could not be read';
  if (!tip.message.includes(`fan-out ${options.planId}`))
    return `its tip's message does not name fan-out ${options.planId}`;
  if (!sameIdentity(tip.committer, options.identity))
    return `its tip was committed by ${tip.committer.name} <${tip.committer.email}>, not by the land job's ${options.identity.name} <${options.identity.email}>`;
  if (tip.parents.length !== 1)
    return `its tip has ${tip.parents.length} parents, not the one base a land commit has`;
  const ownBase = (await commitFacts(git, options.local))?.parents[0];
  if (tip.parents[0] === ownBase) return undefined;
  const parent = await commitFacts(git, tip.parents[0]!);
  if (parent === undefined) return "its tip's parent could not be read";
  if (sameIdentity(parent.committer, options.identity))
    return `its tip sits on another commit by ${options.identity.name}, not on a base`;
  return undefined;
}
