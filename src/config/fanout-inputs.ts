import { MIN_SHARD_BUDGET_USD } from '../fanout/budget.js';
import type { UnitSource } from '../fanout/unit-source.js';
import { parseBooleanInput } from './boolean-input.js';
import type { InputNaming, InputReader } from './inputs.js';

/** The three jobs of a fan-out workflow (docs/fanout.md): list and split, run one shard, land them all. */
export const FANOUT_ROLES = ['plan', 'shard', 'land'] as const;
export type FanoutRole = (typeof FANOUT_ROLES)[number];

export const FANOUT_GROUPINGS = ['count', 'folder', 'size', 'owner'] as const;
export const FANOUT_LAND_POLICIES = ['per-shard', 'combined', 'per-owner'] as const;

/** What the plan job needs to make a new plan (a resume takes them from the earlier plan instead). */
export interface FanoutPlanSettings {
  /** Undefined when no source is set: a new plan then fails, with what to set; a resume needs none. */
  readonly unitSource: UnitSource | undefined;
  readonly groupBy: (typeof FANOUT_GROUPINGS)[number];
  readonly shardSize: number;
  /** Undefined when neither the input nor the file sets it (a resume keeps the earlier cap then). */
  readonly totalCapUsd: number | undefined;
  readonly validationCommand: string | undefined;
  readonly validationRetries: number;
  readonly pilot: number | undefined;
  /** The workflow run id of an earlier run of this workflow to resume. */
  readonly resumeRunId: number | undefined;
}

/** The `fanout*` inputs and the config file's `fanout:` block, judged once. */
export type FanoutSettings =
  | ({ readonly role: 'plan' } & FanoutPlanSettings & FanoutCommon)
  | ({ readonly role: 'shard'; readonly shardId: string } & FanoutCommon)
  | ({ readonly role: 'land' } & FanoutCommon);

interface FanoutCommon {
  readonly land: (typeof FANOUT_LAND_POLICIES)[number];
}

export const FANOUT_DEFAULTS = {
  group_by: 'count',
  shard_size: 10,
  validate_retries: 1,
  land: 'per-shard',
  workflow: 'fanout.yml'
} as const;

/** A shard id as the plan writes them (manifest.ts checks the same). */
const SHARD_ID = /^shard-\d{2,6}$/;

/** Inputs only a plan job reads: given (in with:, not the file) to a shard or land job they are a mistake. */
const PLAN_ONLY_INPUTS = ['fanout_units', 'fanout_max_total_usd', 'fanout_resume'] as const;

/**
 * Reads the fan-out role and its settings; undefined for an ordinary run (no `fanout` input). Each
 * mistake is one problem naming the input to change in the workflow: a shard job without its shard,
 * a shard id on another role, a plan without a cap (or with one too small for one shard or the pilot),
 * a role that does not exist, plan inputs on a shard or land job, a task or report issue on a shard.
 */
