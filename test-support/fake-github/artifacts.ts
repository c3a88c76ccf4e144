/**
 * The workflow-artifact routes of the fake GitHub: "Get an artifact" and "Download an artifact"
 * (https://docs.github.com/en/rest/actions/artifacts, read 2026-11-23). An artifact comes from a
 * linked fake artifact service (what the action uploaded) or is registered by a test. The download
 * answers 302 to a signed blob URL on the same server, valid one minute like GitHub's; the blob
 * route takes the signature as its only credential and refuses an Authorization header, so a client
 * that forwards its GitHub token to the storage host fails here.
 */
import { randomBytes } from 'node:crypto';
import { fakeSha, nodeId } from './render.js';

/** A zip a test registers as an artifact of a workflow run. */
export interface ArtifactSeed {
  id: number;
  name: string;
  bytes: Buffer;
  workflowRun: { id: number; repositoryId?: number; headRepositoryId?: number };
  createdAt?: string;
  expiresAt?: string;
}

/** What a fake artifact service stored (test-support/fake-artifacts satisfies this). */
export interface ArtifactStore {
  readonly artifacts: ReadonlyArray<{
    readonly id: number;
    readonly name: string;
    readonly bytes: Buffer;
    readonly digest: string;
    readonly createdAt: string;
    readonly expiresAt: string;
    readonly deleted: boolean;
  }>;
}

/**
 * `expired`: past its retention (GET says expired, the download answers 410 as GitHub documents);
 * `other-repository`: uploaded by a run of another repository; `fork-run`: by a pull-request run from
 * a fork (base repository this one, head repository the fork); `missing`: deleted (404 on both).
 */
export type ArtifactFaultKind = 'expired' | 'other-repository' | 'fork-run' | 'missing';

interface ServedArtifact {
  id: number;
  name: string;
  bytes: Buffer;
  digest: string | null;
  createdAt: string;
  expiresAt: string;
  workflowRun: { id: number; repositoryId: number; headRepositoryId: number };
}

export interface ArtifactAnswer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** A binary body (the blob). */
  raw?: Buffer;
}

const DOC_GET = 'https://docs.github.com/rest/actions/artifacts#get-an-artifact';
const DOC_DOWNLOAD = 'https://docs.github.com/rest/actions/artifacts#download-an-artifact';
const SIGNED_URL_LIFETIME_MS = 60_000;
/** A repository id that is not this one's (another repository, or a fork). */
const OTHER_REPOSITORY_OFFSET = 7_000_000;

export class FakeArtifactRoutes {
  private readonly seeded = new Map<number, ServedArtifact>();
  private readonly faults = new Map<number, ArtifactFaultKind>();
  private readonly links: Array<{
    store: ArtifactStore;
    runOf: (artifact: { id: number; name: string }) => number;
  }> = [];
  private readonly signatures = new Map<string, { id: number; expiresAt: number }>();

  constructor(
    private readonly repo: { id: number; owner: string; name: string },
    private readonly clock: () => number
  ) {}

  add(seed: ArtifactSeed): void {
    this.seeded.set(seed.id, {
      id: seed.id,
      name: seed.name,
      bytes: seed.bytes,
      digest: null,
      createdAt: seed.createdAt ?? new Date(this.clock()).toISOString(),
      expiresAt: seed.expiresAt ?? new Date(this.clock() + 90 * 86_400_000).toISOString(),
      workflowRun: {
        id: seed.workflowRun.id,
        repositoryId: seed.workflowRun.repositoryId ?? this.repo.id,
        headRepositoryId: seed.workflowRun.headRepositoryId ?? seed.workflowRun.repositoryId ?? this.repo.id
      }
    });
  }

  /** Serves what `store` finalized, as uploaded by the workflow run `runOf` names, of this repository. */
  link(store: ArtifactStore, runOf: (artifact: { id: number; name: string }) => number): void {
    this.links.push({ store, runOf });
  }

  fault(id: number, kind: ArtifactFaultKind): void {
    this.faults.set(id, kind);
  }

  /** GET /actions/artifacts/{id} */
  get(baseUrl: string, id: number): ArtifactAnswer {
    const artifact = this.find(id);
    if (!artifact) return notFound(DOC_GET);
    return { status: 200, body: this.render(baseUrl, artifact) };
  }

  /**
   * "List workflow run artifacts", GET /actions/runs/{run_id}/artifacts?name=…
   * (https://docs.github.com/en/rest/actions/artifacts#list-workflow-run-artifacts): the artifacts
   * the run uploaded, by its id, of this repository.
   */
  listForRun(baseUrl: string, runId: number, name: string | null): ArtifactAnswer {
    const artifacts = this.all(baseUrl, name, runId);
    return { status: 200, body: { total_count: artifacts.length, artifacts } };
  }

  /** The artifacts of this repository's runs (of one run, with `runId`), rendered, by id. */
  all(baseUrl: string, name: string | null, runId?: number): unknown[] {
    const ids = new Set<number>([...this.seeded.keys()]);
    for (const { store } of this.links) for (const stored of store.artifacts) ids.add(stored.id);
    return [...ids]
      .sort((a, b) => a - b)
      .map((id) => this.find(id))
      .filter(
        (artifact): artifact is ServedArtifact =>
          artifact !== undefined &&
          (runId === undefined || artifact.workflowRun.id === runId) &&
          artifact.workflowRun.repositoryId === this.repo.id &&
          (name === null || artifact.name === name)
      )
      .map((artifact) => this.render(baseUrl, artifact));
  }

