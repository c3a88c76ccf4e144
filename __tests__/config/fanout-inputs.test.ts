/**
 * The fan-out inputs and the config file's fanout: block, judged with every other input: each bad
 * combination is a problem that names what to change in the workflow.
 */
import { parseConfigFile } from '../../src/config/config-file.js';
import { parseActionConfig, type ActionConfig } from '../../src/config/github-inputs.js';
import { ACTION_INPUT_NAMING, InputError } from '../../src/config/inputs.js';
import { layeredNaming, layeredReader } from '../../src/config/layered-inputs.js';

const reader = (inputs: Record<string, string>) => (name: string) => inputs[name] ?? '';
const base = { anthropic_api_key: 'sk-test', github_token: 'ghs_test' };
const SOURCE = '.github/compact-agent.yml on main';

function parse(inputs: Record<string, string>, file?: string): ActionConfig {
  const given = reader({ ...base, ...inputs });
  const settings = file === undefined ? undefined : parseConfigFile(file, SOURCE);
  return parseActionConfig(
    layeredReader(given, settings),
    {},
    layeredNaming(given, settings, ACTION_INPUT_NAMING)
  );
}

function problemsOf(inputs: Record<string, string>, file?: string): readonly string[] {
  try {
    parse(inputs, file);
  } catch (error) {
    if (error instanceof InputError) return error.problems;
    throw error;
  }
  throw new Error('expected an InputError');
}

const PLAN = { fanout: 'plan', fanout_units: 'git grep -l oldApi -- src', fanout_max_total_usd: '20' };

