import type { AuditTurn } from './run-audit.js';

const FILE_WRITERS = new Set(['write_file', 'edit_file']);
/** Between simple commands of a shell line: `&&`, `||`, `;`, `|`, a line break. */
const COMMAND_SEPARATOR = /&&|\|\||[;|\n]/;
/** A word the shell would expand (globs, variables, substitutions, quotes): where it points is unknown. */
const EXPANDED = /[*?[\]{}$`'"\\~]/;

/**
 * The files the run changed on balance, as its pull request shows them: the paths the file tools
 * wrote, in order, less those a later shell command removed (`rm`, `git rm`, the source of `mv` and
 * `git mv`, a folder and everything under it) and plus where `mv` put them. A file written and then
 * deleted is no change. The shell is read word by word, without running it: a command whose paths
 * the shell would expand (a glob, a variable, quotes) or that changes folder first is not followed,
 * so a path it touched stays as the tools left it.
 */
export function netFilesChanged(turns: readonly AuditTurn[]): string[] {
  const files = new Set<string>();
  for (const call of turns.flatMap((turn) => turn.toolCalls)) {
    if (call.isError || call.output === undefined) continue;
    const input = call.input as { path?: unknown; command?: unknown } | null;
    if (FILE_WRITERS.has(call.name) && typeof input?.path === 'string') files.add(normalize(input.path));
    // A command that failed may have removed nothing; its exit code is the first line of its result.
    if (call.name === 'bash' && typeof input?.command === 'string' && /^exit code: 0\b/.test(call.output))
      applyShell(files, input.command);
  }
  return [...files].sort();
}

function applyShell(files: Set<string>, command: string): void {
  for (const simple of command.split(COMMAND_SEPARATOR)) {
    const words = simple
      .trim()
      .split(/\s+/)
      .filter((word) => word !== '');
    if (words[0] === 'cd' || words[0] === 'pushd') return;
    const [name, args] =
      words[0] === 'git' ? [`git ${words[1] ?? ''}`, words.slice(2)] : [words[0], words.slice(1)];
    const paths = args.filter((word) => !word.startsWith('-'));
    if (paths.some((word) => EXPANDED.test(word))) continue;
    if (name === 'rm' || name === 'git rm') for (const path of paths) remove(files, normalize(path));
    if ((name === 'mv' || name === 'git mv') && paths.length === 2)
      move(files, normalize(paths[0]!), normalize(paths[1]!));
  }
}

function remove(files: Set<string>, path: string): void {
  for (const file of [...files]) if (file === path || file.startsWith(`${path}/`)) files.delete(file);
}

function move(files: Set<string>, from: string, to: string): void {
  for (const file of [...files]) {
    if (file === from) {
      files.delete(file);
      files.add(to);
    } else if (file.startsWith(`${from}/`)) {
      files.delete(file);
      files.add(`${to}/${file.slice(from.length + 1)}`);
    }
  }
}

/** `./a//b/` and `a/b` are one path. */
function normalize(path: string): string {
  return path
    .replace(/\/+/g, '/')
    .replace(/^(?:\.\/)+/, '')
    .replace(/\/$/, '');
}
