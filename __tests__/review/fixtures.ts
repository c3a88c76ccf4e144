import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * A real change to a real file: `ms@2.1.3`'s index.js (from node_modules) as the base, and a head
 * with three edits (a comment added on line 10, the length check in `parse`, `var` to `const` in
 * `plural` with the final newline dropped). The patch is `git diff --no-index base head` from its
 * first `@@`, the shape of GitHub's `patch` field: three hunks, RIGHT and LEFT 7-13, 47-54, 157-162.
 */
const folder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');

export const MS_PATH = 'index.js';
export const msBase = readFileSync(path.join(folder, 'ms-index.base.txt'), 'utf8');
export const msHead = readFileSync(path.join(folder, 'ms-index.head.txt'), 'utf8');
export const msPatch = readFileSync(path.join(folder, 'ms-index.patch'), 'utf8');
