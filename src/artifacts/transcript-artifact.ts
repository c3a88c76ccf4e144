import { DefaultArtifactClient } from '@actions/artifact';
import { readdir } from 'node:fs/promises';
import path from 'node:path';

export interface UploadedArtifact {
  readonly id: number;
  readonly size: number;
}

/**
 * The artifact boundary: uploads a folder as one workflow artifact; with `files`, exactly those
 * files in it (what the action staged), not whatever else the folder holds by then.
 */
export interface ArtifactUploader {
  upload(
    name: string,
    rootDir: string,
    retentionDays: number | undefined,
    files?: readonly string[]
  ): Promise<UploadedArtifact>;
}

export class ActionsArtifactUploader implements ArtifactUploader {
  async upload(
    name: string,
    rootDir: string,
    retentionDays: number | undefined,
    only?: readonly string[]
  ): Promise<UploadedArtifact> {
    const files = only ? [...only] : await listFiles(rootDir);
    if (files.length === 0) throw new Error(`nothing to upload in ${rootDir}`);
    const client = new DefaultArtifactClient();
    const result = await client.uploadArtifact(name, files, rootDir, retentionDays ? { retentionDays } : {});
    if (result.id === undefined) throw new Error('the artifact service returned no artifact id');
    return { id: result.id, size: result.size ?? 0 };
  }
}

/** The artifact's name: one per run attempt, so a re-run never collides with the first. */
export function transcriptArtifactName(runId: string, attempt: string): string {
  return `agent-transcripts-${runId}-${attempt}`;
}

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
}
