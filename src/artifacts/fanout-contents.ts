import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { errorMessage } from '../errors/error-message.js';
import { readRegularFile, UnreadableFileError } from '../files/bounded-file.js';
import { FanoutInputError } from '../fanout/fanout-error.js';
import { parseManifest, type FanoutManifest, type ManifestOrigin } from '../fanout/manifest.js';
import { resultCostProblem, type ShardTranscript } from '../fanout/result-cost.js';
import { resultProblem, shardResultSchema, type ShardResult } from '../fanout/shard-result.js';
import { TRANSCRIPT_FILE } from '../transcript/writer.js';
import {
  FANOUT_PLAN_ARTIFACT,
  shardArtifactName,
  shardIdOfArtifact,
  type EarlierRun,
  type FanoutArtifacts
} from './fanout-artifacts.js';

/**
 * What the fan-out's artifacts hold, written and read here, and checked where they enter: the plan
 * (manifest.json against this repository and workflow, carried/<shard>.json and ledger.jsonl), and
 * each shard's result.json with its transcripts/<run>/ (the result's shape, its scope and budget,
 * and its cost against its transcripts). A job of the same run wrote them, but a shard job ran an
 * agent that could run any command: nothing in them is trusted before it is checked.
 */

/** One line of ledger.jsonl: an agent run's cost, failed runs and earlier runs of the workflow included. */
export interface SpendLine {
  readonly shardId: string;
  readonly costUsd: number;
  /** Where the run was: a run folder, or `run <id>` for a shard of an earlier workflow run. */
  readonly runDir: string;
}

const spendLineSchema = z.object({
  shardId: z.string().max(100),
  costUsd: z.number().nonnegative().finite(),
  runDir: z.string().max(4096)
});

export interface PlanContents {
  readonly manifest: FanoutManifest;
  /** Finished results of an earlier run this plan resumed, landed again by this run's land job. */
  readonly carried: ReadonlyMap<string, ShardResult>;
  /** What was spent before this run's shards (earlier runs of a resumed fan-out). */
  readonly ledger: readonly SpendLine[];
}

/** The largest file read from an artifact: a manifest or a result with its patch (schema bounds it too). */
const MAX_ARTIFACT_FILE_BYTES = 60_000_000;

