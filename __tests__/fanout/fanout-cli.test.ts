import { jest } from '@jest/globals';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { EXIT } from '../../src/cli/exit-codes.js';
import { startFakeAnthropic, type FakeAnthropic } from '../../test-support/fake-anthropic/index.js';
import { fakeModelEnv, spawnCli, type CliExit } from '../support/cli.js';
import { createTempRepo, type TempRepo } from '../support/temp-repo.js';
import { describeWithBox } from '../sandbox/box-support.js';
import { after, before, shardModelScript, shardOf, unitFile } from '../support/fanout-shard-model.js';

/**
 * `compact-agent fanout` end to end: the CLI in its own process (the sources bundled), the real
 * SDK against the fake Anthropic server, real git worktrees. The scripted model plays each shard:
 * it reads its paths from the shard's task and rewrites each file from oldApi() to newApi().
 */
// Each test starts the CLI one to three times, each running up to six shards: on a loaded 2-core
// machine that is several times the ~10 s it takes alone.
jest.setTimeout(180_000);

const UNIT_COUNT = 24;

let repo: TempRepo;
let fake: FakeAnthropic;
/** Shards whose model writes a broken file (the validation fails), and one that also edits README.md. */
let breaks: Set<string>;
let strays: Set<string>;

beforeEach(async () => {
  breaks = new Set();
  strays = new Set();
  repo = createTempRepo();
  for (let index = 1; index <= UNIT_COUNT; index++) repo.write(unitFile(index), before(unitFile(index)));
  repo.write('src/untouched.ts', 'export const other = 1;\n');
  repo.write('README.md', '# demo\n');
  repo.write('.gitignore', '.transcripts/\n');
  repo.git('add', '-A');
  repo.git('commit', '-qm', 'seed');
  fake = await startFakeAnthropic({ script: shardModelScript({ breaks, strays }) });
});
afterEach(async () => {
  await fake.close();
  repo.remove();
});

const fanoutIn = (sandbox: 'off' | 'required', ...args: string[]): Promise<CliExit> =>
  spawnCli(['fanout', '--repo', repo.root, '--sandbox', sandbox, ...args], { env: fakeModelEnv(fake.url) });
const fanout = (...args: string[]) => fanoutIn('off', ...args);

const newFanout = (...more: string[]) =>
  fanout(
    '--prompt',
    'Replace oldApi() with newApi().',
    '--units',
    'git grep -l oldApi -- src',
    '--shard-size',
    '4',
    '--parallel',
    '2',
    '--max-total-usd',
    '6',
    '--validate',
    '! grep -rl BROKEN src',
    '--validate-retries',
    '0',
    ...more
  );

const shardsAsked = () =>
  new Set(fake.requests.flatMap((record) => (record.request ? [shardOf(record.request)] : [])));
/** The most shards running at once, read from the order of the progress lines (no timing). */
function mostAtOnce(stderr: string): number {
  let running = 0;
  let most = 0;
  for (const line of stderr.split('\n')) {
    if (/^shard-\d+: started/.test(line)) most = Math.max(most, ++running);
    else if (/^shard-\d+: (done|failed|over-budget)/.test(line)) running--;
  }
  return most;
}
const show = (ref: string, file: string) => repo.git('show', `${ref}:${file}`);

interface JsonRollup {
  planId: string;
  stateDir: string;
  rows: { shardId: string; status: string; refused: number; branch?: string; costUsd: number }[];
  spentUsd: number;
  capUsd: number;
  unitsBefore: number;
  unitsAfter: number;
  combinedBranch?: string;
  unfinished: boolean;
}