export function readFanoutSettings(
  read: InputReader,
  naming: InputNaming,
  problems: string[]
): FanoutSettings | undefined {
  const name = naming.nameOf;
  const given = (input: string) => read(input).trim() !== '';
  /** Set under the step's with: (not by the config file, whose keys every job reads). */
  const givenAsInput = (input: string) => given(input) && name(input) === input;
  const rawRole = read('fanout').trim();
  if (rawRole === '') {
    // The file's fanout: block is shared by every workflow: an ordinary run still judges its values.
    readPlanSettings(read, name, problems, false);
    oneOf(read, name, 'fanout_land', FANOUT_LAND_POLICIES, FANOUT_DEFAULTS.land, problems);
    for (const input of ['fanout_shard', ...PLAN_ONLY_INPUTS].filter(givenAsInput))
      problems.push(
        `${input} is set, but fanout is not: ${input} belongs to a fan-out job. Add fanout: ` +
          `${input === 'fanout_shard' ? 'shard' : 'plan'} to the step's with:, or remove ${input} (docs/fanout.md).`
      );
    return undefined;
  }
  const role = FANOUT_ROLES.find((candidate) => candidate === rawRole.toLowerCase());
  if (role === undefined) {
    problems.push(
      `fanout must be plan, shard or land (the job's role in a fan-out workflow), got "${rawRole}". ` +
        'Leave it out for an ordinary run (docs/fanout.md shows the three jobs).'
    );
    return undefined;
  }
  const common: FanoutCommon = {
    land: oneOf(read, name, 'fanout_land', FANOUT_LAND_POLICIES, FANOUT_DEFAULTS.land, problems)
  };
  // A shard or land job reads the file's plan keys too (and ignores them), so a bad one is named there as well.
  if (role !== 'plan') readPlanSettings(read, name, problems, false);
  const shard = read('fanout_shard').trim();
  if (role !== 'shard' && shard !== '')
    problems.push(
      `fanout_shard is only for a shard job (fanout: shard), and this job's role is ${role}. ` +
        `Remove fanout_shard from the ${role} job's with:.`
    );
  if (role !== 'plan')
    for (const input of PLAN_ONLY_INPUTS.filter(givenAsInput))
      problems.push(
        `${input} is read by the plan job only (fanout: plan); the ${role} job takes everything from the ` +
          `plan's manifest. Move ${input} to the plan job's with:.`
      );
  if (role === 'shard') {
    for (const input of ['prompt', 'prompt_file', 'report_issue'].filter(givenAsInput))
      problems.push(
        input === 'report_issue'
          ? 'report_issue is for the land job: a shard job writes nothing to GitHub. Move it to the land job.'
          : `${input} is for the plan job: a shard's task comes from the plan's manifest. Remove ${input} from the shard job's with:.`
      );
    if (shard === '') {
      problems.push(
        'A shard job (fanout: shard) needs fanout_shard, the shard it runs: set fanout_shard: ' +
          '${{ matrix.shard }} with the matrix fromJSON(needs.plan.outputs.matrix) (docs/fanout.md).'
      );
      return undefined;
    }
    if (!SHARD_ID.test(shard)) {
      problems.push(
        `fanout_shard must be a shard id of the plan's matrix, like shard-01, got "${shard}". ` +
          'Set fanout_shard: ${{ matrix.shard }}.'
      );
      return undefined;
    }
    return { role, shardId: shard, ...common };
  }
  if (role === 'land') {
    for (const input of ['prompt', 'prompt_file'].filter(givenAsInput))
      problems.push(
        `${input} is for the plan job: the land job lands the plan's shards. Remove ${input} from the land job's with:.`
      );
    return { role, ...common };
  }
  return { role, ...readPlanSettings(read, name, problems, true), ...common };
}

/** `required`: a plan job's, where a missing unit source or cap is a problem; false judges only what is set. */
function readPlanSettings(
  read: InputReader,
  name: (input: string) => string,
  problems: string[],
  required: boolean
): FanoutPlanSettings {
  const resumeRunId = resumeRun(read, name, problems);
  const globs = read('fanout_globs')
    .split('\n')
    .map((glob) => glob.trim())
    .filter(Boolean);
  const command = read('fanout_units').trim();
  const packages = parseBooleanInput(read('fanout_packages'), name('fanout_packages'), false, problems);
  // The input fanout_units wins over the file's units, globs and packages: one source per plan.
  const unitSource: UnitSource | undefined =
    command !== ''
      ? { kind: 'command', command }
      : globs.length > 0
        ? packages
          ? sourceConflict(name, problems)
          : { kind: 'globs', patterns: globs }
        : packages
          ? { kind: 'packages' }
          : undefined;
  if (required && unitSource === undefined && resumeRunId === undefined && !problems.some(isSourceConflict))
    problems.push(
      'A plan job needs the units of work: set fanout_units (a command printing one path per line, e.g. ' +
        '`git grep -l oldApi -- src`), or fanout.units, fanout.globs or fanout.packages in the config file.'
    );
  const shardSize = positive(read, name, 'fanout_shard_size', problems) ?? FANOUT_DEFAULTS.shard_size;
  const pilot = positive(read, name, 'fanout_pilot', problems);
  const totalCapUsd = totalCap(read, name, pilot, !required || resumeRunId !== undefined, problems);
  const retries = read('fanout_validate_retries').trim();
  const validationRetries = retries === '' ? FANOUT_DEFAULTS.validate_retries : Number(retries);
  if (!Number.isInteger(validationRetries) || validationRetries < 0 || validationRetries > 10)
    problems.push(
      `${name('fanout_validate_retries')} must be a whole number from 0 to 10, got "${retries}".`
    );
  return {
    unitSource,
    groupBy: oneOf(read, name, 'fanout_group_by', FANOUT_GROUPINGS, FANOUT_DEFAULTS.group_by, problems),
    shardSize,
    totalCapUsd,
    validationCommand: read('fanout_validate').trim() || undefined,
    validationRetries: Number.isInteger(validationRetries) ? validationRetries : 1,
    pilot,
    resumeRunId
  };
}

