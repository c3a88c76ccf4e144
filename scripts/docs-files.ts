/** The Markdown pages of the documentation: README.md and every `.md` under docs/, as repository paths. */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPOSITORY_ROOT = fileURLToPath(new URL('..', import.meta.url));

export function docsPages(root: string = REPOSITORY_ROOT): string[] {
  const underDocs = readdirSync(path.join(root, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.md'))
    .map((file) => path.posix.join('docs', file.split(path.sep).join('/')));
  return ['README.md', ...underDocs.sort()];
}
