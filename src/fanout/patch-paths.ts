import type { GitRepository } from '../git/repository.js';

/**
 * Every path a patch file would touch, as git itself reads the patch (`git apply --numstat -z`),
 * both sides of a rename included: a result's own list of files is a claim, this is the fact.
 */
export async function patchPaths(repo: GitRepository, patchFile: string): Promise<string[]> {
  const raw = await repo.run(['apply', '--numstat', '-z', patchFile]);
  // Each record is `added\tdeleted\tpath\0`, or for a rename `added\tdeleted\t\0old\0new\0`.
  const fields = raw.split('\0');
  const paths: string[] = [];
  for (let index = 0; index < fields.length; index++) {
    const field = fields[index]!;
    if (field === '') continue;
    const tab = field.lastIndexOf('\t');
    const file = field.slice(tab + 1);
    if (file !== '') paths.push(file);
    else {
      paths.push(fields[index + 1]!, fields[index + 2]!);
      index += 2;
    }
  }
  return [...new Set(paths)];
}
