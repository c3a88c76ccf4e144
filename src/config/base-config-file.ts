import { describeTooBig } from '../files/file-problem.js';
import { errorFirstLine } from '../errors/error-message.js';
import type { GitRepository } from '../git/repository.js';
import { branchNameProblem } from './branch-name.js';
import {
  ConfigFileError,
  DEFAULT_CONFIG_FILE,
  MAX_CONFIG_FILE_BYTES,
  parseConfigFile,
  type ConfigFileSettings
} from './config-file.js';

/** Which branch's config file a run reads, and where the file sits. */
export interface BaseConfigRequest {
  /**
   * The pull request's base branch, or the repository's default branch; undefined: origin's HEAD
   * (its default branch), for a payload that names neither (a scheduled run's).
   */
  readonly branch: string | undefined;
  /** The `config_file` input; empty: the default path, which may be absent. */
  readonly path: string;
}

/**
 * The repository's config file as origin's base branch has it now, read through the action's own
 * pinned git: never the working tree, which a pull request's head (or the agent) controls. git's
 * trees never follow a link, so a symbolic link is refused, not read, and the size is checked
 * from the tree before the blob is read. Undefined when the default file does not exist; a file
 * named in `config_file` must exist. Throws ConfigFileError, which stops the run: a team that
 * wrote limits into the file must never get a run without them.
 */
export async function readBaseConfigFile(
  git: GitRepository,
  request: BaseConfigRequest
): Promise<ConfigFileSettings | undefined> {
  const explicit = request.path.trim() !== '';
  const path = explicit ? request.path.trim().replace(/^\.\//, '') : DEFAULT_CONFIG_FILE;
  const pathProblem = configPathProblem(path);
  if (pathProblem !== undefined)
    throw new ConfigFileError([
      `config_file is "${request.path.trim()}": ${pathProblem}. Give the file's path from the repository's root, e.g. ${DEFAULT_CONFIG_FILE}.`
    ]);
  const branchProblem = request.branch === undefined ? undefined : branchNameProblem(request.branch);
  if (branchProblem !== undefined)
    throw new ConfigFileError([`The base branch "${request.branch}" cannot be read: ${branchProblem}.`]);
  const where = request.branch === undefined ? "origin's default branch" : request.branch;
  let commit: string;
  try {
    await git.run([
      'fetch',
      '--no-tags',
      'origin',
      request.branch === undefined ? 'HEAD' : `refs/heads/${request.branch}`
    ]);
    commit = (await git.run(['rev-parse', '--verify', 'FETCH_HEAD^{commit}'])).trim();
  } catch (error) {
    throw new ConfigFileError([
      `The config file ${path} is read from ${where} on origin, which could not be fetched ` +
        `(${errorFirstLine(error)}). Check that the job checks the repository out with actions/checkout ` +
        '(its token is what fetches), then run it again.'
    ]);
  }
  const source = `${path} on ${where}`;
  const listing = await git.run(['ls-tree', '-z', '--long', commit, '--', path], {
    GIT_LITERAL_PATHSPECS: '1'
  });
  const line = listing.split('\0').find((item) => item.endsWith(`\t${path}`));
  if (line === undefined) {
    if (!explicit) return undefined;
    throw new ConfigFileError([
      `config_file names ${path}, which is not on ${where}. Commit it there (a pull request's own copy is never read), or remove config_file.`
    ]);
  }
  const [mode, type, object, size] = line.slice(0, line.indexOf('\t')).split(/\s+/);
  if (mode === '120000' || type !== 'blob' || object === undefined)
    throw new ConfigFileError([
      `${source} is ${mode === '120000' ? 'a symbolic link' : 'not a file'}; make it a regular file.`
    ]);
  const bytes = Number(size);
  if (bytes > MAX_CONFIG_FILE_BYTES)
    throw new ConfigFileError([`${source} is not read: ${describeTooBig(bytes, MAX_CONFIG_FILE_BYTES)}.`]);
  return parseConfigFile(await git.run(['cat-file', 'blob', object]), source);
}

function configPathProblem(path: string): string | undefined {
  if (!/^[A-Za-z0-9._/-]+$/.test(path)) return "it may hold only letters, digits, '.', '_', '-' and '/'";
  const parts = path.split('/');
  if (path.startsWith('/') || parts.some((part) => part === '' || part === '.' || part === '..'))
    return "it must be a relative path without empty, '.' or '..' parts";
  if (parts.includes('.git')) return 'it is inside .git';
  return undefined;
}