describe('the fanout role', () => {
  it('is absent for an ordinary run, which still judges the fanout: block and knows the workflow', () => {
    const config = parse({}, 'fanout:\n  units: ls\n');
    expect(config.fanout).toBeUndefined();
    expect(config.github.fanoutWorkflow).toBe('.github/workflows/fanout.yml');
    expect(problemsOf({}, 'fanout:\n  max_total_usd: 0.001\n')).toEqual([
      expect.stringContaining(
        'fanout.max_total_usd (in .github/compact-agent.yml on main) of $0.001 is too small'
      )
    ]);
  });

  it('reads a plan from the inputs, with the defaults of the rest', () => {
    expect(parse(PLAN).fanout).toEqual({
      role: 'plan',
      unitSource: { kind: 'command', command: 'git grep -l oldApi -- src' },
      groupBy: 'count',
      shardSize: 10,
      totalCapUsd: 20,
      validationCommand: undefined,
      validationRetries: 1,
      pilot: undefined,
      resumeRunId: undefined,
      land: 'per-shard'
    });
  });

  it("takes the config file's fanout: block, the inputs winning over it", () => {
    const file = [
      'fanout:',
      '  units: git grep -l old -- lib',
      '  max_total_usd: 5',
      '  group_by: folder',
      '  shard_size: 3',
      '  validate: npm test',
      '  validate_retries: 2',
      '  land: combined',
      '  pilot: 2',
      '  workflow: big-change.yml',
      ''
    ].join('\n');
    const config = parse({ fanout: 'plan', fanout_max_total_usd: '9' }, file);
    expect(config.github.fanoutWorkflow).toBe('.github/workflows/big-change.yml');
    expect(config.fanout).toEqual({
      role: 'plan',
      unitSource: { kind: 'command', command: 'git grep -l old -- lib' },
      groupBy: 'folder',
      shardSize: 3,
      totalCapUsd: 9,
      validationCommand: 'npm test',
      validationRetries: 2,
      pilot: 2,
      resumeRunId: undefined,
      land: 'combined'
    });
  });

  it('reads globs and packages from the file', () => {
    const globs = parse(
      { fanout: 'plan', fanout_max_total_usd: '1' },
      'fanout:\n  globs: [src/**/*.ts, lib/*.js]\n'
    );
    expect(globs.fanout).toMatchObject({
      unitSource: { kind: 'globs', patterns: ['src/**/*.ts', 'lib/*.js'] }
    });
    const packages = parse({ fanout: 'plan', fanout_max_total_usd: '1' }, 'fanout:\n  packages: true\n');
    expect(packages.fanout).toMatchObject({ unitSource: { kind: 'packages' } });
  });

  it('needs no API key for the plan and land jobs (they call no model), but does for a shard', () => {
    const noKey = { github_token: 'ghs_test' };
    const given = reader({ ...noKey, ...PLAN });
    expect(parseActionConfig(given, {}).fanout?.role).toBe('plan');
    expect(parseActionConfig(reader({ ...noKey, fanout: 'land' }), {}).fanout?.role).toBe('land');
    expect(() =>
      parseActionConfig(reader({ ...noKey, fanout: 'shard', fanout_shard: 'shard-01' }), {})
    ).toThrow(/No Anthropic API key/);
  });

  it('refuses a role that does not exist', () => {
    expect(problemsOf({ fanout: 'sweep' })).toEqual([
      'fanout must be plan, shard or land (the job\'s role in a fan-out workflow), got "sweep". Leave it out for an ordinary run (docs/fanout.md shows the three jobs).'
    ]);
  });

  it('refuses a shard job without its shard, and a shard id that is none', () => {
    expect(problemsOf({ fanout: 'shard' })).toEqual([
      expect.stringMatching(
        /^A shard job \(fanout: shard\) needs fanout_shard, .*set fanout_shard: \$\{\{ matrix\.shard \}\}/
      )
    ]);
    expect(problemsOf({ fanout: 'shard', fanout_shard: '../x' })).toEqual([
      expect.stringContaining(
        'fanout_shard must be a shard id of the plan\'s matrix, like shard-01, got "../x"'
      )
    ]);
    expect(parse({ fanout: 'shard', fanout_shard: 'shard-07' }).fanout).toEqual({
      role: 'shard',
      shardId: 'shard-07',
      land: 'per-shard'
    });
  });

  it('refuses fanout_shard on the plan and land jobs, and without a role', () => {
    expect(problemsOf({ ...PLAN, fanout_shard: 'shard-01' })).toEqual([
      "fanout_shard is only for a shard job (fanout: shard), and this job's role is plan. Remove fanout_shard from the plan job's with:."
    ]);
    expect(problemsOf({ fanout: 'land', fanout_shard: 'shard-01' })).toEqual([
      expect.stringContaining("this job's role is land. Remove fanout_shard from the land job's with:.")
    ]);
    expect(problemsOf({ fanout_shard: 'shard-01' })).toEqual([
      expect.stringContaining('fanout_shard is set, but fanout is not')
    ]);
  });

  it('refuses plan inputs, a task and a report issue on a shard job', () => {
    expect(
      problemsOf({
        fanout: 'shard',
        fanout_shard: 'shard-01',
        fanout_units: 'ls',
        prompt: 'x',
        report_issue: '4'
      })
    ).toEqual([
      "fanout_units is read by the plan job only (fanout: plan); the shard job takes everything from the plan's manifest. Move fanout_units to the plan job's with:.",
      "prompt is for the plan job: a shard's task comes from the plan's manifest. Remove prompt from the shard job's with:.",
      'report_issue is for the land job: a shard job writes nothing to GitHub. Move it to the land job.'
    ]);
  });

  it("lets the shard and land jobs read the config file's plan keys without complaint", () => {
    const file = 'fanout:\n  units: ls src\n  max_total_usd: 5\n';
    expect(parse({ fanout: 'land' }, file).fanout?.role).toBe('land');
    expect(parse({ fanout: 'shard', fanout_shard: 'shard-01' }, file).fanout?.role).toBe('shard');
  });

  it('needs a cap for a new plan, in the input or the file', () => {
    expect(problemsOf({ fanout: 'plan', fanout_units: 'ls' })).toEqual([
      expect.stringMatching(
        /^A plan job needs a total cap for all shards together: set fanout_max_total_usd .* or fanout\.max_total_usd in the config file/
      )
    ]);
  });

  it('refuses a cap too small for one shard, or for the pilot', () => {
    expect(problemsOf({ ...PLAN, fanout_max_total_usd: '0.01' })).toEqual([
      'fanout_max_total_usd of $0.01 is too small: one shard needs at least $0.05. Raise fanout_max_total_usd.'
    ]);
    expect(problemsOf({ ...PLAN, fanout_max_total_usd: '0.1' }, 'fanout:\n  pilot: 4\n')).toEqual([
      `fanout_max_total_usd of $0.1 is too small: the pilot of 4 shard(s) (fanout.pilot (in ${SOURCE})) needs $0.05 each, $0.20 in all. Raise fanout_max_total_usd.`
    ]);
    expect(problemsOf({ ...PLAN, fanout_max_total_usd: 'lots' })).toEqual([
      'fanout_max_total_usd must be a positive number of USD, e.g. 20, got "lots".'
    ]);
  });

  it('needs the units of a new plan, once', () => {
    expect(problemsOf({ fanout: 'plan', fanout_max_total_usd: '3' })).toEqual([
      expect.stringMatching(/^A plan job needs the units of work: set fanout_units/)
    ]);
    expect(
      problemsOf({ fanout: 'plan', fanout_max_total_usd: '3' }, 'fanout:\n  globs: [a/*]\n  packages: true\n')
    ).toEqual([expect.stringContaining('fanout.globs and fanout.packages are both set')]);
  });

  it('resumes by run id, without units or cap of its own', () => {
    expect(parse({ fanout: 'plan', fanout_resume: '123456' }).fanout).toMatchObject({
      role: 'plan',
      resumeRunId: 123456,
      unitSource: undefined,
      totalCapUsd: undefined
    });
    expect(problemsOf({ ...PLAN, fanout_resume: 'last' })).toEqual([
      expect.stringContaining('fanout_resume must be the run id of an earlier run of this workflow')
    ]);
    expect(problemsOf({ fanout: 'land', fanout_resume: '12' })).toEqual([
      expect.stringContaining('fanout_resume is read by the plan job only')
    ]);
  });

  it('names a bad file key where it was set', () => {
    expect(problemsOf(PLAN, 'fanout:\n  workflow: ../x.yml\n')).toEqual([
      `fanout.workflow (in ${SOURCE}) names the fan-out workflow file in .github/workflows/ (e.g. fanout.yml), got "../x.yml".`
    ]);
    expect(problemsOf(PLAN, 'fanout:\n  validate_retries: 11\n')).toEqual([
      `fanout.validate_retries (in ${SOURCE}) must be a whole number from 0 to 10, got "11".`
    ]);
  });
});
