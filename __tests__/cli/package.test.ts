import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { z } from 'zod';

/**
 * What `npm pack` would publish, read from npm itself (a dry run against the committed dist/: no
 * build, no network). A full install of the packed tarball needs the registry for its dependencies,
 * so it is checked by hand (see docs/RELEASING.md); this test keeps what makes it work.
 */
const PackResult = z.array(
  z.object({
    name: z.string(),
    version: z.string(),
    files: z.array(z.object({ path: z.string() }))
  })
);

const Manifest = z.object({
  version: z.string(),
  private: z.boolean().optional(),
  bin: z.record(z.string(), z.string()),
  engines: z.object({ node: z.string() }),
  devEngines: z.object({ runtime: z.object({ name: z.string(), version: z.string() }) }),
  scripts: z.record(z.string(), z.string())
});

const npm = (...args: string[]) =>
  execFileSync('npm', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 120_000 });

const manifest = Manifest.parse(JSON.parse(readFileSync('package.json', 'utf8')));

describe('the npm package', () => {
  it('can be published, and its bin is an executable script that npm packs', () => {
    expect(manifest.private).toBeUndefined();
    expect(manifest.bin).toEqual({ 'compact-agent': 'dist/cli/index.js' });
    const [packed] = PackResult.parse(JSON.parse(npm('pack', '--dry-run', '--json', '--ignore-scripts')));
    const files = packed!.files.map((file) => file.path);
    expect(packed!.version).toBe(manifest.version);
    expect(files).toEqual(
      expect.arrayContaining(['package.json', 'action.yml', 'dist/index.js', 'dist/cli/index.js'])
    );
    // Only the built code and the action's metadata: no sources, tests or the 189 MB test Node.
    for (const file of files.filter((path) => !path.startsWith('dist/'))) {
      expect(['package.json', 'action.yml', 'README.md', 'LICENSE']).toContain(file);
    }
    expect(readFileSync('dist/cli/index.js', 'utf8').split('\n', 1)[0]).toBe('#!/usr/bin/env node');
  });

  it('states the Node the code needs, and Node 24 for development', () => {
    // process.execve (the sealed environment) arrived in Node 22.15 / 23.11; the dependencies need 22.
    expect(manifest.engines.node).toBe('>=22.15.0');
    expect(manifest.devEngines.runtime).toMatchObject({ name: 'node', version: '>=24' });
    expect(readFileSync('.nvmrc', 'utf8').trim()).toBe('24');
    expect(readFileSync('action.yml', 'utf8')).toMatch(/using: ['"]?node24/);
  });

  it('runs the tests on Node 24 explicitly, not by a silent PATH change', () => {
    expect(manifest.scripts.test).toContain('node scripts/node24.js node_modules/jest/bin/jest.js');
  });
});
