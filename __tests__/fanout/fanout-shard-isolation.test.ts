import { jest } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  messageText,
  reply,
  startFakeAnthropic,
  text,
  toolResults,
  toolUse,
  type FakeAnthropic,
  type ParsedRequest
} from '../../test-support/fake-anthropic/index.js';
import { cliEnv, runBuiltCli, type CliExit } from '../support/cli.js';
import { describeWithBox } from '../sandbox/box-support.js';

/**
 * What a shard's box can reach of the person's repository, with the BUILT CLI and `--sandbox
 * required` (security review E, findings 1-3 and 5). The box hides the CLI's temporary folder, so
 * a repository inside it would never show the box anything: here the CLI's TMPDIR is a folder of
 * its own and the repository (and the victim folders an attack aims at) lie beside it, as a
 * person's checkout under HOME would. The scripted model runs one bash command per shard.
 */
jest.setTimeout(240_000);

let root: string;
let repoDir: string;
let victim: string;
let fake: FakeAnthropic | undefined;
/** Every request the fake model received: what the shard's commands printed comes back in them. */
let seen: string[];

const git = (...args: string[]) =>
  execFileSync('git', args, {
    cwd: repoDir,
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 'T',
      GIT_AUTHOR_EMAIL: 't@example.com',
      GIT_COMMITTER_NAME: 'T',
      GIT_COMMITTER_EMAIL: 't@example.com'
    }
  });

function seed(files: Record<string, string>): void {
  git('init', '-q', '--initial-branch=main');
  for (const [file, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(repoDir, file)), { recursive: true });
    writeFileSync(path.join(repoDir, file), content);
  }
  writeFileSync(path.join(repoDir, '.gitignore'), '.transcripts/\n');
  git('add', '-A');
  git('commit', '-qm', 'seed');
}

const taskOf = (request: ParsedRequest) => (request.messages[0] ? messageText(request.messages[0]) : '');
const shardOf = (request: ParsedRequest) => /<fanout-shard id="(shard-\d+)"/.exec(taskOf(request))?.[1];

/** A model that runs `commands(shard)` as its first turn's bash command, then says it is done. */
async function scriptedModel(commands: (shard: string) => string | undefined): Promise<FakeAnthropic> {
  return startFakeAnthropic({
    script: (request) => {
      seen.push(JSON.stringify(request.messages));
      const shard = shardOf(request) ?? 'none';
      const command = toolResults(request).length === 0 ? commands(shard) : undefined;
      if (command === undefined) return reply(text(`${shard}: done.`));
      return reply(text('working'), toolUse('bash', { command }, 'b0'));
    }
  });
}

function fanout(...args: string[]): Promise<CliExit> {
  const cliTmp = path.join(root, 'cli-tmp');
  mkdirSync(cliTmp, { recursive: true });
  return runBuiltCli(
    ['fanout', '--repo', repoDir, '--sandbox', 'required', '--max-total-usd', '2', ...args],
    cliEnv({ ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: fake!.url, TMPDIR: cliTmp })
  );
}

/** The person's repository as far as a shard must leave it: branch, index, HEAD and git folder files. */
function personState(): Record<string, string> {
  const gitDir = path.join(repoDir, '.git');
  const read = (file: string) =>
    existsSync(path.join(gitDir, file)) ? readFileSync(path.join(gitDir, file), 'utf8') : '(absent)';
  return {
    main: git('rev-parse', 'main'),
    head: read('HEAD'),
    index: git('ls-files', '-s'),
    status: git('status', '--short'),
    alternates: read('objects/info/alternates'),
    attributes: read('info/attributes'),
    configWorktree: read('config.worktree'),
    worktrees: existsSync(path.join(gitDir, 'worktrees'))
      ? readdirSync(path.join(gitDir, 'worktrees')).join(',')
      : ''
  };
}

beforeEach(() => {
  // Outside os.tmpdir() of the CLI (its TMPDIR is root/cli-tmp), as a checkout under HOME is.
  root = mkdtempSync(path.join(tmpdir(), 'compact-agent-isolation-'));
  repoDir = path.join(root, 'repo');
  victim = path.join(root, 'victim');
  mkdirSync(repoDir);
  mkdirSync(victim);
  seen = [];
});
afterEach(async () => {
  await fake?.close();
  fake = undefined;
  rmSync(root, { recursive: true, force: true });
});

