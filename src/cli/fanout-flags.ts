import { isOwnerName } from '../fanout/codeowners.js';
import { LAND_POLICIES, type LandPolicy } from '../fanout/land.js';
import type { ShardGrouping } from '../fanout/shards.js';
import type { UnitSource } from '../fanout/unit-source.js';
import type { Invocation } from './command.js';
import { usageError } from './exit-codes.js';

/** The flags of `compact-agent fanout` that are about the fan-out itself (the agent's are run's). */
export const FANOUT_FLAGS = [
  'units',
  'globs',
  'owners',
  'shard-size',
  'group-by',
  'parallel',
  'max-total-usd',
  'land',
  'format',
  'resume',
  'state',
  'validate',
  'validate-retries',
  'pilot'
] as const;

export interface FanoutFlags {
  readonly parallel: number;
  readonly policy: LandPolicy;
  readonly format: 'text' | 'json';
  readonly resume: string | undefined;
  readonly state: string | undefined;
  /** Only for a new fan-out (without --resume): the rest is read from the plan's folder. */
  readonly plan:
    | {
        readonly unitSource: UnitSource;
        readonly grouping: { readonly by: ShardGrouping['by']; readonly size: number };
        readonly totalCapUsd: number;
        readonly validationCommand: string | undefined;
        readonly validationRetries: number;
        readonly pilot: number | undefined;
      }
    | undefined;
}

const SHARD_GROUPINGS: readonly ShardGrouping['by'][] = ['count', 'folder', 'size', 'owner'];

/** The plan's flags: with --resume they come from the plan's folder, and giving them is an error. */
const PLAN_FLAGS = [
  'prompt',
  'prompt-file',
  'units',
  'globs',
  'owners',
  'shard-size',
  'group-by',
  'max-total-usd',
  'validate',
  'validate-retries',
  'pilot',
  'state'
];

export function readFanoutFlags(invocation: Invocation): FanoutFlags {
  const { values, switches } = invocation;
  const common = {
    parallel: positiveInteger(values, 'parallel', 2),
    policy: oneOf(values, 'land', LAND_POLICIES, 'per-shard'),
    format: oneOf(values, 'format', ['text', 'json'] as const, 'text'),
    resume: values.get('resume'),
    state: values.get('state')
  };
  if (common.resume !== undefined) {
    const given = [
      ...PLAN_FLAGS.filter((flag) => values.has(flag)),
      ...(switches.has('packages') ? ['packages'] : [])
    ];
    if (given.length > 0)
      throw usageError(
        `--resume continues the plan saved in ${common.resume}: its prompt, units, cap and validation come ` +
          `from there. Drop ${given.map((flag) => `--${flag}`).join(', ')}, or start a new fan-out without --resume.`
      );
    return { ...common, plan: undefined };
  }
  const sources = [
    values.has('units'),
    values.has('globs'),
    values.has('owners'),
    switches.has('packages')
  ].filter(Boolean).length;
  if (sources !== 1)
    throw usageError(
      'Name the units once: --units "COMMAND" (one path per line, e.g. "git grep -l oldApi -- src"), ' +
        '--globs "src/**/*.ts,lib/**/*.js", --owners "@org/team" (the files CODEOWNERS gives them), ' +
        'or --packages (the workspace packages).'
    );
  const unitSource: UnitSource = values.has('units')
    ? { kind: 'command', command: values.get('units')! }
    : values.has('owners')
      ? { kind: 'owners', owners: ownersFlag(values.get('owners')!) }
      : values.has('globs')
        ? {
            kind: 'globs',
            patterns: values
              .get('globs')!
              .split(',')
              .map((glob) => glob.trim())
              .filter(Boolean)
          }
        : { kind: 'packages' };
  if (unitSource.kind === 'globs' && unitSource.patterns.length === 0)
    throw usageError('--globs needs at least one pattern, e.g. --globs "src/**/*.ts".');
  const cap = values.get('max-total-usd');
  if (cap === undefined)
    throw usageError(
      'A fan-out needs a total cap: --max-total-usd X (USD). Each shard gets its share of it in advance.'
    );
  const totalCapUsd = Number(cap);
  if (!Number.isFinite(totalCapUsd) || totalCapUsd <= 0)
    throw usageError(`--max-total-usd must be a positive number of USD, e.g. 20 (got "${cap}").`);
  const validate = values.get('validate')?.trim();
  const groupBy = oneOf(values, 'group-by', SHARD_GROUPINGS, 'count');
  if (common.policy === 'per-owner' && groupBy !== 'owner')
    throw usageError(
      '--land per-owner lands one branch per CODEOWNERS owner, so the shards must be grouped by owner: ' +
        'add --group-by owner, or land per-shard or combined.'
    );
  return {
    ...common,
    plan: {
      unitSource,
      grouping: {
        by: groupBy,
        size: positiveInteger(values, 'shard-size', 10)
      },
      totalCapUsd,
      validationCommand: validate === '' ? undefined : validate,
      validationRetries: wholeNumber(values, 'validate-retries', 1, 10),
      pilot: values.has('pilot') ? positiveInteger(values, 'pilot', 1) : undefined
    }
  };
}

/** `--owners "@org/web, @alice"`: each written as CODEOWNERS writes an owner. */
function ownersFlag(raw: string): string[] {
  const owners = raw.split(/[\s,]+/).filter(Boolean);
  const bad = owners.find((owner) => !isOwnerName(owner));
  if (owners.length === 0 || bad !== undefined)
    throw usageError(
      `--owners takes code owners as CODEOWNERS names them, @org/team-name, @username or an email address, ` +
        `separated by commas (got "${bad ?? raw}").`
    );
  return owners;
}

function positiveInteger(values: ReadonlyMap<string, string>, flag: string, fallback: number): number {
  const raw = values.get(flag);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1)
    throw usageError(`--${flag} must be a whole number of at least 1 (got "${raw}").`);
  return value;
}

function wholeNumber(
  values: ReadonlyMap<string, string>,
  flag: string,
  fallback: number,
  max: number
): number {
  const raw = values.get(flag);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0 || value > max)
    throw usageError(`--${flag} must be a whole number from 0 to ${max} (got "${raw}").`);
  return value;
}

function oneOf<const T extends string>(
  values: ReadonlyMap<string, string>,
  flag: string,
  allowed: readonly T[],
  fallback: T
): T {
  const raw = values.get(flag);
  if (raw === undefined) return fallback;
  const found = allowed.find((option) => option === raw);
  if (found === undefined) throw usageError(`--${flag} is one of ${allowed.join(', ')} (got "${raw}").`);
  return found;
}
