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
    ['compaction', 'github', 'report/report.js'],
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

describe('GitHub clients are built in one place', () => {
  let root: string;

  beforeAll(() => {
    root = createTempDir('compact-agent-clients-');
    for (const entry of ['src', '.dependency-cruiser.js', 'tsconfig.json', 'package.json']) {
      cpSync(entry, path.join(root, entry), { recursive: true });
    }
    symlinkSync(path.resolve('node_modules'), path.join(root, 'node_modules'));
  });

  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it.each([
    ['action/stages', 'octokit-api.js', 'OctokitGitHubApi'],
    ['followup', 'workflow-runs.js', 'OctokitWorkflowRunReads'],
    ['review', 'octokit-reviews.js', 'OctokitPullRequestReviews']
  ])('fails when %s/ builds a client itself (%s)', (folder, file, name) => {
    const depth = folder.split('/').length;
    const planted = path.join(root, 'src', folder, 'planted-client.ts');
    writeFileSync(planted, `export { ${name} } from '${'../'.repeat(depth)}github/api/${file}';\n`);
    try {
      const check = checkLayers(root);
      expect(check.status).not.toBe(0);
      expect(check.output).toContain('github-clients-from-factory');
      expect(check.output).toContain(`src/${folder}/planted-client.ts`);
    } finally {
      rmSync(planted);
    }
  });

  it('lets a module import an adapter for its type', () => {
    const planted = path.join(root, 'src', 'followup', 'planted-type.ts');
    writeFileSync(planted, `export type { OctokitGitHubApi } from '../github/api/octokit-api.js';\n`);
    try {
      const check = checkLayers(root);
      expect(check.output).toContain('no dependency violations found');
      expect(check.status).toBe(0);
    } finally {
      rmSync(planted);
    }
  });
});

describe('no module reaches itself through its imports', () => {
  let root: string;

  beforeAll(() => {
    root = createTempDir('compact-agent-circle-');
    for (const entry of ['src', '.dependency-cruiser.js', 'tsconfig.json', 'package.json']) {
      cpSync(entry, path.join(root, entry), { recursive: true });
    }
    symlinkSync(path.resolve('node_modules'), path.join(root, 'node_modules'));
  });

  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('fails when two modules import each other', () => {
    const first = path.join(root, 'src', 'files', 'planted-first.ts');
    const second = path.join(root, 'src', 'files', 'planted-second.ts');
    writeFileSync(
      first,
      `import { second } from './planted-second.js';\nexport const first = (): number => second() + 1;\n`
    );
    writeFileSync(
      second,
      `import { first } from './planted-first.js';\nexport const second = (): number => first() - 1;\n`
    );
    try {
      const check = checkLayers(root);
      expect(check.status).not.toBe(0);
      expect(check.output).toContain('no-circular');
      expect(check.output).toContain('src/files/planted-first.ts');
    } finally {
      rmSync(first);
      rmSync(second);
    }
  });
});