describe('compact-agent fanout', () => {
  it('lands every edit of a 24-unit repository, 2 shards at a time, into one combined local branch', async () => {
    const run = await newFanout('--land', 'combined', '--format', 'json');
    expect(run.stderr).toMatch(/Plan [0-9a-f]{12}: 24 units in 6 shards, \$1\.00 each/);
    expect(run.code).toBe(EXIT.success);
    const rollup = JSON.parse(run.stdout) as JsonRollup;
    expect(rollup.rows.map((row) => row.status)).toEqual(Array(6).fill('landed'));
    expect(rollup).toMatchObject({ unitsBefore: 24, unitsAfter: 0, capUsd: 6, unfinished: false });
    expect(rollup.spentUsd).toBeGreaterThan(0);
    expect(rollup.spentUsd).toBeCloseTo(
      rollup.rows.reduce((sum, row) => sum + row.costUsd, 0),
      10
    );
    const branch = `fanout/${rollup.planId}/combined`;
    expect(rollup.combinedBranch).toBe(branch);
    for (let index = 1; index <= UNIT_COUNT; index++)
      expect(show(branch, unitFile(index))).toBe(after(unitFile(index)));
    // Landed into a local branch only: the working tree and HEAD's branch keep the old code.
    expect(readFileSync(path.join(repo.root, unitFile(1)), 'utf8')).toBe(before(unitFile(1)));
    expect(repo.git('rev-parse', '--abbrev-ref', 'HEAD').trim()).toBe('main');
    expect(shardsAsked()).toEqual(
      new Set(['shard-01', 'shard-02', 'shard-03', 'shard-04', 'shard-05', 'shard-06'])
    );
    expect(mostAtOnce(run.stderr)).toBe(2);
  });

  it('reports a failing shard and exits 1; a resume runs only that shard, and lands it per shard', async () => {
    breaks.add('shard-03');
    const first = await newFanout();
    expect(first.code).toBe(EXIT.runFailed);
    expect(first.stdout).toMatch(
      /shard-03\s+4\s+failed\s+\$\S+\s+\$1\.00\s+4\s+0\s+failed \(1 run\)\s+validation_failed/
    );
    expect(first.stdout).toMatch(/burndown: 24 unit\(s\) before, 4 after/);
    const stateDir = /resume with --resume (\S+)/.exec(first.stdout)![1]!;
    const planId = /fanout-([0-9a-f]{12})$/.exec(stateDir)![1]!;
    expect(repo.git('branch', '--list', 'fanout/*').split('\n').filter(Boolean)).toHaveLength(5);
    expect(repo.git('branch', '--list', `fanout/${planId}/shard-03`)).toBe('');

    breaks.clear();
    const asked = fake.requests.length;
    const resumed = await fanout('--resume', stateDir);
    expect(resumed.code).toBe(EXIT.success);
    expect(resumed.stderr).toMatch(
      /Resuming plan [0-9a-f]{12} on [0-9a-f]{12}: 1 shard\(s\) again \(shard-03\)/
    );
    const askedAfter = fake.requests
      .slice(asked)
      .flatMap((record) => (record.request ? [shardOf(record.request)] : []));
    expect(new Set(askedAfter)).toEqual(new Set(['shard-03']));
    expect(show(`fanout/${planId}/shard-03`, unitFile(9))).toBe(after(unitFile(9)));
    expect(show(`fanout/${planId}/shard-01`, unitFile(1))).toBe(after(unitFile(1)));
    expect(resumed.stdout).toMatch(/burndown: 24 unit\(s\) before, 0 after/);
    // Re-landing moved the same six branches: none duplicated.
    expect(repo.git('branch', '--list', 'fanout/*').split('\n').filter(Boolean)).toHaveLength(6);

    // A second resume has nothing to run and lands the same branches again.
    const again = fake.requests.length;
    const third = await fanout('--resume', stateDir);
    expect(third.code).toBe(EXIT.success);
    expect(fake.requests.length).toBe(again);
    expect(third.stderr).toMatch(/Every shard of plan [0-9a-f]{12} is finished/);
  });

  it('refuses, counts and reports an edit outside a shard’s paths, and lands the rest of its change', async () => {
    strays.add('shard-02');
    const run = await newFanout('--format', 'json');
    expect(run.code).toBe(EXIT.success);
    const rollup = JSON.parse(run.stdout) as JsonRollup;
    expect(rollup.rows.find((row) => row.shardId === 'shard-02')).toMatchObject({
      status: 'landed',
      refused: 1
    });
    expect(run.stderr).toMatch(/shard-02: done \(\$\S+, 4 file\(s\), 1 out-of-scope edit\(s\) refused\)/);
    expect(show(`fanout/${rollup.planId}/shard-02`, 'README.md')).toBe('# demo\n');
    expect(show(`fanout/${rollup.planId}/shard-02`, unitFile(5))).toBe(after(unitFile(5)));
    const result = JSON.parse(
      readFileSync(path.join(rollup.stateDir, 'results', 'shard-02.json'), 'utf8')
    ) as {
      refusedPaths: string[];
    };
    expect(result.refusedPaths).toEqual(['README.md']);

    // The same fan-out started again is caught, not duplicated: resume it instead.
    const twice = await newFanout();
    expect(twice.code).toBe(EXIT.usage);
    expect(twice.stderr).toContain(`was already started in ${rollup.stateDir}. Continue it with --resume`);
  });

  it('rejects a result forged to claim files outside its shard, and a resume runs that shard again', async () => {
    const run = await newFanout('--format', 'json');
    expect(run.code).toBe(EXIT.success);
    const { stateDir, planId } = JSON.parse(run.stdout) as JsonRollup;
    const resultFile = path.join(stateDir, 'results', 'shard-04.json');
    const forged = JSON.parse(readFileSync(resultFile, 'utf8')) as { files: string[] };
    writeFileSync(resultFile, JSON.stringify({ ...forged, files: [...forged.files, 'README.md'] }));
    const asked = fake.requests.length;
    const resumed = await fanout('--resume', stateDir, '--format', 'json');
    expect(resumed.stderr).toMatch(/1 shard\(s\) again \(shard-04\)/);
    const askedAfter = fake.requests
      .slice(asked)
      .flatMap((record) => (record.request ? [shardOf(record.request)] : []));
    expect(new Set(askedAfter)).toEqual(new Set(['shard-04']));
    expect(resumed.code).toBe(EXIT.success);
    expect(show(`fanout/${planId}/shard-04`, unitFile(13))).toBe(after(unitFile(13)));
  });

  it('groups by CODEOWNERS owner and lands one branch per owner group, the unowned on their own', async () => {
    repo.write(
      '.github/CODEOWNERS',
      [
        '* @octo-org/Default',
        '/src/mod0*.ts @octo-org/web # the web team',
        '/src/mod1?.ts @octo-org/Web ops@example.com',
        '/src/mod2?.ts',
        '/src/mod24.ts @octo-org/default',
        ''
      ].join('\n')
    );
    repo.git('add', '-A');
    repo.git('commit', '-qm', 'owners');
    const run = await newFanout('--group-by', 'owner', '--land', 'per-owner', '--format', 'json');
    expect(run.code).toBe(EXIT.success);
    const rollup = JSON.parse(run.stdout) as JsonRollup;
    expect(rollup.rows.every((row) => row.status === 'landed')).toBe(true);
    const branch = (name: string) => `fanout/${rollup.planId}/${name}`;
    const branches = repo
      .git('branch', '--list', branch('*'))
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean);
    expect(branches.sort()).toEqual(
      ['owner-octo-org-default', 'owner-octo-org-web', 'owner-octo-org-web-ops-example-com', 'unowned']
        .map(branch)
        .sort()
    );
    const migratedOn = (name: string) =>
      Array.from({ length: UNIT_COUNT }, (_, index) => index + 1).filter(
        (index) => show(branch(name), unitFile(index)) === after(unitFile(index))
      );
    const range = (from: number, to: number) =>
      Array.from({ length: to - from + 1 }, (_, index) => from + index);
    expect(migratedOn('owner-octo-org-web')).toEqual(range(1, 9));
    // Owners are case-blind, as GitHub's: @octo-org/Web is @octo-org/web.
    expect(migratedOn('owner-octo-org-web-ops-example-com')).toEqual(range(10, 19));
    // `/src/mod2?.ts` names no owners; the later `/src/mod24.ts` gives 24 one back.
    expect(migratedOn('unowned')).toEqual(range(20, 23));
    expect(migratedOn('owner-octo-org-default')).toEqual([24]);
    const manifest = JSON.parse(readFileSync(path.join(rollup.stateDir, 'manifest.json'), 'utf8')) as {
      shards: { id: string; owner?: string; paths: string[] }[];
    };
    expect(manifest.shards.map((shard) => [shard.owner, shard.paths.length])).toEqual([
      ['@octo-org/default', 1],
      ['@octo-org/web', 4],
      ['@octo-org/web', 4],
      ['@octo-org/web', 1],
      ['@octo-org/web ops@example.com', 4],
      ['@octo-org/web ops@example.com', 4],
      ['@octo-org/web ops@example.com', 2],
      ['', 4]
    ]);
    // Each shard's row names its owner group's branch.
    expect(new Set(rollup.rows.map((row) => row.branch))).toEqual(new Set(branches));
  });

  it('makes bad input a clear error before any model call', async () => {
    const empty = await fanout(
      '--prompt',
      'x',
      '--units',
      'git grep -l nothingHasThis -- src',
      '--max-total-usd',
      '5'
    );
    expect(empty.code).toBe(EXIT.usage);
    expect(empty.stderr).toMatch(/exited with code 1.*`git grep -l` exits 1 when nothing matches/);
    const tooSmall = await fanout(
      '--prompt',
      'x',
      '--units',
      'git grep -l oldApi -- src',
      '--shard-size',
      '1',
      '--max-total-usd',
      '0.5'
    );
    expect(tooSmall.code).toBe(EXIT.usage);
    expect(tooSmall.stderr).toMatch(/split over 24 shards gives each \$0\.02.*at least \$1\.20/);
    const pilot = await fanout(
      '--prompt',
      'x',
      '--units',
      'git grep -l oldApi -- src',
      '--pilot',
      '3',
      '--max-total-usd',
      '0.1'
    );
    expect(pilot.stderr).toMatch(/too small for the pilot of 3 shard\(s\)/);
    const noCap = await fanout('--prompt', 'x', '--units', 'ls');
    expect(noCap.stderr).toMatch(/needs a total cap: --max-total-usd X/);
    const perOwner = await fanout(
      '--prompt',
      'x',
      '--units',
      'ls',
      '--max-total-usd',
      '5',
      '--land',
      'per-owner'
    );
    expect(perOwner.code).toBe(EXIT.usage);
    expect(perOwner.stderr).toMatch(/--land per-owner .* add --group-by owner/);
    const noOwners = await fanout(
      '--prompt',
      'x',
      '--units',
      'git grep -l oldApi -- src',
      '--max-total-usd',
      '5',
      '--group-by',
      'owner'
    );
    expect(noOwners.code).toBe(EXIT.usage);
    expect(noOwners.stderr).toMatch(
      /Grouping by owner needs a CODEOWNERS file.*\.github\/CODEOWNERS, CODEOWNERS, docs\/CODEOWNERS/
    );
    const badOwners = await fanout('--prompt', 'x', '--owners', 'web-team', '--max-total-usd', '5');
    expect(badOwners.code).toBe(EXIT.usage);
    expect(badOwners.stderr).toMatch(/--owners takes code owners .*@org\/team-name.*\(got "web-team"\)/);
    const mixed = await fanout('--resume', 'somewhere', '--prompt', 'x');
    expect(mixed.stderr).toMatch(/Drop --prompt/);
    expect(fake.requests.filter((record) => record.path === '/v1/messages')).toHaveLength(0);
  });
});

describeWithBox('compact-agent fanout in the box', () => {
  it('runs the validation command in the box the shard’s agent had, not on the host', async () => {
    // The worktree holds what the agent wrote; a test run executes it. In the box the repository's
    // own folder (and the rest of the host's /tmp) is out of sight.
    const run = await fanoutIn(
      'required',
      '--prompt',
      'Replace oldApi() with newApi().',
      '--units',
      'git grep -l oldApi -- src',
      '--shard-size',
      '24',
      '--max-total-usd',
      '2',
      '--validate',
      `test ! -e ${repo.root}/README.md`,
      '--validate-retries',
      '0',
      '--format',
      'json'
    );
    expect(run.code).toBe(EXIT.success);
    const rollup = JSON.parse(run.stdout) as JsonRollup;
    expect(rollup.rows.map((row) => row.status)).toEqual(['landed']);
    expect(rollup.unitsAfter).toBe(0);
  });
});
