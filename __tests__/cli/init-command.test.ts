/**
 * `compact-agent init` through the built CLI: it writes the chosen example workflows and a starter
 * config, prints the checklist, changes nothing on a second run, overwrites only with --force, and
 * never writes through a link.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { cliEnv, runBuiltCli, type CliExit } from '../support/cli.js';
import { createTempDir } from '../support/temp-repo.js';

const init = (repo: string, ...args: string[]): Promise<CliExit> =>
  runBuiltCli(['init', '--repo', repo, ...args], cliEnv());

function freshRepo(): string {
  const repo = createTempDir('compact-agent-init-');
  execFileSync('git', ['init', '-q', repo]);
  return repo;
}

const example = (relative: string) => readFileSync(path.join('examples', relative), 'utf8');

describe('compact-agent init', () => {
  it('writes the workflows picked and a starter config, and prints the checklist', async () => {
    const repo = freshRepo();
    const ran = await init(repo, '--workflows', 'agent,review');
    expect(ran.code).toBe(0);
    expect(ran.stdout).toMatch(/^wrote +\.github\/workflows\/agent\.yml$/m);
    expect(ran.stdout).toMatch(/^wrote +\.github\/workflows\/review\.yml$/m);
    expect(ran.stdout).toMatch(/^wrote +\.github\/compact-agent\.yml$/m);
    expect(readFileSync(path.join(repo, '.github/workflows/agent.yml'), 'utf8')).toBe(
      example('workflows/agent.yml')
    );
    expect(readFileSync(path.join(repo, '.github/workflows/review.yml'), 'utf8')).toBe(
      example('workflows/review.yml')
    );
    expect(readFileSync(path.join(repo, '.github/compact-agent.yml'), 'utf8')).toBe(
      example('compact-agent.yml')
    );
    expect(readdirSync(path.join(repo, '.github/workflows')).sort()).toEqual(['agent.yml', 'review.yml']);
    // The checklist: the secret, the App token for CI, the organization setting.
    expect(ran.stdout).toContain('ANTHROPIC_API_KEY');
    expect(ran.stdout).toContain('GitHub App token');
    expect(ran.stdout).toContain('"Allow GitHub Actions to create and approve pull requests"');
  });

  it('writes only the agent workflow by default', async () => {
    const repo = freshRepo();
    expect((await init(repo)).code).toBe(0);
    expect(readdirSync(path.join(repo, '.github/workflows'))).toEqual(['agent.yml']);
  });

  it('changes nothing on a second run, and says so', async () => {
    const repo = freshRepo();
    expect((await init(repo, '--workflows', 'review')).code).toBe(0);
    writeFileSync(path.join(repo, 'marker'), '');
    const before = readFileSync(path.join(repo, '.github/compact-agent.yml'));
    const again = await init(repo, '--workflows', 'review');
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/^unchanged +\.github\/workflows\/review\.yml$/m);
    expect(again.stdout).toMatch(/^unchanged +\.github\/compact-agent\.yml$/m);
    expect(again.stdout).toContain('Nothing to do: every file is already as init writes it.');
    expect(readFileSync(path.join(repo, '.github/compact-agent.yml'))).toEqual(before);
  });

  it('keeps a file that differs unless --force is given, and then overwrites it', async () => {
    const repo = freshRepo();
    mkdirSync(path.join(repo, '.github'));
    writeFileSync(path.join(repo, '.github/compact-agent.yml'), 'limits:\n  max_turns: 7\n');
    const kept = await init(repo);
    expect(kept.code).toBe(0);
    expect(kept.stdout).toMatch(/^kept +\.github\/compact-agent\.yml$/m);
    expect(kept.stdout).toContain('run again with --force to overwrite them');
    expect(readFileSync(path.join(repo, '.github/compact-agent.yml'), 'utf8')).toBe(
      'limits:\n  max_turns: 7\n'
    );
    // The other files were still written.
    expect(existsSync(path.join(repo, '.github/workflows/agent.yml'))).toBe(true);

    const forced = await init(repo, '--force');
    expect(forced.code).toBe(0);
    expect(forced.stdout).toMatch(/^overwrote +\.github\/compact-agent\.yml$/m);
    expect(forced.stdout).toMatch(/^unchanged +\.github\/workflows\/agent\.yml$/m);
    expect(readFileSync(path.join(repo, '.github/compact-agent.yml'), 'utf8')).toBe(
      example('compact-agent.yml')
    );
  });

  it('refuses an unknown workflow name, naming the ones there are, and writes nothing', async () => {
    const repo = freshRepo();
    const ran = await init(repo, '--workflows', 'agent,nightly');
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain(
      '--workflows: "nightly" is not an example workflow. Choose from agent, review, scheduled-refactor'
    );
    expect(existsSync(path.join(repo, '.github'))).toBe(false);
  });

  it('refuses a folder that is not a git repository', async () => {
    const folder = createTempDir('compact-agent-init-plain-');
    const ran = await init(folder);
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain('is not a git repository');
    expect(existsSync(path.join(folder, '.github'))).toBe(false);
  });

  it('never writes through a link, even with --force, and writes nothing then', async () => {
    const repo = freshRepo();
    const outside = createTempDir('compact-agent-init-outside-');
    symlinkSync(outside, path.join(repo, '.github'));
    const ran = await init(repo, '--force');
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain('.github in the repository is a symbolic link');
    expect(readdirSync(outside)).toEqual([]);

    const other = freshRepo();
    mkdirSync(path.join(other, '.github/workflows'), { recursive: true });
    symlinkSync(path.join(outside, 'agent.yml'), path.join(other, '.github/workflows/agent.yml'));
    const linked = await init(other, '--force');
    expect(linked.code).toBe(2);
    expect(linked.stderr).toContain('.github/workflows/agent.yml in the repository is a symbolic link');
    expect(readdirSync(outside)).toEqual([]);
    expect(existsSync(path.join(other, '.github/compact-agent.yml'))).toBe(false);
  });
});
