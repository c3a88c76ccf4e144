import { readdirSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { readRegularFile } from '../files/bounded-file.js';
import { appendToRegularFile, makeRealFolders, writeRegularFile } from '../security/safe-file.js';
import { isStrictlyInside } from '../files/path-inside.js';
import { errorMessage } from '../errors/error-message.js';
import { FanoutInputError } from './fanout-error.js';
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

  recordSpend(shardId: string, costUsd: number, runDir: string): void {
    const ledger = this.file('ledger.jsonl');
    makeRealFolders(ledger, this.within);
    appendToRegularFile(ledger, `${JSON.stringify({ shardId, costUsd, runDir })}\n`, { within: this.within });
  }

  /** The sum of every agent run's cost so far. A ledger that does not parse stops a resume: its spend is unknown. */
  async spentUsd(): Promise<number> {
    let text: string;
    try {
      text = (await readRegularFile(this.file('ledger.jsonl'), 50_000_000)).toString('utf8');
    } catch {
      return 0;
    }
    let sum = 0;
    for (const [index, line] of text.split('\n').entries()) {
      if (line.trim() === '') continue;
      const parsed = ledgerLineSchema.safeParse(safeJson(line));
      if (!parsed.success)
        throw new FanoutInputError(
          `${this.file('ledger.jsonl')}, line ${index + 1}, is not a spend record, so what was spent is unknown. ` +
            'Start a new fan-out, or restore the file.'
        );
      sum += parsed.data.costUsd;
    }
    return sum;
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
  runDir: z.string()
});

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