describeWithBox('a fan-out shard’s box and the person’s repository (review E)', () => {
  it('cannot move the person’s branch, stage into their index or write their git folder (a1)', async () => {
    seed({ 'src/a.ts': 'oldApi()\n', 'src/b.ts': 'oldApi()\n', 'README.md': '# hi\n' });
    const before = personState();
    const gitDir = path.join(repoDir, '.git');
    // Both ways in: the path git names as the common folder, and the person's folder by its real path.
    const attack = (target: string) => `
T=$(git hash-object -w --stdin <<<'planted by shard')
TREE=$(printf '100644 blob %s\\tPLANTED\\n' $T | git mktree)
C=$(git -c user.name=x -c user.email=x commit-tree $TREE -m evil)
git --git-dir="${target}" update-ref refs/heads/main $C && echo MOVED-MAIN
GIT_INDEX_FILE="${target}/index" git --git-dir="${target}" update-index --add --cacheinfo 100644,$T,src/staged.ts && echo PLANTED-INDEX
echo '* diff=evil' > "${target}/info/attributes" && echo WROTE-ATTRS
mkdir -p "${target}/objects/info" && echo /nonexistent > "${target}/objects/info/alternates" && echo WROTE-ALTERNATES
true`;
    fake = await scriptedModel((shard) =>
      shard === 'shard-01' ? attack('$(git rev-parse --git-common-dir)') : attack(gitDir)
    );
    const run = await fanout(
      '--prompt',
      'Replace oldApi',
      '--units',
      'git grep -l oldApi -- src',
      '--shard-size',
      '1',
      '--land',
      'combined'
    );
    expect(run.stderr).toMatch(/shard-01: /);
    expect(personState()).toEqual(before);
    // The person's objects gained nothing the shard wrote (its own store is its own).
    const planted = execFileSync('git', ['hash-object', '--stdin'], {
      input: 'planted by shard\n',
      encoding: 'utf8'
    });
    expect(() => git('cat-file', '-e', planted.trim())).toThrow();
  });

  it('lets no shard redirect our own git to a host folder through its git folder (a3, a7)', async () => {
    seed({
      'src/a.ts': 'oldApi()\n',
      'src/b.ts': 'oldApi()\n',
      Makefile: 'all:\n\techo hi\n',
      '.npmrc': 'fund=false\n'
    });
    git('config', 'extensions.worktreeConfig', 'true');
    const planted = path.join(root, 'planted.git');
    // Every file that could send git elsewhere: its own config.worktree (a7), a commondir to a
    // planted git folder whose config names the victim as the work tree (a3), and the person's
    // folders by their real path, for the shard that would find them.
    const attack = `
G=$(git rev-parse --absolute-git-dir)
printf '[core]\\n\\tworktree = ${victim}\\n' > "$G/config.worktree" && echo WROTE-CONFIG-WORKTREE
mkdir -p "$G/evil/refs" && cp -a "$G/objects" "$G/evil/" ; echo 'ref: refs/heads/main' > "$G/evil/HEAD"
printf '[core]\\n\\trepositoryformatversion = 1\\n\\tworktree = ${victim}\\n[extensions]\\n\\tworktreeConfig = true\\n' > "$G/evil/config"
echo "$G/evil" > "$G/commondir" && echo WROTE-COMMONDIR
printf '[core]\\n\\tworktree = ${victim}\\n' > "${repoDir}/.git/config.worktree" && echo WROTE-PERSON-CONFIG-WORKTREE
mkdir -p "${planted}" && echo PLANTED-OUTSIDE
for w in "${repoDir}"/.git/worktrees/*; do printf '[core]\\n\\tworktree = ${victim}\\n' > "$w/config.worktree" && echo "REDIRECTED $w"; done
true`;
    fake = await scriptedModel(() => attack);
    const run = await fanout(
      '--prompt',
      'Replace oldApi',
      '--units',
      'git grep -l oldApi -- src',
      '--shard-size',
      '1',
      '--parallel',
      '2'
    );
    expect(readdirSync(victim)).toEqual([]);
    expect(existsSync(planted)).toBe(false);
    expect(existsSync(path.join(repoDir, '.git', 'config.worktree'))).toBe(false);
    // The shards whose git folder was redirected are not landed: their run is refused, saying why.
    expect(run.stderr).toMatch(/shard-01: failed/);
    expect(run.stdout).toMatch(/redirect/i);
    expect(git('branch', '--list', 'fanout/*')).toBe('');
  });

  it('shows the shard none of the person’s git config or its credentials (a6)', async () => {
    seed({ 'src/a.ts': 'oldApi()\n' });
    git('config', 'http.https://github.com/.extraheader', 'AUTHORIZATION: basic c2VjcmV0LWhlYWRlcg==');
    git('remote', 'add', 'origin', 'https://x-access-token:ghs_SECRETTOKEN@github.com/o/r');
    const reveal =
      'cat "$(git rev-parse --git-common-dir)/config" | rev; cat "$(git rev-parse --git-dir)/config" | rev; ' +
      `cat "${repoDir}/.git/config" | rev; git config --list --show-origin | rev; true`;
    fake = await scriptedModel(() => reveal);
    const run = await fanout('--prompt', 'p', '--units', 'git grep -l oldApi -- src');
    expect(run.stderr).toMatch(/shard-01: done/);
    const reversed = (secret: string) => [...secret].reverse().join('');
    const shown = seen.join('\n');
    expect(shown).toMatch(/eroc\[/); // `[core]` reversed: the commands did run and print a config
    for (const secret of ['ghs_SECRETTOKEN', 'c2VjcmV0LWhlYWRlcg==', 'x-access-token'])
      expect(shown).not.toContain(reversed(secret));
  });

  it('runs the burndown re-scan of the landed code in the box, not on the host (a2)', async () => {
    const marker = path.join(victim, 'PWNED-rescan');
    seed({ 'src/a.sh': '# oldApi\n', 'src/b.sh': '# oldApi\n' });
    // The unit command sources the units (a test runner's collection does the same): the landed
    // change runs when the burndown lists the units again.
    const units = 'for f in src/*.sh; do . "./$f"; done; git grep -l oldApi -- src';
    fake = await scriptedModel((shard) =>
      shard === 'shard-01'
        ? `printf 'touch "${marker}" 2>/dev/null || true\\n# newApi\\n' > src/a.sh`
        : undefined
    );
    const run = await fanout(
      '--prompt',
      'Replace oldApi',
      '--units',
      units,
      '--shard-size',
      '1',
      '--format',
      'json'
    );
    expect(run.stderr).toMatch(/shard-01: done/);
    expect(
      git('show', `fanout/${(JSON.parse(run.stdout) as { planId: string }).planId}/shard-01:src/a.sh`)
    ).toContain(marker);
    expect(existsSync(marker)).toBe(false);
    // The re-scan ran (in the box) and counted: shard-01's unit is gone, shard-02's is left.
    expect((JSON.parse(run.stdout) as { unitsAfter?: number }).unitsAfter).toBe(1);
  });
});
