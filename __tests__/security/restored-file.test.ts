import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { RunFolderStore } from '../../src/compaction/run-folder-store.js';
import { Workspace } from '../../src/tools/workspace.js';
import { createTempDir } from '../support/temp-repo.js';
import { runIsolated } from '../tools/run-isolated.js';

/** Files a summary re-reads from disk into the history: paths the agent read, and could since have replaced. */
let root: string;
let runDir: string;
beforeEach(() => {
  root = createTempDir();
  runDir = path.join(root, '.transcripts', 'run');
  mkdirSync(runDir, { recursive: true });
});
const estimate = (chars: number) => Math.ceil(chars / 4);

describe('a file restored after a summary', () => {
  it('is numbered like read_file numbers it: no phantom line after the final newline', () => {
    writeFileSync(path.join(root, 'app.ts'), 'const a = 1;\nconst b = 2;\nconst c = 3;\n');
    const store = new RunFolderStore(runDir, new Workspace(root), 't');
    expect(store.readRecentFile('app.ts', 1_000, estimate)).toBe(
      '     1\tconst a = 1;\n     2\tconst b = 2;\n     3\tconst c = 3;'
    );
    // Cut short, it counts the lines left as read_file would.
    writeFileSync(
      path.join(root, 'long.ts'),
      `${Array.from({ length: 330 }, (_, i) => `line ${i + 1}`).join('\n')}\n`
    );
    const cut = store.readRecentFile('long.ts', 100, estimate)!;
    const shown = cut.split('\n').length - 1;
    expect(cut.split('\n').at(-1)).toBe(
      `[... ${330 - shown} more lines; read_file long.ts with offset ${shown + 1}]`
    );
  });

  it('is skipped, at once, when the agent left a FIFO or a device where the file was', () => {
    execFileSync('mkfifo', [path.join(root, 'app.ts')]);
    execFileSync('ln', ['-s', '/dev/zero', path.join(root, 'zero.ts')]);
    const run = runIsolated(
      (src) => `
        import { RunFolderStore } from ${src('compaction/run-folder-store.ts')};
        import { Workspace } from ${src('tools/workspace.ts')};
        const store = new RunFolderStore(${JSON.stringify(runDir)}, new Workspace(${JSON.stringify(root)}), 't');
        const estimate = (chars: number) => Math.ceil(chars / 4);
        process.stdout.write(JSON.stringify([
          store.readRecentFile('app.ts', 1000, estimate) ?? null,
          store.readRecentFile('zero.ts', 1000, estimate) ?? null
        ]));
      `,
      20_000
    );
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual([null, null]);
  });
});
