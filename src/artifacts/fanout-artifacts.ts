import { ArtifactNotFoundError, DefaultArtifactClient, type FindOptions } from '@actions/artifact';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { UploadedArtifact } from './transcript-artifact.js';

/**
 * The artifacts a fan-out workflow's jobs hand each other (docs/fanout.md): the plan job's
 * manifest, one result per shard job, and the land job's full roll-up. Names are fixed so every job
 * finds the others' without being told; a shard's carries its id, so matrix jobs never collide.
 */
export const FANOUT_PLAN_ARTIFACT = 'compact-agent-fanout-plan';
export const FANOUT_ROLLUP_ARTIFACT = 'compact-agent-fanout-rollup';
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
 * An earlier workflow run to read from (a resume). `@actions/artifact` reads another run's
 * artifacts through the REST API with `findBy` {token, workflowRunId, repositoryOwner,
 * repositoryName}, which needs `actions: read` ("Downloading artifacts from other workflow runs or
 * repositories", https://github.com/actions/toolkit/tree/main/packages/artifact, read 2026-11-28).
 * The caller has checked first that the run is a run of this workflow in this repository.
 */
export interface EarlierRun {
  readonly token: string;
  readonly runId: number;
  readonly owner: string;
  readonly repo: string;
}

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
    const find = findOptions(from);
    let id: number;
    try {
      id = (await this.client.getArtifact(name, find)).artifact.id;
    } catch (error) {
      if (error instanceof ArtifactNotFoundError) return false;
      throw error;
    }
    await this.client.downloadArtifact(id, { path: dir, ...find });
    return true;
  }

  async names(from?: EarlierRun): Promise<string[]> {
    const { artifacts } = await this.client.listArtifacts({ latest: true, ...findOptions(from) });
    return artifacts.map((artifact) => artifact.name);
  }
}

function findOptions(from: EarlierRun | undefined): FindOptions {
  return from
    ? {
        findBy: {
          token: from.token,
          workflowRunId: from.runId,
          repositoryOwner: from.owner,
          repositoryName: from.repo
        }
      }
    : {};
}
