import { readdirSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { readRegularFile, UnreadableFileError } from '../files/bounded-file.js';
import { appendToRegularFile, makeRealFolders, writeRegularFile } from '../security/safe-file.js';
import { isStrictlyInside } from '../files/path-inside.js';
import { errorMessage } from '../errors/error-message.js';
import { FanoutInputError } from './fanout-error.js';
import { lockFanoutFolder } from './fanout-lock.js';
import { parseManifest, type FanoutManifest, type ManifestOrigin } from './manifest.js';
import { shardResultSchema, type ShardResult } from './shard-result.js';
import type { ShardLanding } from './land.js';

/**
 * A fan-out's folder: everything a resume needs, nothing it must guess.
 *   manifest.json        the plan (written once)
 *   results/<shard>.json each shard's last result (a re-run replaces it)
 *   ledger.jsonl         one line per agent run with its cost: the spend, failed runs included
 *   landing.json         what the last landing did with each shard
 *   transcripts/<run>/   every agent run's transcript
 *   lock                 while a run uses the folder (see fanout-lock.ts)
 */
export class FanoutState {
  /**
   * `repoDir`: when the folder lies inside the repository (the default `.transcripts/fanout-<plan>`),
   * every folder from the repository's root down is checked as it is made, so no link on the way
   * sends the files elsewhere; a folder outside it is the person's own choice (`--state`).
   */
  constructor(
    readonly dir: string,
    repoDir: string
  ) {
    this.within = isStrictlyInside(path.resolve(dir), path.resolve(repoDir))
      ? path.resolve(repoDir)
      : path.dirname(path.resolve(dir));
  }

  private readonly within: string;

  get transcriptsDir(): string {
    return path.join(this.dir, 'transcripts');
  }

  private file(...parts: string[]): string {
    return path.join(this.dir, ...parts);
  }

  private write(relative: string, text: string): void {
    const target = this.file(relative);
    makeRealFolders(target, this.within);
    writeRegularFile(target, text, { within: this.within });
  }

  /** Takes the folder for this run (made if need be); the function returned gives it back. */
  lock(): () => void {
    const lockFile = this.file('lock');
    makeRealFolders(lockFile, this.within);
    return lockFanoutFolder(lockFile, this.dir);
  }

  writeManifest(manifest: FanoutManifest): void {
    this.write('manifest.json', `${JSON.stringify(manifest, null, 2)}\n`);
  }

  async readManifest(expected: ManifestOrigin): Promise<FanoutManifest> {
    const file = this.file('manifest.json');
    const text = await readRegularFile(file, 50_000_000).catch((error: unknown) => {
      throw new FanoutInputError(
        `${this.dir} holds no readable fan-out manifest (${errorMessage(error)}). Give --resume the folder ` +
          'an earlier `compact-agent fanout` printed.'
      );
    });
    return parseManifest(text.toString('utf8'), file, expected);
  }

  writeResult(result: ShardResult): void {
    this.write(path.join('results', `${result.shardId}.json`), `${JSON.stringify(result, null, 2)}\n`);
  }

  /** Each shard's last result; one that does not parse is reported as a problem, not trusted. */
  async readResults(): Promise<{ results: Map<string, ShardResult>; problems: Map<string, string> }> {
    const results = new Map<string, ShardResult>();
    const problems = new Map<string, string>();
    let names: string[];
    try {
      names = readdirSync(this.file('results')).filter((name) => name.endsWith('.json'));
    } catch {
      return { results, problems };
    }
    for (const name of names.sort()) {
      const shardId = name.slice(0, -'.json'.length);
      try {
        const text = await readRegularFile(this.file('results', name), 60_000_000);
        const parsed = shardResultSchema.parse(JSON.parse(text.toString('utf8')));
        if (parsed.shardId !== shardId) throw new Error(`it is ${parsed.shardId}'s result`);
        results.set(shardId, parsed);
      } catch (error) {
        problems.set(shardId, `its result file is not valid (${errorMessage(error).slice(0, 300)})`);
      }
    }
    return { results, problems };
  }

  /** One agent run's cost, and the budget its shard's attempt was given (a resume checks results against it). */
  recordSpend(shardId: string, costUsd: number, runDir: string, budgetUsd: number): void {
    const ledger = this.file('ledger.jsonl');
    makeRealFolders(ledger, this.within);
    appendToRegularFile(ledger, `${JSON.stringify({ shardId, costUsd, runDir, budgetUsd })}\n`, {
      within: this.within
    });
  }

  /**
   * What was spent so far: per shard, the ledger's sum of its runs, and never less than its result's
   * cost (a ledger lost or cut short must not read as money not spent). A ledger that exists but
   * cannot be read or parsed stops the run: its spend is unknown.
   */
  async spentUsd(results: ReadonlyMap<string, Pick<ShardResult, 'costUsd'>> = new Map()): Promise<number> {
    const byShard = new Map<string, number>();
    for (const line of await this.ledgerLines())
      byShard.set(line.shardId, (byShard.get(line.shardId) ?? 0) + line.costUsd);
    for (const [shardId, result] of results)
      byShard.set(shardId, Math.max(byShard.get(shardId) ?? 0, result.costUsd));
    return [...byShard.values()].reduce((sum, cost) => sum + cost, 0);
  }

  /** The largest budget the ledger says each shard's attempts were given. */
  async grantedBudgets(): Promise<Map<string, number>> {
    const granted = new Map<string, number>();
    for (const line of await this.ledgerLines())
      if (line.budgetUsd !== undefined)
        granted.set(line.shardId, Math.max(granted.get(line.shardId) ?? 0, line.budgetUsd));
    return granted;
  }

  private async ledgerLines(): Promise<LedgerLine[]> {
    const file = this.file('ledger.jsonl');
    let text: string;
    try {
      text = (await readRegularFile(file, 50_000_000)).toString('utf8');
    } catch (error) {
      if (error instanceof UnreadableFileError && error.kind === 'missing') return [];
      throw new FanoutInputError(
        `${file} cannot be read (${errorMessage(error)}), so what this fan-out spent is unknown. Restore ` +
          'the file (or make it readable), or start a new fan-out.'
      );
    }
    const lines: LedgerLine[] = [];
    for (const [index, line] of text.split('\n').entries()) {
      if (line.trim() === '') continue;
      const parsed = ledgerLineSchema.safeParse(safeJson(line));
      if (!parsed.success)
        throw new FanoutInputError(
          `${file}, line ${index + 1}, is not a spend record, so what was spent is unknown. ` +
            'Start a new fan-out, or restore the file.'
        );
      lines.push(parsed.data);
    }
    return lines;
  }

  writeLanding(landings: readonly ShardLanding[]): void {
    this.write('landing.json', `${JSON.stringify({ shards: landings }, null, 2)}\n`);
  }

  /** The shards the last landing left as conflict or rejected: a resume runs them again. */
  async unlandable(): Promise<Set<string>> {
    try {
      const text = (await readRegularFile(this.file('landing.json'), 50_000_000)).toString('utf8');
      const parsed = landingFileSchema.parse(JSON.parse(text));
      return new Set(
        parsed.shards
          .filter((entry) => entry.status === 'conflict' || entry.status === 'rejected')
          .map((entry) => entry.shardId)
      );
    } catch {
      return new Set();
    }
  }
}

const ledgerLineSchema = z.object({
  shardId: z.string(),
  costUsd: z.number().nonnegative().finite(),
  runDir: z.string(),
  /** Absent in ledgers written before it was recorded. */
  budgetUsd: z.number().positive().finite().optional()
});
type LedgerLine = z.infer<typeof ledgerLineSchema>;

const landingFileSchema = z.object({
  shards: z.array(z.object({ shardId: z.string(), status: z.string() }))
});

function safeJson(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}
