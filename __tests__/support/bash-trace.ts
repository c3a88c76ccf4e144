import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { execFileSync, spawnSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { isAssignment, splitShellCommand } from '../../src/tools/limits/shell-words.js';

/**
 * Runs commands through the real bash, as the bash tool does (`bash -c`), and reports every simple
 * command bash executed, from its xtrace. Nothing real runs: the command runs in a scratch folder
 * with PATH holding only stubs that exit 0, and HOME is that folder.
 */
export interface BashTracer {
  /** The simple commands bash ran, each as its words after expansion (assignments dropped). */
  trace(command: string): string[][];
  close(): void;
}

/** Unlikely in any command of the corpus; PS4's first character repeats once per nesting level. */
const MARKER = '%T%';

export function startBashTracer(stubNames: readonly string[]): BashTracer {
  const root = mkdtempSync(path.join(os.tmpdir(), 'bash-trace-'));
  const bin = path.join(root, 'bin');
  const work = path.join(root, 'work');
  mkdirSync(bin);
  mkdirSync(work);
  for (const name of stubNames) {
    const stub = path.join(bin, name);
    writeFileSync(stub, `#!/bin/sh\necho ${name}\n`);
    chmodSync(stub, 0o755);
  }
  // Bash does not take PS4 from the environment when it runs as root, so BASH_ENV sets it.
  const setup = path.join(root, 'trace-setup.sh');
  writeFileSync(setup, `PS4='+${MARKER} '\nBASH_XTRACEFD=3\nset -x\n`);
  const bash = execFileSync('sh', ['-c', 'command -v bash'], { encoding: 'utf8' }).trim();
  return {
    trace(command) {
      const run = spawnSync(bash, ['-c', command], {
        cwd: work,
        env: { PATH: bin, HOME: work, BASH_ENV: setup },
        stdio: ['ignore', 'ignore', 'ignore', 'pipe'],
        encoding: 'utf8',
        // A guard against a command of the corpus that never ends, not a synchronisation.
        timeout: 20_000
      });
      if (run.error) throw run.error;
      const traced = String(run.output[3] ?? '');
      return traced
        .split(new RegExp(`^\\++${MARKER} `, 'm'))
        .slice(1)
        .map((entry) => tracedWords(entry.replace(/\n$/, '')))
        .filter((words) => words.length > 0);
    },
    close() {
      rmSync(root, { recursive: true, force: true });
    }
  };
}

/**
 * Xtrace prints each command's words shell-quoted (`'a b'`, `''`): read them back with the same
 * reader. One it refuses (`$'\001'` for an unprintable byte) falls back to its first word.
 */
function tracedWords(entry: string): string[] {
  const split = splitShellCommand(entry);
  const words =
    split.ok && split.commands.length === 1
      ? split.commands[0]!.map((word) => word.text)
      : [entry.split(/\s/)[0] ?? ''];
  const start = words.findIndex((word) => !isAssignment({ text: word, literal: true }));
  return start === -1 ? [] : words.slice(start);
}