export async function uploadPlan(
  store: FanoutArtifacts,
  plan: PlanContents,
  scratch: string
): Promise<number> {
  const dir = await mkdtemp(path.join(scratch, 'fanout-plan-'));
  try {
    await writeFile(path.join(dir, 'manifest.json'), `${JSON.stringify(plan.manifest, null, 2)}\n`);
    await writeFile(
      path.join(dir, 'ledger.jsonl'),
      plan.ledger.map((line) => `${JSON.stringify(line)}\n`).join('')
    );
    if (plan.carried.size > 0) {
      await mkdir(path.join(dir, 'carried'));
      for (const [shardId, result] of plan.carried)
        await writeFile(path.join(dir, 'carried', `${shardId}.json`), `${JSON.stringify(result)}\n`);
    }
    return (await store.upload(FANOUT_PLAN_ARTIFACT, dir)).id;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * The plan of this run (or of `from`, an earlier run being resumed), checked: the manifest was
 * written for this repository and workflow, every carried result fits its shard, the ledger parses.
 * Undefined when the run has no plan artifact.
 */
export async function readPlan(
  store: FanoutArtifacts,
  origin: ManifestOrigin,
  scratch: string,
  from?: EarlierRun
): Promise<PlanContents | undefined> {
  const dir = await mkdtemp(path.join(scratch, 'fanout-plan-in-'));
  try {
    if (!(await store.download(FANOUT_PLAN_ARTIFACT, dir, from))) return undefined;
    const where = `the artifact ${FANOUT_PLAN_ARTIFACT}${from ? ` of run ${from.runId}` : ''}`;
    const manifestText = await readArtifactFile(dir, 'manifest.json', where);
    if (manifestText === undefined)
      throw new FanoutInputError(`${where} holds no manifest.json. Plan the fan-out again.`);
    const manifest = parseManifest(manifestText, `${where} (manifest.json)`, origin);
    const carried = new Map<string, ShardResult>();
    for (const name of await filesIn(path.join(dir, 'carried'))) {
      const shardId = name.replace(/\.json$/, '');
      const shard = manifest.shards.find((candidate) => candidate.id === shardId);
      const result = parseResult((await readArtifactFile(dir, path.join('carried', name), where))!);
      // A carried result was checked when it was carried; its budget was its own plan's, within the cap.
      const problem =
        typeof result === 'string'
          ? result
          : shard === undefined
            ? `the plan has no shard ${shardId}`
            : resultProblem(result, shard, manifest.planId, manifest.totalCapUsd);
      if (problem !== undefined || typeof result === 'string')
        throw new FanoutInputError(
          `${where}: carried/${name} cannot be used (${problem}). Plan the fan-out again.`
        );
      carried.set(shardId, result);
    }
    const ledger = parseLedger((await readArtifactFile(dir, 'ledger.jsonl', where)) ?? '', where);
    return { manifest, carried, ledger };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The shard job's artifact: its result and the transcripts of its agent runs (`transcripts/<run>/`). */
export async function uploadShardResult(
  store: FanoutArtifacts,
  result: ShardResult,
  transcriptsDir: string,
  scratch: string
): Promise<number> {
  const dir = await mkdtemp(path.join(scratch, `fanout-${result.shardId}-`));
  try {
    await writeFile(path.join(dir, 'result.json'), `${JSON.stringify(result)}\n`);
    // Only each run's transcript: the cost check reads it, and the audit can read it.
    for (const runDir of result.runs) {
      const run = path.basename(runDir);
      const source = path.join(transcriptsDir, run, TRANSCRIPT_FILE);
      const text = await readRegularFile(source, MAX_ARTIFACT_FILE_BYTES).catch(() => undefined);
      if (text === undefined) continue;
      await mkdir(path.join(dir, 'transcripts', run), { recursive: true });
      await writeFile(path.join(dir, 'transcripts', run, TRANSCRIPT_FILE), text);
    }
    return (await store.upload(shardArtifactName(result.shardId), dir)).id;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export interface ShardResults {
  /** The results that passed every check, by shard id. */
  readonly results: Map<string, ShardResult>;
  /** The shards whose artifact could not be trusted, with why (they are `rejected`). */
  readonly problems: Map<string, string>;
  /** What each shard's run cost, rejected ones at their budget (what they may have spent). */
  readonly spent: readonly SpendLine[];
}

/**
 * Every shard result of this run (or of `from`) for the plan's shards, each checked: its shape,
 * that it is this shard's of this plan, in scope and within its budget (`resultProblem`), and that
 * its cost is what its transcripts record (`resultCostProblem`).
 */
export async function readShardResults(
  store: FanoutArtifacts,
  manifest: FanoutManifest,
  scratch: string,
  from?: EarlierRun
): Promise<ShardResults> {
  const results = new Map<string, ShardResult>();
  const problems = new Map<string, string>();
  const spent: SpendLine[] = [];
  const names = new Set(await store.names(from));
  for (const shard of manifest.shards) {
    const name = shardArtifactName(shard.id);
    if (!names.has(name)) continue;
    const dir = await mkdtemp(path.join(scratch, `fanout-${shard.id}-in-`));
    try {
      await store.download(name, dir, from);
      const where = `the artifact ${name}${from ? ` of run ${from.runId}` : ''}`;
      const text = await readArtifactFile(dir, 'result.json', where);
      const result = text === undefined ? `${where} holds no result.json` : parseResult(text);
      const problem =
        typeof result === 'string'
          ? result
          : (resultProblem(result, shard, manifest.planId, shard.budgetUsd) ??
            noRunProblem(result) ??
            resultCostProblem(result, await transcriptsIn(dir)));
      if (problem !== undefined || typeof result === 'string') {
        problems.set(shard.id, problem ?? 'unreadable');
        spent.push({ shardId: shard.id, costUsd: shard.budgetUsd, runDir: where });
      } else {
        results.set(shard.id, result);
        spent.push({ shardId: shard.id, costUsd: result.costUsd, runDir: where });
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
  return { results, problems, spent };
}

/** The shard ids of a run's shard artifacts (a resume: which shards of the earlier run ran at all). */
export async function shardArtifactIds(store: FanoutArtifacts, from?: EarlierRun): Promise<string[]> {
  return (await store.names(from)).flatMap((name) => shardIdOfArtifact(name) ?? []);
}

/**
 * A finished shard ran its agent at least once (runShard starts with a run): a `done` result that
 * names no run, and so has no transcript to check its cost against, was not made by a shard job.
 */
function noRunProblem(result: ShardResult): string | undefined {
  return result.status === 'done' && result.runs.length === 0
    ? 'its result says done but names no agent run, so neither its change nor its cost can be checked'
    : undefined;
}

function parseResult(text: string): ShardResult | string {
  try {
    const parsed = shardResultSchema.safeParse(JSON.parse(text));
    if (parsed.success) return parsed.data;
    const first = parsed.error.issues[0];
    return `its result is not a shard result (${first ? `${first.path.join('.') || 'top'}: ${first.message}` : 'invalid'})`;
  } catch (error) {
    return `its result is not JSON (${errorMessage(error).slice(0, 200)})`;
  }
}

function parseLedger(text: string, where: string): SpendLine[] {
  const lines: SpendLine[] = [];
  for (const [index, line] of text.split('\n').entries()) {
    if (line.trim() === '') continue;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      json = undefined;
    }
    const parsed = spendLineSchema.safeParse(json);
    if (!parsed.success)
      throw new FanoutInputError(
        `${where}: ledger.jsonl line ${index + 1} is not a spend record, so what was spent is unknown. Plan a new fan-out.`
      );
    lines.push(parsed.data);
  }
  return lines;
}

async function transcriptsIn(dir: string): Promise<ShardTranscript[]> {
  const transcripts: ShardTranscript[] = [];
  for (const run of await filesIn(path.join(dir, 'transcripts'), 'folders')) {
    const text = await readArtifactFile(dir, path.join('transcripts', run, TRANSCRIPT_FILE), run);
    if (text !== undefined) transcripts.push({ run, text });
  }
  return transcripts;
}

/** A file of a downloaded artifact, bounded and never through a link; undefined when absent. */
async function readArtifactFile(dir: string, relative: string, where: string): Promise<string | undefined> {
  try {
    return (await readRegularFile(path.join(dir, relative), MAX_ARTIFACT_FILE_BYTES)).toString('utf8');
  } catch (error) {
    if (error instanceof UnreadableFileError && error.kind === 'missing') return undefined;
    throw new FanoutInputError(`${where}: ${relative} cannot be read (${errorMessage(error)}).`);
  }
}

async function filesIn(dir: string, kind: 'files' | 'folders' = 'files'): Promise<string[]> {
  try {
    const entries = await readdir(dir, { withFileTypes: true });
    return entries
      .filter((entry) => (kind === 'files' ? entry.isFile() : entry.isDirectory()))
      .map((entry) => entry.name)
      .sort();
  } catch {
    return [];
  }
}
