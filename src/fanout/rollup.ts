import { withoutControls } from '../github/markdown/outbound-neutralize.js';
import type { LandPolicy, ShardLanding } from './land.js';
import type { FanoutManifest } from './manifest.js';
import type { ShardResult } from './shard-result.js';

/** Where each shard stands after a fan-out (or a resume). */
export type RollupStatus =
  'landed' | 'empty' | 'conflict' | 'rejected' | 'failed' | 'over-budget' | 'unstarted';

/** The statuses a resume runs again; everything else is finished. */
const UNFINISHED: ReadonlySet<RollupStatus> = new Set([
  'conflict',
  'rejected',
  'failed',
  'over-budget',
  'unstarted'
]);

export interface RollupRow {
  readonly shardId: string;
  readonly units: number;
  readonly status: RollupStatus;
  readonly costUsd: number;
  readonly budgetUsd: number;
  readonly files: number;
  /** Edits the scope guard refused (put back, never landed). */
  readonly refused: number;
  readonly validation: string | undefined;
  readonly branch: string | undefined;
  readonly reason: string | undefined;
}

export interface Rollup {
  readonly planId: string;
  readonly stateDir: string;
  readonly prompt: string;
  readonly base: string;
  readonly policy: LandPolicy;
  readonly rows: readonly RollupRow[];
  /** Every agent run's cost so far, failed and earlier attempts included. */
  readonly spentUsd: number;
  readonly capUsd: number;
  readonly unitsBefore: number;
  /** The unit listing re-run on the landed change; undefined when that scan failed. */
  readonly unitsAfter: number | undefined;
  readonly combinedBranch: string | undefined;
  /** Some shard is not finished: the command exits 1 and a resume has work. */
  readonly unfinished: boolean;
}

export interface RollupParts {
  readonly manifest: FanoutManifest;
  readonly stateDir: string;
  readonly base: string;
  readonly policy: LandPolicy;
  readonly results: ReadonlyMap<string, ShardResult>;
  /** Results that could not be trusted, with why. */
  readonly problems: ReadonlyMap<string, string>;
  readonly landings: readonly ShardLanding[];
  readonly spentUsd: number;
  readonly unitsAfter: number | undefined;
  readonly combinedBranch: string | undefined;
}

export function buildRollup(parts: RollupParts): Rollup {
  const landingOf = new Map(parts.landings.map((landing) => [landing.shardId, landing]));
  const rows = parts.manifest.shards.map((shard): RollupRow => {
    const result = parts.results.get(shard.id);
    const landing = landingOf.get(shard.id);
    const problem = parts.problems.get(shard.id);
    const status: RollupStatus = problem
      ? 'rejected'
      : !result
        ? 'unstarted'
        : result.status !== 'done'
          ? result.status
          : (landing?.status ?? 'failed');
    const reason =
      problem ??
      (landing && 'reason' in landing ? landing.reason : undefined) ??
      (result && result.status !== 'done' ? (result.error ?? result.stopReason) : undefined);
    return {
      shardId: shard.id,
      units: shard.paths.length,
      status,
      costUsd: result?.costUsd ?? 0,
      budgetUsd: result?.budgetUsd ?? shard.budgetUsd,
      files: result?.files.length ?? 0,
      refused: result?.refusedPaths.length ?? 0,
      validation: result?.validation
        ? `${result.validation.passed ? 'passed' : 'failed'} (${result.validation.attempts} run${result.validation.attempts === 1 ? '' : 's'})`
        : undefined,
      branch: landing?.status === 'landed' ? landing.branch : undefined,
      reason
    };
  });
  return {
    planId: parts.manifest.planId,
    stateDir: parts.stateDir,
    prompt: parts.manifest.prompt,
    base: parts.base,
    policy: parts.policy,
    rows,
    spentUsd: parts.spentUsd,
    capUsd: parts.manifest.totalCapUsd,
    unitsBefore: parts.manifest.unitsBefore,
    unitsAfter: parts.unitsAfter,
    combinedBranch: parts.combinedBranch,
    unfinished: rows.some((row) => UNFINISHED.has(row.status))
  };
}

/** The roll-up as a plain-text table for a terminal. */
export function formatRollup(rollup: Rollup): string {
  const header = [
    'shard',
    'units',
    'status',
    'cost',
    'budget',
    'files',
    'refused',
    'validation',
    'branch / reason'
  ];
  // Agent-written text (a shard's reason, the prompt) goes to the job's log: no control characters.
  const rows = rollup.rows.map((row) =>
    [
      row.shardId,
      String(row.units),
      row.status,
      `$${row.costUsd.toFixed(4)}`,
      `$${row.budgetUsd.toFixed(2)}`,
      String(row.files),
      String(row.refused),
      row.validation ?? '-',
      row.branch ?? row.reason?.split('\n')[0]?.slice(0, 120) ?? '-'
    ].map(withoutControls)
  );
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => row[column]!.length))
  );
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, column) => (column === cells.length - 1 ? cell : cell.padEnd(widths[column]!)))
      .join('  ');
  const counts = new Map<RollupStatus, number>();
  for (const row of rollup.rows) counts.set(row.status, (counts.get(row.status) ?? 0) + 1);
  const percent = rollup.capUsd > 0 ? ((rollup.spentUsd / rollup.capUsd) * 100).toFixed(1) : '0';
  return [
    `Fan-out ${rollup.planId} on ${rollup.base.slice(0, 12)}: ${rollup.prompt.split('\n')[0]!.slice(0, 100)}`,
    '',
    line(header),
    ...rows.map(line),
    '',
    `shards: ${[...counts].map(([status, count]) => `${count} ${status}`).join(', ')}`,
    `cost: $${rollup.spentUsd.toFixed(4)} of the $${rollup.capUsd.toFixed(2)} cap (${percent}%), ` +
      `$${Math.max(0, rollup.capUsd - rollup.spentUsd).toFixed(4)} left`,
    `burndown: ${rollup.unitsBefore} unit(s) before, ` +
      `${rollup.unitsAfter === undefined ? 'unknown (the re-scan failed)' : rollup.unitsAfter} after the landed change (re-scan)`,
    rollup.combinedBranch
      ? `landed: combined into ${rollup.combinedBranch} (local, nothing pushed)`
      : `landed: one local branch per ${rollup.policy === 'per-owner' ? 'owner group' : 'shard'} (nothing pushed)`,
    ...(rollup.unfinished
      ? [`unfinished shards: resume with --resume ${rollup.stateDir}`]
      : [`every shard is finished; the fan-out's folder is ${rollup.stateDir}`]),
    ''
  ]
    .map(withoutControls)
    .join('\n');
}
