import { describeTooBig } from '../files/file-problem.js';
import type { GitRepository } from '../git/repository.js';
import { MAX_INSTRUCTION_FILE_READ_BYTES, type InstructionSource, type SourceEntry } from './source.js';

/**
 * One commit of the repository, read through the action's own pinned git (GitRepository): a pull
 * request's instructions come from its base, so a contributor's branch cannot rewrite them. git's
 * trees never follow a link: a symbolic link (mode 120000) or a submodule (160000) is refused, and a
 * path through a linked folder is simply not in the tree.
 */
export class GitCommitSource implements InstructionSource {
  constructor(
    private readonly git: GitRepository,
    private readonly commit: string,
    readonly description: string
  ) {}

  async entry(relative: string, maxBytes: number): Promise<SourceEntry> {
    // Literal pathspecs: a `*` or `:(glob)` in a path named in the task is a name, never a pattern.
    const listing = await this.git.run(['ls-tree', '-z', '--long', this.commit, '--', relative], {
      GIT_LITERAL_PATHSPECS: '1'
    });
    const line = listing.split('\0').find((item) => item.endsWith(`\t${relative}`));
    if (line === undefined) return { kind: 'absent' };
    const [mode, type, object, size] = line.slice(0, line.indexOf('\t')).split(/\s+/);
    if (type === 'tree') return { kind: 'folder' };
    if (mode === '120000') return { kind: 'refused', reason: 'it is a symbolic link, which is not followed' };
    if (type !== 'blob' || object === undefined) return { kind: 'refused', reason: 'it is a submodule' };
    const bytes = Number(size);
    if (bytes > MAX_INSTRUCTION_FILE_READ_BYTES)
      return { kind: 'refused', reason: describeTooBig(bytes, MAX_INSTRUCTION_FILE_READ_BYTES) };
    const text = Buffer.from(await this.git.run(['cat-file', 'blob', object]));
    return { kind: 'file', size: bytes, bytes: text.subarray(0, maxBytes) };
  }
}
