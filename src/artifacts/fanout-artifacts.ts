import { ArtifactNotFoundError, DefaultArtifactClient } from '@actions/artifact';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { unzip } from '../audit/zip-reader.js';
import { ROLLUP_ARTIFACT_NAME } from '../fanout/rollup-markdown.js';
import type { RunArtifactDownloads } from '../github/api/workflow-runs.js';
import type { UploadedArtifact } from './transcript-artifact.js';

/**
 * The artifacts a fan-out workflow's jobs hand each other (docs/fanout.md): the plan job's
 * manifest, one result per shard job, and the land job's full roll-up. Names are fixed so every job
 * finds the others' without being told; a shard's carries its id, so matrix jobs never collide.
 */
export const FANOUT_PLAN_ARTIFACT = 'compact-agent-fanout-plan';
export const FANOUT_ROLLUP_ARTIFACT = ROLLUP_ARTIFACT_NAME;
const SHARD_ARTIFACT_PREFIX = 'compact-agent-fanout-';

export function shardArtifactName(shardId: string): string {
  return `${SHARD_ARTIFACT_PREFIX}${shardId}`;
}

/** The shard id of a shard's artifact name; undefined for the plan's, the roll-up's or any other. */
export function shardIdOfArtifact(name: string): string | undefined {
  const rest = name.startsWith(SHARD_ARTIFACT_PREFIX) ? name.slice(SHARD_ARTIFACT_PREFIX.length) : '';
  return /^shard-\d{2,6}$/.test(rest) ? rest : undefined;
}

/**
 * An earlier workflow run to read from (a resume), read through our own REST client: "List workflow
 * run artifacts" and "Download an artifact" (https://docs.github.com/en/rest/actions/artifacts, read
 * 2026-11-28; the token needs `actions: read`), the same routes `@actions/artifact`'s `findBy` takes.
 * Not `findBy` itself: its client takes GitHub's API address from GITHUB_API_URL when the bundle
 * loads, and the action loads before its environment is back (src/security/sealed-env.ts), so it
 * would always ask api.github.com, wrong on GitHub Enterprise Server. The caller has checked first
 * that the run is a run of this workflow in this repository.
 */
export interface EarlierRun {
  readonly runId: number;
  readonly reads: RunArtifactDownloads;
}

/** The most of an earlier run's artifact read: a plan or a shard's result with its patch and transcripts. */
const MAX_EARLIER_ARTIFACT_BYTES = 256 * 1024 * 1024;

/** The artifact boundary of a fan-out: the current run's artifacts, or an earlier run's. */
export interface FanoutArtifacts {
  /** Uploads exactly the files under `rootDir` (every regular file in it). */
  upload(name: string, rootDir: string): Promise<UploadedArtifact>;
  /** Downloads the artifact into `dir`; false when the run has no artifact of that name. */
  download(name: string, dir: string, from?: EarlierRun): Promise<boolean>;
  /** The names of the run's artifacts (the latest of each name). */
  names(from?: EarlierRun): Promise<string[]>;
}

/** Through `@actions/artifact` (ACTIONS_RUNTIME_TOKEN for this run, `findBy` for an earlier one). */
export class ActionsFanoutArtifacts implements FanoutArtifacts {
  private readonly client = new DefaultArtifactClient();

  async upload(name: string, rootDir: string): Promise<UploadedArtifact> {
    const entries = await readdir(rootDir, { withFileTypes: true, recursive: true });
    const files = entries
      .filter((entry) => entry.isFile())
      .map((entry) => path.join(entry.parentPath, entry.name));
    if (files.length === 0) throw new Error(`nothing to upload in ${rootDir}`);
    const result = await this.client.uploadArtifact(name, files, rootDir);
    if (result.id === undefined) throw new Error('the artifact service returned no artifact id');
    return { id: result.id, size: result.size ?? 0 };
  }

  async download(name: string, dir: string, from?: EarlierRun): Promise<boolean> {
    if (from) return downloadEarlier(name, dir, from);
    let id: number;
    try {
      id = (await this.client.getArtifact(name)).artifact.id;
    } catch (error) {
      if (error instanceof ArtifactNotFoundError) return false;
      throw error;
    }
    await this.client.downloadArtifact(id, { path: dir });
    return true;
  }

  async names(from?: EarlierRun): Promise<string[]> {
    if (from) return (await from.reads.allRunArtifacts(from.runId)).map((artifact) => artifact.name);
    const { artifacts } = await this.client.listArtifacts({ latest: true });
    return artifacts.map((artifact) => artifact.name);
  }
}

/** The newest artifact of that name of the earlier run, unzipped into `dir`: plain relative paths only. */
async function downloadEarlier(name: string, dir: string, from: EarlierRun): Promise<boolean> {
  const matching = (await from.reads.allRunArtifacts(from.runId)).filter(
    (artifact) => artifact.name === name
  );
  const newest = matching.sort((a, b) => b.id - a.id)[0];
  if (newest === undefined) return false;
  const files = unzip(await from.reads.downloadArtifactZip(newest.id, MAX_EARLIER_ARTIFACT_BYTES));
  for (const [entry, bytes] of files) {
    if (entry.endsWith('/')) continue;
    const parts = entry.split('/');
    if (entry.startsWith('/') || parts.some((part) => part === '' || part === '.' || part === '..'))
      throw new Error(
        `the artifact ${name} of run ${from.runId} holds a path that is not a plain relative one: ${entry.slice(0, 200)}`
      );
    const target = path.join(dir, ...parts);
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, bytes, { flag: 'wx' });
  }
  return true;
}
