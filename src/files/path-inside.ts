import path from 'node:path';

/** Whether `target` lies strictly below `root` (both absolute, compared as given: resolve links first). */
export function isStrictlyInside(target: string, root: string): boolean {
  const relative = path.relative(root, target);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
}
