/**
 * The layer rule of .dependency-cruiser.js, run as CI runs it (`npm run check:circles`): the engine
 * never imports the surfaces that drive it. A copy of the real tree with one forbidden import
 * planted must fail the check, naming the rule; the same copy without the plant passes (so the
 * failure is the plant's, not the copy's).
 */
import { jest } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { cpSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createTempDir } from '../support/temp-repo.js';

jest.setTimeout(180_000);

const DEPCRUISE = path.resolve('node_modules/.bin/depcruise');

/** The check over src/ of `root`, with the repository's own configuration and compiler options. */
function checkLayers(root: string): { status: number | null; output: string } {
  const result = spawnSync(
    DEPCRUISE,
    ['--config', '.dependency-cruiser.js', '--output-type', 'err-long', 'src'],
    {
      cwd: root,
      encoding: 'utf8',
      timeout: 170_000
    }
  );
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

describe('the engine never imports what drives it', () => {
  let root: string;

  beforeAll(() => {
    root = createTempDir('compact-agent-layers-');
    for (const entry of ['src', '.dependency-cruiser.js', 'tsconfig.json', 'package.json']) {
      cpSync(entry, path.join(root, entry), { recursive: true });
    }
    symlinkSync(path.resolve('node_modules'), path.join(root, 'node_modules'));
  });

  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('passes on the tree as it is', () => {
    const clean = checkLayers(root);
    expect(clean.output).toContain('no dependency violations found');
    expect(clean.status).toBe(0);
  });

  it.each([
    ['compaction', 'github', 'report.js'],
    ['agent', 'action', 'run.js'],
    ['tools', 'cli', 'main.js'],
    ['sandbox', 'followup', 'carried-state.js'],
    ['model', 'review', 'thread-lines.js'],
    ['transcript', 'plan', 'plan-mode.js']
  ])('fails when %s/ imports %s/', (engine, surface, file) => {
    const planted = path.join(root, 'src', engine, 'planted-import.ts');
    writeFileSync(planted, `export * from '../${surface}/${file}';\n`);
    try {
      const check = checkLayers(root);
      expect(check.status).not.toBe(0);
      expect(check.output).toContain('engine-not-on-surface');
      expect(check.output).toContain(`src/${engine}/planted-import.ts`);
    } finally {
      rmSync(planted);
    }
  });
});
