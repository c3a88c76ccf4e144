import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { checkRunFolderPath, RunFolderPathError } from '../../src/transcript/run-folder-path.js';
import { createTempDir } from '../support/temp-repo.js';

describe('checkRunFolderPath', () => {
  const runDir = (root: string) => path.join(root, '.transcripts', 'run-1');

  it('passes a repository without .transcripts, or with a real folder there', () => {
    const root = createTempDir();
    expect(() => checkRunFolderPath(root, runDir(root))).not.toThrow();
    mkdirSync(path.join(root, '.transcripts'));
    expect(() => checkRunFolderPath(root, runDir(root))).not.toThrow();
  });

  it('refuses a link at .transcripts or below it, and a file where a folder goes', () => {
    const root = createTempDir();
    const elsewhere = createTempDir();
    symlinkSync(elsewhere, path.join(root, '.transcripts'));
    expect(() => checkRunFolderPath(root, runDir(root))).toThrow(RunFolderPathError);

    const nested = createTempDir();
    mkdirSync(path.join(nested, 'out'));
    symlinkSync(elsewhere, path.join(nested, 'out', 'runs'));
    expect(() => checkRunFolderPath(nested, path.join(nested, 'out', 'runs', 'run-1'))).toThrow(
      /out\/runs is a symbolic link/
    );

    const file = createTempDir();
    writeFileSync(path.join(file, '.transcripts'), 'x');
    expect(() => checkRunFolderPath(file, runDir(file))).toThrow(/\.transcripts is not a folder/);
  });

  it('leaves a folder outside the repository (the CLI --transcripts DIR) to the person who chose it', () => {
    const root = createTempDir();
    const chosen = createTempDir();
    expect(() => checkRunFolderPath(root, path.join(chosen, 'run-1'))).not.toThrow();
  });
});