  /** GET /actions/artifacts/{id}/{archive_format} */
  download(baseUrl: string, id: number, format: string): ArtifactAnswer {
    const artifact = this.find(id);
    if (!artifact || format !== 'zip') return notFound(DOC_DOWNLOAD);
    if (this.expired(artifact))
      return {
        status: 410,
        body: { message: 'Artifact has expired', documentation_url: DOC_DOWNLOAD, status: '410' }
      };
    const sig = randomBytes(12).toString('hex');
    const expiresAt = this.clock() + SIGNED_URL_LIFETIME_MS;
    this.signatures.set(sig, { id, expiresAt });
    const se = new Date(expiresAt).toISOString();
    return {
      status: 302,
      headers: {
        location: `${baseUrl}/_blob/artifacts/${id}.zip?sig=${sig}&se=${encodeURIComponent(se)}&sp=r&sr=b`
      }
    };
  }

  /** GET /_blob/artifacts/{id}.zip?sig=… (no GitHub auth: the signature is the credential). */
  blob(path: string, query: URLSearchParams, authorization: string | undefined): ArtifactAnswer | undefined {
    const id = /^\/_blob\/artifacts\/(\d+)\.zip$/.exec(path)?.[1];
    if (id === undefined) return undefined;
    if (authorization !== undefined)
      return blobError(400, 'InvalidAuthenticationInfo', 'A signed URL takes no Authorization header.');
    const signed = this.signatures.get(query.get('sig') ?? '');
    if (!signed || signed.id !== Number(id))
      return blobError(403, 'AuthenticationFailed', 'Signature did not match.');
    if (signed.expiresAt <= this.clock())
      return blobError(403, 'AuthenticationFailed', 'Signed expiry time has passed.');
    const artifact = this.find(Number(id));
    if (!artifact) return blobError(404, 'BlobNotFound', 'The specified blob does not exist.');
    return {
      status: 200,
      raw: artifact.bytes,
      headers: { 'content-type': 'application/zip', 'content-length': String(artifact.bytes.length) }
    };
  }

  private find(id: number): ServedArtifact | undefined {
    if (this.faults.get(id) === 'missing') return undefined;
    const found = this.seeded.get(id) ?? this.fromLinks(id);
    if (!found) return undefined;
    const other = this.repo.id + OTHER_REPOSITORY_OFFSET;
    switch (this.faults.get(id)) {
      case 'expired':
        return { ...found, expiresAt: new Date(this.clock() - 86_400_000).toISOString() };
      case 'other-repository':
        return {
          ...found,
          workflowRun: { ...found.workflowRun, repositoryId: other, headRepositoryId: other }
        };
      case 'fork-run':
        return { ...found, workflowRun: { ...found.workflowRun, headRepositoryId: other } };
      default:
        return found;
    }
  }

  private fromLinks(id: number): ServedArtifact | undefined {
    for (const { store, runOf } of this.links) {
      const stored = store.artifacts.find((artifact) => artifact.id === id && !artifact.deleted);
      if (!stored) continue;
      return {
        id: stored.id,
        name: stored.name,
        bytes: stored.bytes,
        digest: stored.digest,
        createdAt: stored.createdAt,
        expiresAt: stored.expiresAt,
        workflowRun: { id: runOf(stored), repositoryId: this.repo.id, headRepositoryId: this.repo.id }
      };
    }
    return undefined;
  }

  private expired(artifact: ServedArtifact): boolean {
    return Date.parse(artifact.expiresAt) <= this.clock();
  }

  private render(baseUrl: string, artifact: ServedArtifact): unknown {
    const url = `${baseUrl}/repos/${this.repo.owner}/${this.repo.name}/actions/artifacts/${artifact.id}`;
    return {
      id: artifact.id,
      node_id: nodeId('Artifact', artifact.id),
      name: artifact.name,
      size_in_bytes: artifact.bytes.length,
      url,
      archive_download_url: `${url}/zip`,
      expired: this.expired(artifact),
      created_at: artifact.createdAt,
      expires_at: artifact.expiresAt,
      updated_at: artifact.createdAt,
      digest: artifact.digest,
      workflow_run: {
        id: artifact.workflowRun.id,
        repository_id: artifact.workflowRun.repositoryId,
        head_repository_id: artifact.workflowRun.headRepositoryId,
        head_branch: 'main',
        head_sha: fakeSha(`run:${artifact.workflowRun.id}`)
      }
    };
  }
}

function notFound(doc: string): ArtifactAnswer {
  return { status: 404, body: { message: 'Not Found', documentation_url: doc, status: '404' } };
}

/** Azure's XML error, as the blob host answers. */
function blobError(status: number, code: string, message: string): ArtifactAnswer {
  return {
    status,
    raw: Buffer.from(
      `<?xml version="1.0" encoding="utf-8"?><Error><Code>${code}</Code><Message>${message}</Message></Error>`
    ),
    headers: { 'content-type': 'application/xml', 'x-ms-error-code': code }
  };
}