const SOURCE_CONFLICT = 'fanout.globs and fanout.packages are both set';
const isSourceConflict = (problem: string) => problem.startsWith(SOURCE_CONFLICT);

function sourceConflict(name: (input: string) => string, problems: string[]): undefined {
  problems.push(
    `${SOURCE_CONFLICT} (${name('fanout_globs')}, ${name('fanout_packages')}): a plan lists its units one way. ` +
      'Keep one of them.'
  );
  return undefined;
}

/** The cap is required for a new plan, and must fund at least one shard (and each pilot shard). */
function totalCap(
  read: InputReader,
  name: (input: string) => string,
  pilot: number | undefined,
  resume: boolean,
  problems: string[]
): number | undefined {
  const raw = read('fanout_max_total_usd').trim();
  if (raw === '') {
    if (!resume)
      problems.push(
        'A plan job needs a total cap for all shards together: set fanout_max_total_usd (USD, e.g. ' +
          '${{ inputs.max_total_usd }}) or fanout.max_total_usd in the config file. Each shard gets its share in advance.'
      );
    return undefined;
  }
  const cap = Number(raw);
  if (!Number.isFinite(cap) || cap <= 0) {
    problems.push(`${name('fanout_max_total_usd')} must be a positive number of USD, e.g. 20, got "${raw}".`);
    return undefined;
  }
  const needed = Math.max(1, pilot ?? 0) * MIN_SHARD_BUDGET_USD;
  if (cap < needed) {
    problems.push(
      `${name('fanout_max_total_usd')} of $${cap} is too small: ` +
        (pilot
          ? `the pilot of ${pilot} shard(s) (${name('fanout_pilot')}) needs $${MIN_SHARD_BUDGET_USD.toFixed(2)} each, $${needed.toFixed(2)} in all.`
          : `one shard needs at least $${MIN_SHARD_BUDGET_USD.toFixed(2)}.`) +
        ` Raise ${name('fanout_max_total_usd')}.`
    );
    return undefined;
  }
  return cap;
}

function resumeRun(
  read: InputReader,
  name: (input: string) => string,
  problems: string[]
): number | undefined {
  const raw = read('fanout_resume').trim();
  if (raw === '') return undefined;
  const id = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(id) || id <= 0) {
    problems.push(
      `${name('fanout_resume')} must be the run id of an earlier run of this workflow (the number in its URL, ` +
        `.../actions/runs/<id>), got "${raw}". Leave it empty for a new fan-out.`
    );
    return undefined;
  }
  return id;
}

/** The config file's `fanout.workflow`: the fan-out workflow `/agent fanout` dispatches, as its path. */
export function readFanoutWorkflow(
  read: InputReader,
  name: (input: string) => string,
  problems: string[]
): string {
  const raw = read('fanout_workflow').trim() || FANOUT_DEFAULTS.workflow;
  const file = raw.replace(/^\.github\/workflows\//, '');
  if (!/^[A-Za-z0-9_-][A-Za-z0-9._-]*\.ya?ml$/.test(file))
    problems.push(
      `${name('fanout_workflow')} names the fan-out workflow file in .github/workflows/ (e.g. fanout.yml), got "${raw}".`
    );
  return `.github/workflows/${file}`;
}

function positive(
  read: InputReader,
  name: (input: string) => string,
  input: string,
  problems: string[]
): number | undefined {
  const raw = read(input).trim();
  if (raw === '') return undefined;
  const value = Number(raw);
  if (Number.isInteger(value) && value >= 1) return value;
  problems.push(`${name(input)} must be a whole number of at least 1, got "${raw}".`);
  return undefined;
}

function oneOf<const T extends string>(
  read: InputReader,
  name: (input: string) => string,
  input: string,
  allowed: readonly T[],
  fallback: T,
  problems: string[]
): T {
  const raw = read(input).trim();
  if (raw === '') return fallback;
  const found = allowed.find((option) => option === raw);
  if (found !== undefined) return found;
  problems.push(`${name(input)} must be one of ${allowed.join(', ')}, got "${raw}".`);
  return fallback;
}
