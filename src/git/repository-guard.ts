import { rmSync } from 'node:fs';
import path from 'node:path';
import { replaceFile } from '../files/unfollowed-file.js';
import { identify, readRegularFile, sameInodeProblem, type FileIdentity } from '../security/file-identity.js';
import { isSafeConfigKey, parseConfigList, renderConfig } from './config-snapshot.js';
import { pushCredential, takeCredentials, type PushCredentialSource } from './credentials.js';
import { watchNestedRepositories, type NestedRepositoryWatch } from './nested-repositories.js';
import type { GitRepository } from './repository.js';

/** Config files git reads from the git folder (config.worktree only with extensions.worktreeConfig). */
const CONFIG_FILES = ['config', 'config.worktree'];
/**
 * Files that make git use another folder's objects or repository: refused when they appear or
 * change during the run (they were not the workflow's, and they redirect what the push sends).
 */
const REDIRECTING_FILES = ['commondir', 'objects/info/alternates', 'objects/info/http-alternates'];

export class RepositoryTamperedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RepositoryTamperedError';
  }
}

export interface RepositoryGuard {
  /** The repository for the action's own commit and push: its push carries the credential below. */
  readonly git: GitRepository;
  /** Files the checkout's credential was taken out of (not written back). */
  readonly credentialFiles: readonly string[];
  /** What the push authenticates with: `github_token`, the checkout's credential, or nothing. */
  readonly pushCredential: PushCredentialSource;
  /** The nested repositories the run began with: what appears later is moved out (see NestedRepositoryWatch). */
  readonly nestedRepositories: NestedRepositoryWatch;
  /**
   * Called after the agent's turns, before the action's own git commands: checks that .git is the
   * folder it was, refuses redirecting files that appeared, and rewrites the config files from the
   * snapshot taken at start (safe keys only), as new files; moves out the nested repositories made.
   */
  reclaim(): void;
}

/**
 * Taken before the agent runs. The agent can edit anything in .git; rather than judge its edits,
 * the action throws them away: the repository's config is rebuilt from what the workflow left,
 * minus every key that runs a program or redirects data (see isSafeConfigKey).
 */
export async function guardRepository(
  git: GitRepository,
  /** The `github_token` input: the push's credential when it is not the checkout's (see pushCredential). */
  pushToken?: string
): Promise<RepositoryGuard> {
  const credentials = await takeCredentials(git);
  // Decided now, from the workflow's remote, before the agent can touch the config.
  const push = await pushCredential(git, credentials, pushToken);
  const gitDir = await git.gitDir();
  const nestedRepositories = watchNestedRepositories(git.root);
  const dotGit = path.join(git.root, '.git');
  const pinned = new Map<string, FileIdentity>();
  for (const folder of [dotGit, gitDir, path.join(gitDir, 'objects')]) {
    const identity = identify(folder);
    if (identity) pinned.set(folder, identity);
  }
  const configs = new Map<string, string | undefined>();
  for (const name of CONFIG_FILES) configs.set(name, await safeConfig(git, path.join(gitDir, name)));
  const redirecting = new Map(
    REDIRECTING_FILES.map((name) => [name, readRegularFile(path.join(gitDir, name))])
  );

  return {
    git: git.withPushConfig(push.entries),
    credentialFiles: credentials.files,
    pushCredential: push.source,
    nestedRepositories,
    reclaim: () => {
      nestedRepositories.sweep();
      for (const [folder, before] of pinned) {
        const problem = sameInodeProblem(before, identify(folder));
        if (problem) throw tampered(`${folder} is not what it was when the run started: ${problem}`);
      }
      for (const [name, before] of redirecting) {
        if (readRegularFile(path.join(gitDir, name)) !== before)
          throw tampered(`.git/${name} was ${before === undefined ? 'created' : 'changed'} during the run`);
      }
      for (const [name, content] of configs) {
        const file = path.join(gitDir, name);
        try {
          if (content !== undefined) replaceFile(file, content, 0o644);
          else rmSync(file, { force: true }); // a name, not what it points to: rm does not follow links
        } catch (error) {
          throw tampered(`.git/${name} could not be rewritten: ${(error as Error).message}`);
        }
      }
    }
  };
}

/** The file's safe entries, rendered; undefined when there is no such file. */
async function safeConfig(git: GitRepository, file: string): Promise<string | undefined> {
  if (identify(file)?.kind !== 'file') return undefined;
  // git parses its own format; --file reads only that file, and follows no include.
  const listing = await git.run(['config', '--file', file, '--no-includes', '--list', '-z']);
  return renderConfig(parseConfigList(listing).filter((entry) => isSafeConfigKey(entry.key)));
}

function tampered(what: string): RepositoryTamperedError {
  return new RepositoryTamperedError(
    `The repository was tampered with during the agent's run (${what}), so the action did not ` +
      `commit or push: its own git would have read another folder's objects or settings. ` +
      `The transcript shows which command did it.`
  );
}
