/** The default hosts that relay or take data, and which repositories get the Go relays. */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DEFAULT_SANDBOX, parseSandboxInputs } from '../../src/config/sandbox-input.js';
import { DEFAULT_ALLOWED_HOSTS } from '../../src/sandbox/default-hosts.js';
import { GitRepository } from '../../src/git/repository.js';
import {
  baseHasGoModule,
  hasGoModule,
  sandboxForRepository,
  treeHasGoModule
} from '../../src/sandbox/repository-hosts.js';
import { createRepoWithRemote, createTempDir } from '../support/temp-repo.js';

const hosts = (config: { rules: readonly { host: string }[] | undefined }) =>
  config.rules?.map((rule) => rule.host) ?? [];

describe('the default hosts', () => {
  it('mark the Go mirror and checksum database as hosts that fetch from any origin, only for Go modules', () => {
    const relays = DEFAULT_ALLOWED_HOSTS.filter((entry) => entry.wayOut === 'fetches');
    expect(relays.map((entry) => [entry.host, entry.onlyWith])).toEqual([
      ['proxy.golang.org', 'go.mod'],
      ['sum.golang.org', 'go.mod']
    ]);
    expect(
      DEFAULT_ALLOWED_HOSTS.filter((entry) => entry.wayOut === 'uploads').map((entry) => entry.host)
    ).toEqual(['registry.npmjs.org', 'crates.io', 'rubygems.org']);
  });

  it('leave the relays out of the parsed defaults until the repository is known', () => {
    expect(hosts(DEFAULT_SANDBOX)).not.toContain('sum.golang.org');
    expect(hosts(DEFAULT_SANDBOX)).not.toContain('proxy.golang.org');
    expect(hosts(DEFAULT_SANDBOX)).toContain('registry.npmjs.org');
  });
});

describe('sandboxForRepository', () => {
  const parse = (values: Record<string, string>) =>
    parseSandboxInputs(
      (name) => values[name] ?? '',
      (name) => name,
      []
    );

  it('adds the Go relays, as default (not explicit) rules, for a repository with a go.mod', () => {
    const root = createTempDir();
    writeFileSync(path.join(root, 'go.mod'), 'module example.com/x\n');
    const config = sandboxForRepository(DEFAULT_SANDBOX, root);
    expect(hosts(config)).toEqual(expect.arrayContaining(['proxy.golang.org', 'sum.golang.org']));
    // A default rule: a name that resolves to an internal address is still refused.
    expect(config.rules?.find((rule) => rule.host === 'sum.golang.org')?.explicit).toBe(false);
  });

  it('adds nothing without a go.mod, with the defaults off, or with the network off', () => {
    const plain = createTempDir();
    writeFileSync(path.join(plain, 'package.json'), '{}');
    expect(sandboxForRepository(DEFAULT_SANDBOX, plain)).toBe(DEFAULT_SANDBOX);
    const go = createTempDir();
    writeFileSync(path.join(go, 'go.mod'), 'module example.com/x\n');
    const noDefaults = parse({ sandbox_default_hosts: 'false', sandbox_allow_hosts: 'a.example.com' });
    expect(hosts(sandboxForRepository(noDefaults, go))).toEqual(['a.example.com']);
    const offline = parse({ sandbox_network: 'off' });
    expect(sandboxForRepository(offline, go).rules).toBeUndefined();
  });

  it('keeps a relay the maintainer names, whatever the repository holds', () => {
    const plain = createTempDir();
    const named = parse({ sandbox_allow_hosts: 'sum.golang.org' });
    expect(hosts(sandboxForRepository(named, plain)).filter((host) => host === 'sum.golang.org')).toEqual([
      'sum.golang.org'
    ]);
  });
});

describe('hasGoModule', () => {
  it('finds go.mod or go.work at the root or a few folders below, not in vendored or hidden folders', () => {
    const nested = createTempDir();
    mkdirSync(path.join(nested, 'services', 'api'), { recursive: true });
    writeFileSync(path.join(nested, 'services', 'api', 'go.mod'), 'module example.com/api\n');
    expect(hasGoModule(nested)).toBe(true);
    const work = createTempDir();
    writeFileSync(path.join(work, 'go.work'), 'go 1.22\n');
    expect(hasGoModule(work)).toBe(true);
    const vendored = createTempDir();
    for (const folder of ['node_modules/x', 'vendor/y', '.git/z', 'a/b/c/d']) {
      mkdirSync(path.join(vendored, folder), { recursive: true });
      writeFileSync(path.join(vendored, folder, 'go.mod'), 'module x\n');
    }
    expect(hasGoModule(vendored)).toBe(false);
  });

  it('follows no link: a go.mod link, or a folder link, counts for nothing', () => {
    const root = createTempDir();
    const elsewhere = createTempDir();
    writeFileSync(path.join(elsewhere, 'go.mod'), 'module x\n');
    symlinkSync(path.join(elsewhere, 'go.mod'), path.join(root, 'go.mod'));
    symlinkSync(elsewhere, path.join(root, 'linked'));
    expect(hasGoModule(root)).toBe(false);
  });
});

describe("a pull request's Go module is judged from its base", () => {
  it('counts regular go.mod and go.work files of the tree, a few folders down, outside vendored code', () => {
    const file = (entryPath: string, mode = '100644') => ({ mode, path: entryPath });
    expect(treeHasGoModule([file('README.md'), file('go.mod')])).toBe(true);
    expect(treeHasGoModule([file('services/api/cmd/go.work')])).toBe(true);
    expect(treeHasGoModule([file('a/b/c/d/go.mod')])).toBe(false);
    expect(treeHasGoModule([file('vendor/x/go.mod'), file('.tools/go.mod'), file('testdata/go.mod')])).toBe(
      false
    );
    expect(treeHasGoModule([file('go.mod', '120000')])).toBe(false);
    expect(treeHasGoModule([file('go.mod', '160000')])).toBe(false);
  });

  it("ignores a go.mod the head adds (a fork's), and finds the base's own", async () => {
    const repo = createRepoWithRemote();
    try {
      const git = new GitRepository(repo.root);
      // The pull request's head adds a go.mod: the checkout has one, the base does not.
      repo.write('go.mod', 'module example.com/fork\n');
      expect(hasGoModule(repo.root)).toBe(true);
      expect(await baseHasGoModule(git, 'main')).toBe(false);

      repo.git('add', 'go.mod');
      repo.git('commit', '--quiet', '-m', 'a Go module');
      repo.git('push', '--quiet', 'origin', 'main');
      expect(await baseHasGoModule(git, 'main')).toBe(true);
      // A base that cannot be read opens nothing.
      expect(await baseHasGoModule(git, 'no-such-branch')).toBe(false);
    } finally {
      repo.remove();
    }
  });
});
