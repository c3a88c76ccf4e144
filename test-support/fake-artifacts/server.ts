/**
 * A fake GitHub Actions artifact service (results service, Twirp JSON) plus the Azure block-blob
 * endpoint its signed upload URLs point at, both on one 127.0.0.1 port, for the real
 * @actions/artifact 6.x client. It validates like the real service (token scope, name, version 7,
 * size and sha256 of the committed blob, block-list order), stores finished artifacts, records
 * every request and injects faults. One instance holds all of its state.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeRuntimeToken, runtimeToken, type TokenScope } from './token.js';
import { unzip } from '../../src/audit/zip-reader.js';
import { closeLoopback, flattenHeaders, listenOnLoopback } from '../loopback.js';

export const TWIRP_PREFIX = '/twirp/github.actions.results.api.v1.ArtifactService/';
export const TWIRP_METHODS = [
  'CreateArtifact',
  'FinalizeArtifact',
  'ListArtifacts',
  'GetSignedArtifactURL',
  'DeleteArtifact'
] as const;
export type TwirpMethod = (typeof TWIRP_METHODS)[number];

/** Characters the service (and the client) refuse in artifact names. */
export const INVALID_NAME_CHARACTERS = ['"', ':', '<', '>', '|', '*', '?', '\r', '\n', '\\', '/'];
const DAY_MS = 24 * 3600 * 1000;

export interface FakeArtifactsOptions {
  /** Backend ids of `fake.runtimeToken` (default: random UUIDs). Other tokens work too when consistent. */
  runBackendId?: string;
  jobBackendId?: string;
  /** Id of the first finalized artifact (default 1000); the next ones count up. */
  firstArtifactId?: number;
  /** Retention when CreateArtifact has no expires_at (default 90 days, GitHub's default). */
  defaultRetentionDays?: number;
  clock?: () => number;
  port?: number;
}

/**
 * A fault: answer `status` to the next `times` (default 1) matching requests. Targets: a Twirp
 * method, or the blob upload ('block' = Put Block, 'blocklist' = Put Block List, 'blob' = any blob
 * request). Twirp faults answer `{ code, msg }` JSON; blob faults answer Azure's XML error.
 */
export interface ArtifactFault {
  target: TwirpMethod | 'block' | 'blocklist' | 'blob';
  status: number;
  times?: number;
  /** Twirp code or Azure error code (default from the status). */
  code?: string;
  message?: string;
}

export interface StoredArtifact {
  id: number;
  name: string;
  runBackendId: string;
  jobBackendId: string;
  /** Bytes of the zip (the blob). */
  size: number;
  /** `sha256:<hex>` of the blob. */
  digest: string;
  createdAt: string;
  expiresAt: string;
  /** Whole days from creation to expiry (rounded). */
  retentionDays: number;
  /** CreateArtifact's mime_type (application/zip for a zipped upload). */
  mimeType: string | undefined;
  /** The blob's content type as the upload set it (x-ms-blob-content-type). */
  blobContentType: string | undefined;
  /** Blocks in the committed block list. */
  blockCount: number;
  bytes: Buffer;
  deleted: boolean;
}

export interface PendingUpload {
  name: string;
  runBackendId: string;
  jobBackendId: string;
  key: string;
  mimeType: string | undefined;
  expiresAt: string;
  retentionDays: number;
  signedUploadUrl: string;
  /** Staged (uncommitted) blocks by block id. */
  staged: Map<string, Buffer>;
  /** Set once Put Block List (or Put Blob) committed the blob. */
  committed?: { bytes: Buffer; blockIds: string[]; blockSizes: number[]; contentType: string | undefined };
}

export interface RecordedArtifactRequest {
  seq: number;
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  kind: 'twirp' | 'blob' | 'other';
  /** For Twirp requests. */
  twirpMethod?: string;
  /** Parsed JSON body of a Twirp request. */
  body?: unknown;
  /** For blob requests: 'block', 'blocklist', 'put' (Put Blob), 'get'. */
  blobOp?: 'block' | 'blocklist' | 'put' | 'get' | 'unknown';
  /** The decoded block id of a Put Block. */
  blockId?: string;
  /** Body length in bytes (blob bodies are not kept in the record). */
  bodyBytes: number;
  status: number;
  /** JSON answered to a Twirp request. */
  response?: unknown;
  faulted: boolean;
}

export interface FakeArtifacts {
  /** Origin of the service: give it (with or without a path) as ACTIONS_RESULTS_URL. */
  readonly url: string;
  readonly port: number;
  readonly runBackendId: string;
  readonly jobBackendId: string;
  /** An ACTIONS_RUNTIME_TOKEN for this fake's run and job. */
  readonly runtimeToken: string;
  readonly requests: readonly RecordedArtifactRequest[];
  /** Finalized artifacts, in finalization order (deleted ones stay, flagged). */
  readonly artifacts: readonly StoredArtifact[];
  /** The live (not deleted) finalized artifact with that name, if any. */
  artifact(name: string): StoredArtifact | undefined;
  /** The files of a finalized artifact (unzipped): path → contents. */
  files(name: string): Map<string, Buffer>;
  /** Uploads created but not finalized. */
  readonly pending: readonly PendingUpload[];
  failNext(fault: ArtifactFault): void;
  clearFaults(): void;
  close(): Promise<void>;
}

const TWIRP_CODES: Readonly<Record<number, string>> = {
  400: 'invalid_argument',
  401: 'unauthenticated',
  403: 'permission_denied',
  404: 'not_found',
  408: 'deadline_exceeded',
  409: 'already_exists',
  412: 'failed_precondition',
  429: 'resource_exhausted',
  500: 'internal',
  501: 'unimplemented',
  503: 'unavailable'
};

const AZURE_ERRORS: Readonly<Record<number, [string, string]>> = {
  400: ['InvalidInput', 'One of the request inputs is not valid.'],
  403: [
    'AuthenticationFailed',
    'Server failed to authenticate the request. Make sure the value of Authorization header is formed correctly including the signature.'
  ],
  404: ['BlobNotFound', 'The specified blob does not exist.'],
  409: ['Conflict', 'The request conflicts with the current state of the resource.'],
  413: ['RequestBodyTooLarge', 'The request body is too large and exceeds the maximum permissible limit.'],
  500: ['InternalError', 'Server encountered an internal error. Please try again after some time.'],
  503: ['ServerBusy', 'The server is currently unable to receive requests. Please retry your request.']
};

class TwirpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string
  ) {
    super(message);
  }
}

class AzureError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string
  ) {
    super(message);
  }
}

function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', () => resolve(undefined));
  });
}

function xmlEscape(text: string): string {
  return text.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);
}

type Obj = Record<string, unknown>;

/** Protobuf JSON decoding of the fields the service reads; wrong types fail like protojson. */
function field(body: Obj, name: string, type: 'string' | 'int32' | 'int64' | 'timestamp'): unknown {
  const value = body[name];
  if (value === undefined || value === null) return undefined;
  const bad = (): never => {
    throw new TwirpError(400, 'malformed', `the json request could not be decoded: field ${name}`);
  };
  switch (type) {
    case 'string':
      return typeof value === 'string' ? value : bad();
    case 'int32':
      return typeof value === 'number' && Number.isInteger(value) ? value : bad();
    case 'int64':
      // protojson writes int64 as a string and reads both.
      if (typeof value === 'string' && /^-?\d+$/.test(value)) return BigInt(value);
      if (typeof value === 'number' && Number.isInteger(value)) return BigInt(value);
      return bad();
    case 'timestamp': {
      if (typeof value !== 'string' || !/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,9})?Z$/.test(value))
        return bad();
      const ms = Date.parse(value);
      return Number.isNaN(ms) ? bad() : ms;
    }
  }
}

function isoMs(ms: number): string {
  return new Date(ms).toISOString();
}

class FakeArtifactsServer implements FakeArtifacts {
  readonly runBackendId: string;
  readonly jobBackendId: string;
  readonly runtimeToken: string;
  private readonly records: RecordedArtifactRequest[] = [];
  private readonly stored: StoredArtifact[] = [];
  private readonly uploads = new Map<string, PendingUpload>();
  private readonly faults: Array<ArtifactFault & { remaining: number }> = [];
  private readonly clock: () => number;
  private nextId: number;
  private seq = 0;
  private address: AddressInfo | undefined;

  constructor(
    private readonly server: Server,
    private readonly options: FakeArtifactsOptions
  ) {
    this.runBackendId = options.runBackendId ?? randomUUID();
    this.jobBackendId = options.jobBackendId ?? randomUUID();
    this.runtimeToken = runtimeToken(this.runBackendId, this.jobBackendId);
    this.clock = options.clock ?? Date.now;
    this.nextId = options.firstArtifactId ?? 1000;
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      this.handle(req, res).catch((e: unknown) => {
        if (res.headersSent) return void res.destroy();
        const msg = `fake artifact service bug: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`;
        // JSON even here: the client retries non-JSON answers for ~30 s.
        this.sendJson(res, undefined, 500, { code: 'internal', msg });
      });
    });
  }

  async listen(): Promise<void> {
    this.address = await listenOnLoopback(this.server, this.options.port);
  }

  get port(): number {
    if (!this.address) throw new Error('fake artifact service is not listening');
    return this.address.port;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get requests(): readonly RecordedArtifactRequest[] {
    return this.records;
  }

  get artifacts(): readonly StoredArtifact[] {
    return this.stored;
  }

  get pending(): readonly PendingUpload[] {
    return [...this.uploads.values()];
  }

  artifact(name: string): StoredArtifact | undefined {
    return this.stored.find((a) => a.name === name && !a.deleted);
  }

  files(name: string): Map<string, Buffer> {
    const artifact = this.artifact(name);
    if (!artifact) throw new Error(`fake artifact service: no artifact named ${JSON.stringify(name)}`);
    return unzip(artifact.bytes);
  }

  failNext(fault: ArtifactFault): void {
    this.faults.push({ ...fault, remaining: fault.times ?? 1 });
  }

  clearFaults(): void {
    this.faults.length = 0;
  }

  async close(): Promise<void> {
    await closeLoopback(this.server);
  }

  // -------------------------------------------------------------------------------------------

  private takeFault(matches: (target: ArtifactFault['target']) => boolean): ArtifactFault | undefined {
    const fault = this.faults.find((f) => f.remaining > 0 && matches(f.target));
    if (fault) fault.remaining--;
    return fault;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const record: RecordedArtifactRequest = {
      seq: this.seq++,
      method: req.method ?? '',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: flattenHeaders(req.headers),
      kind: url.pathname.startsWith('/twirp/')
        ? 'twirp'
        : url.pathname.startsWith('/blob/')
          ? 'blob'
          : 'other',
      bodyBytes: 0,
      status: 0,
      faulted: false
    };
    this.records.push(record);
    const body = await readBody(req);
    if (body === undefined) return;
    record.bodyBytes = body.length;

    if (record.kind === 'blob') return this.handleBlob(req, res, url, body, record);
    if (record.kind === 'twirp') return this.handleTwirp(req, res, url, body, record);
    return this.sendJson(res, record, 404, {
      code: 'bad_route',
      msg: `no handler for path "${url.pathname}"`
    });
  }

  // ---- Twirp ----------------------------------------------------------------------------------

  private async handleTwirp(
    req: IncomingMessage,
    res: ServerResponse,
    url: URL,
    body: Buffer,
    record: RecordedArtifactRequest
  ): Promise<void> {
    const method = url.pathname.startsWith(TWIRP_PREFIX) ? url.pathname.slice(TWIRP_PREFIX.length) : '';
    record.twirpMethod = method;
    try {
      if (req.method !== 'POST') {
        throw new TwirpError(404, 'bad_route', `unsupported method "${req.method}" (only POST is allowed)`);
      }
      if (!(TWIRP_METHODS as readonly string[]).includes(method)) {
        throw new TwirpError(404, 'bad_route', `no handler for path "${url.pathname}"`);
      }
      const contentType = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
      if (contentType !== 'application/json') {
        throw new TwirpError(
          404,
          'bad_route',
          `unexpected Content-Type: "${req.headers['content-type'] ?? ''}" (the fake speaks JSON only)`
        );
      }
      const scope = this.authenticate(req);
      let json: unknown;
      try {
        json = JSON.parse(body.toString('utf8'));
      } catch {
        throw new TwirpError(400, 'malformed', 'the json request could not be decoded');
      }
      record.body = json;
      if (typeof json !== 'object' || json === null || Array.isArray(json)) {
        throw new TwirpError(400, 'malformed', 'the json request could not be decoded');
      }
      const fault = this.takeFault((t) => t === method);
      if (fault) {
        record.faulted = true;
        throw new TwirpError(
          fault.status,
          fault.code ?? TWIRP_CODES[fault.status] ?? 'internal',
          fault.message ?? `injected failure of ${method}`
        );
      }
      const answer = this.twirp(method as TwirpMethod, json as Obj, scope);
      this.sendJson(res, record, 200, answer);
    } catch (e) {
      if (!(e instanceof TwirpError)) throw e;
      this.sendJson(res, record, e.status, { code: e.code, msg: e.message });
    }
  }

  private authenticate(req: IncomingMessage): TokenScope {
    const match = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '');
    if (!match?.[1]) throw new TwirpError(401, 'unauthenticated', 'missing bearer token');
    const scope = decodeRuntimeToken(match[1]);
    if (!scope) throw new TwirpError(401, 'unauthenticated', 'the token has no Actions.Results scope');
    if (scope.exp !== undefined && scope.exp * 1000 < this.clock()) {
      throw new TwirpError(401, 'unauthenticated', 'the token has expired');
    }
    return scope;
  }

  /** The run/job ids of a request, which must be the token's. */
  private backendIds(body: Obj, scope: TokenScope): { run: string; job: string } {
    const run = field(body, 'workflow_run_backend_id', 'string') as string | undefined;
    const job = field(body, 'workflow_job_run_backend_id', 'string') as string | undefined;
    if (!run || !job) {
      throw new TwirpError(
        400,
        'invalid_argument',
        'workflow_run_backend_id and workflow_job_run_backend_id are required'
      );
    }
    if (run !== scope.runBackendId || job !== scope.jobBackendId) {
      throw new TwirpError(403, 'permission_denied', 'the backend ids do not match the token scope');
    }
    return { run, job };
  }

  private twirp(method: TwirpMethod, body: Obj, scope: TokenScope): Obj {
    switch (method) {
      case 'CreateArtifact':
        return this.createArtifact(body, scope);
      case 'FinalizeArtifact':
        return this.finalizeArtifact(body, scope);
      case 'ListArtifacts':
        return this.listArtifacts(body, scope);
      case 'GetSignedArtifactURL':
        return this.getSignedUrl(body, scope);
      case 'DeleteArtifact':
        return this.deleteArtifact(body, scope);
    }
  }

  private validName(body: Obj): string {
    const name = field(body, 'name', 'string') as string | undefined;
    if (!name) throw new TwirpError(400, 'invalid_argument', 'artifact name is required');
    const bad = INVALID_NAME_CHARACTERS.filter((c) => name.includes(c));
    if (bad.length > 0) {
      throw new TwirpError(
        400,
        'invalid_argument',
        `artifact name ${JSON.stringify(name)} contains invalid characters: ${JSON.stringify(bad)}`
      );
    }
    return name;
  }

  private createArtifact(body: Obj, scope: TokenScope): Obj {
    const { run, job } = this.backendIds(body, scope);
    const name = this.validName(body);
    const version = field(body, 'version', 'int32');
    if (version !== 7) {
      throw new TwirpError(
        400,
        'invalid_argument',
        `unsupported artifact version ${JSON.stringify(version ?? 0)}, expected 7`
      );
    }
    const mimeType = field(body, 'mime_type', 'string') as string | undefined;
    const now = this.clock();
    const expires = field(body, 'expires_at', 'timestamp') as number | undefined;
    if (expires !== undefined && expires <= now) {
      throw new TwirpError(400, 'invalid_argument', 'expires_at must be in the future');
    }
    if (this.stored.some((a) => a.runBackendId === run && a.name === name && !a.deleted)) {
      throw new TwirpError(
        409,
        'already_exists',
        `an artifact with this name already exists on the workflow run: ${name}`
      );
    }
    const expiresMs = expires ?? now + (this.options.defaultRetentionDays ?? 90) * DAY_MS;
    const key = `${randomUUID()}`;
    const sig = randomBytes(16).toString('hex');
    const se = isoMs(expiresMs).replace(/\.\d{3}Z$/, 'Z');
    const signedUploadUrl = `${this.url}/blob/actions-results/${run}/${job}/${key}.zip?sig=${sig}&se=${encodeURIComponent(se)}&sp=cw&spr=https&sr=b&sv=2023-11-03`;
    this.uploads.set(this.uploadKey(run, job, name), {
      name,
      runBackendId: run,
      jobBackendId: job,
      key,
      mimeType,
      expiresAt: isoMs(expiresMs),
      retentionDays: Math.round((expiresMs - now) / DAY_MS),
      signedUploadUrl,
      staged: new Map()
    });
    return { ok: true, signed_upload_url: signedUploadUrl };
  }

  private finalizeArtifact(body: Obj, scope: TokenScope): Obj {
    const { run, job } = this.backendIds(body, scope);
    const name = this.validName(body);
    const upload = this.uploads.get(this.uploadKey(run, job, name));
    if (!upload)
      throw new TwirpError(
        404,
        'not_found',
        `no artifact named ${JSON.stringify(name)} was created by this job`
      );
    const blob = upload.committed;
    if (!blob)
      throw new TwirpError(
        412,
        'failed_precondition',
        'the artifact blob has not been uploaded (no committed block list)'
      );
    const size = field(body, 'size', 'int64') as bigint | undefined;
    if (size === undefined || size !== BigInt(blob.bytes.length)) {
      throw new TwirpError(
        400,
        'invalid_argument',
        `size ${String(size ?? 0)} does not match the uploaded blob (${blob.bytes.length} bytes)`
      );
    }
    const digest = `sha256:${createHash('sha256').update(blob.bytes).digest('hex')}`;
    const hash = field(body, 'hash', 'string') as string | undefined;
    if (hash !== undefined) {
      if (!/^sha256:[0-9a-f]{64}$/.test(hash))
        throw new TwirpError(400, 'invalid_argument', `hash ${JSON.stringify(hash)} is not sha256:<hex>`);
      if (hash !== digest)
        throw new TwirpError(
          400,
          'invalid_argument',
          `hash ${hash} does not match the uploaded blob (${digest})`
        );
    }
    const artifact: StoredArtifact = {
      id: this.nextId++,
      name,
      runBackendId: run,
      jobBackendId: job,
      size: blob.bytes.length,
      digest,
      createdAt: isoMs(this.clock()),
      expiresAt: upload.expiresAt,
      retentionDays: upload.retentionDays,
      mimeType: upload.mimeType,
      blobContentType: blob.contentType,
      blockCount: blob.blockIds.length,
      bytes: blob.bytes,
      deleted: false
    };
    this.stored.push(artifact);
    this.uploads.delete(this.uploadKey(run, job, name));
    return { ok: true, artifact_id: String(artifact.id) };
  }

  private listArtifacts(body: Obj, scope: TokenScope): Obj {
    const { run } = this.backendIds(body, scope);
    const nameFilter = field(body, 'name_filter', 'string') as string | undefined;
    const idFilter = field(body, 'id_filter', 'int64') as bigint | undefined;
    const artifacts = this.stored
      .filter((a) => a.runBackendId === run && !a.deleted)
      .filter((a) => nameFilter === undefined || a.name === nameFilter)
      .filter((a) => idFilter === undefined || BigInt(a.id) === idFilter)
      .map((a) => ({
        workflow_run_backend_id: a.runBackendId,
        workflow_job_run_backend_id: a.jobBackendId,
        database_id: String(a.id),
        name: a.name,
        size: String(a.size),
        created_at: a.createdAt,
        digest: a.digest
      }));
    return { artifacts };
  }

  /**
   * The client names the artifact by the job that uploaded it (ListArtifacts' answer, @actions/artifact
   * download-artifact.js), so any job of the token's run may ask for any artifact of that run.
   */
  private getSignedUrl(body: Obj, scope: TokenScope): Obj {
    const run = field(body, 'workflow_run_backend_id', 'string') as string | undefined;
    const job = field(body, 'workflow_job_run_backend_id', 'string') as string | undefined;
    if (!run || !job)
      throw new TwirpError(
        400,
        'invalid_argument',
        'workflow_run_backend_id and workflow_job_run_backend_id are required'
      );
    if (run !== scope.runBackendId)
      throw new TwirpError(403, 'permission_denied', 'the run backend id does not match the token scope');
    const name = this.validName(body);
    const artifact = this.stored.find(
      (a) => a.runBackendId === run && a.jobBackendId === job && a.name === name && !a.deleted
    );
    if (!artifact) throw new TwirpError(404, 'not_found', `artifact ${JSON.stringify(name)} not found`);
    return {
      signed_url: `${this.url}/blob/artifacts/${artifact.id}.zip?sig=${this.readSig(artifact)}&sp=r&sr=b&sv=2023-11-03`
    };
  }

  private deleteArtifact(body: Obj, scope: TokenScope): Obj {
    const { run } = this.backendIds(body, scope);
    const name = this.validName(body);
    const artifact = this.stored.find((a) => a.runBackendId === run && a.name === name && !a.deleted);
    if (!artifact) throw new TwirpError(404, 'not_found', `artifact ${JSON.stringify(name)} not found`);
    artifact.deleted = true;
    return { ok: true, artifact_id: String(artifact.id) };
  }

  private uploadKey(run: string, job: string, name: string): string {
    return JSON.stringify([run, job, name]);
  }

  private readSig(artifact: StoredArtifact): string {
    return createHash('sha256').update(`read:${artifact.id}:${this.runtimeToken}`).digest('hex').slice(0, 32);
  }

  // ---- Azure block blob -----------------------------------------------------------------------

  private handleBlob(
    req: IncomingMessage,
    res: ServerResponse,
    url: URL,
    body: Buffer,
    record: RecordedArtifactRequest
  ): void {
    const comp = url.searchParams.get('comp');
    record.blobOp =
      req.method === 'GET'
        ? 'get'
        : comp === 'block'
          ? 'block'
          : comp === 'blocklist'
            ? 'blocklist'
            : comp === null
              ? 'put'
              : 'unknown';
    try {
      if (req.method === 'GET') return this.getBlob(res, url, record);
      if (req.method !== 'PUT')
        throw new AzureError(405, 'UnsupportedHttpVerb', "The resource doesn't support specified Http Verb.");
      const upload = [...this.uploads.values()].find(
        (u) => new URL(u.signedUploadUrl).pathname === url.pathname
      );
      if (
        !upload ||
        url.searchParams.get('sig') !== new URL(upload.signedUploadUrl).searchParams.get('sig')
      ) {
        const [code, message] = AZURE_ERRORS[403] ?? ['AuthenticationFailed', ''];
        throw new AzureError(403, code, `${message} (no upload is pending for this signed URL)`);
      }
      const op = record.blobOp;
      const fault = this.takeFault((t) => t === 'blob' || t === op);
      if (fault) {
        record.faulted = true;
        const [code, message] = AZURE_ERRORS[fault.status] ?? ['InternalError', 'Injected failure.'];
        throw new AzureError(fault.status, fault.code ?? code, fault.message ?? message);
      }
      if (op === 'block') return this.putBlock(res, url, body, upload, record);
      if (op === 'blocklist') return this.putBlockList(req, res, body, upload, record);
      if (op === 'put') return this.putBlob(req, res, body, upload, record);
      throw new AzureError(
        400,
        'InvalidQueryParameterValue',
        `Value for one of the query parameters specified in the request URI is invalid. (comp=${comp ?? ''})`
      );
    } catch (e) {
      if (!(e instanceof AzureError)) throw e;
      this.sendAzureError(res, record, e);
    }
  }

  private putBlock(
    res: ServerResponse,
    url: URL,
    body: Buffer,
    upload: PendingUpload,
    record: RecordedArtifactRequest
  ): void {
    const encoded = url.searchParams.get('blockid');
    const invalid = (): never => {
      throw new AzureError(
        400,
        'InvalidQueryParameterValue',
        'Value for one of the query parameters specified in the request URI is invalid. (blockid)'
      );
    };
    if (!encoded || !/^[A-Za-z0-9+/]+={0,2}$/.test(encoded) || encoded.length % 4 !== 0) return invalid();
    const raw = Buffer.from(encoded, 'base64');
    if (raw.length === 0 || raw.length > 64) return invalid();
    const other = [...upload.staged.keys()][0] ?? upload.committed?.blockIds[0];
    if (other !== undefined && other.length !== encoded.length) {
      // Azure: every block id of a blob must have the same length.
      throw new AzureError(400, 'InvalidBlobOrBlock', 'The specified blob or block content is invalid.');
    }
    if (body.length === 0)
      throw new AzureError(
        400,
        'InvalidHeaderValue',
        'The value for one of the HTTP headers is not in the correct format. (Content-Length: 0)'
      );
    if (upload.staged.size >= 100_000)
      throw new AzureError(
        409,
        'BlockCountExceedsLimit',
        'The uncommitted block count cannot exceed the maximum limit of 100,000 blocks.'
      );
    upload.staged.set(encoded, body);
    record.blockId = raw.toString('utf8');
    this.sendAzure(res, record, 201, {
      'content-md5': createHash('md5').update(body).digest('base64'),
      'x-ms-request-server-encrypted': 'true'
    });
  }

  private putBlockList(
    req: IncomingMessage,
    res: ServerResponse,
    body: Buffer,
    upload: PendingUpload,
    record: RecordedArtifactRequest
  ): void {
    const xml = body.toString('utf8');
    const list = /<BlockList>([\s\S]*)<\/BlockList>/.exec(xml);
    if (!list) throw new AzureError(400, 'InvalidXmlDocument', 'XML specified is not syntactically valid.');
    const ids: string[] = [];
    const chunks: Buffer[] = [];
    const itemPattern = /<(Latest|Committed|Uncommitted)>([^<]*)<\/\1>/g;
    const rest = (list[1] ?? '').replace(itemPattern, '').trim();
    if (rest !== '')
      throw new AzureError(400, 'InvalidXmlDocument', 'XML specified is not syntactically valid.');
    const committedBlocks = new Map<string, Buffer>();
    if (upload.committed) {
      let offset = 0;
      const { blockIds, blockSizes, bytes } = upload.committed;
      blockIds.forEach((id, i) => {
        const length = blockSizes[i] ?? 0;
        committedBlocks.set(id, bytes.subarray(offset, offset + length));
        offset += length;
      });
    }
    for (const match of (list[1] ?? '').matchAll(itemPattern)) {
      const kind = match[1];
      const id = match[2] ?? '';
      const block =
        kind === 'Committed'
          ? committedBlocks.get(id)
          : kind === 'Uncommitted'
            ? upload.staged.get(id)
            : (upload.staged.get(id) ?? committedBlocks.get(id));
      if (!block) throw new AzureError(400, 'InvalidBlockList', 'The specified block list is invalid.');
      ids.push(id);
      chunks.push(block);
    }
    upload.committed = {
      bytes: Buffer.concat(chunks),
      blockIds: ids,
      blockSizes: chunks.map((c) => c.length),
      contentType: flattenHeaders(req.headers)['x-ms-blob-content-type']
    };
    upload.staged.clear();
    this.sendAzure(res, record, 201, {
      etag: `"0x${randomBytes(7).toString('hex').toUpperCase()}"`,
      'last-modified': new Date(this.clock()).toUTCString(),
      'x-ms-request-server-encrypted': 'true',
      'x-ms-content-crc64': randomBytes(8).toString('base64')
    });
  }

  private putBlob(
    req: IncomingMessage,
    res: ServerResponse,
    body: Buffer,
    upload: PendingUpload,
    record: RecordedArtifactRequest
  ): void {
    if (req.headers['x-ms-blob-type'] !== 'BlockBlob') {
      throw new AzureError(
        400,
        'MissingRequiredHeader',
        "An HTTP header that's mandatory for this request is not specified. (x-ms-blob-type)"
      );
    }
    upload.committed = {
      bytes: body,
      blockIds: [],
      blockSizes: [],
      contentType: flattenHeaders(req.headers)['x-ms-blob-content-type']
    };
    upload.staged.clear();
    this.sendAzure(res, record, 201, {
      etag: `"0x${randomBytes(7).toString('hex').toUpperCase()}"`,
      'last-modified': new Date(this.clock()).toUTCString(),
      'content-md5': createHash('md5').update(body).digest('base64'),
      'x-ms-request-server-encrypted': 'true'
    });
  }

  private getBlob(res: ServerResponse, url: URL, record: RecordedArtifactRequest): void {
    const id = /^\/blob\/artifacts\/(\d+)\.zip$/.exec(url.pathname)?.[1];
    const artifact = this.stored.find((a) => String(a.id) === id && !a.deleted);
    if (!artifact || url.searchParams.get('sig') !== this.readSig(artifact)) {
      const [code, message] = AZURE_ERRORS[artifact ? 403 : 404] ?? ['BlobNotFound', ''];
      throw new AzureError(artifact ? 403 : 404, code, message);
    }
    record.status = 200;
    res.writeHead(200, {
      'content-type': artifact.blobContentType ?? 'application/zip',
      'content-length': String(artifact.bytes.length),
      'x-ms-blob-type': 'BlockBlob',
      'x-ms-version': '2023-11-03',
      'x-ms-request-id': randomUUID(),
      etag: `"0x${artifact.id.toString(16).toUpperCase()}"`
    });
    res.end(artifact.bytes);
  }

  private sendAzure(
    res: ServerResponse,
    record: RecordedArtifactRequest,
    status: number,
    headers: Record<string, string>
  ): void {
    record.status = status;
    res.writeHead(status, {
      'content-length': '0',
      'x-ms-request-id': randomUUID(),
      // Azure answers in the API version the client asked for.
      'x-ms-version': record.headers['x-ms-version'] ?? '2023-11-03',
      date: new Date(this.clock()).toUTCString(),
      ...headers
    });
    res.end();
  }

  private sendAzureError(res: ServerResponse, record: RecordedArtifactRequest, e: AzureError): void {
    record.status = e.status;
    const requestId = randomUUID();
    const xml = `\uFEFF<?xml version="1.0" encoding="utf-8"?><Error><Code>${xmlEscape(e.code)}</Code><Message>${xmlEscape(
      `${e.message}\nRequestId:${requestId}\nTime:${new Date(this.clock()).toISOString()}`
    )}</Message></Error>`;
    res.writeHead(e.status, {
      'content-type': 'application/xml',
      'content-length': String(Buffer.byteLength(xml)),
      'x-ms-error-code': e.code,
      'x-ms-request-id': requestId,
      'x-ms-version': '2023-11-03'
    });
    res.end(xml);
  }

  private sendJson(
    res: ServerResponse,
    record: RecordedArtifactRequest | undefined,
    status: number,
    payload: unknown
  ): void {
    if (record) {
      record.status = status;
      record.response = payload;
    }
    const text = JSON.stringify(payload);
    res.writeHead(status, {
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(text))
    });
    res.end(text);
  }
}

export async function startFakeArtifacts(options: FakeArtifactsOptions = {}): Promise<FakeArtifacts> {
  const fake = new FakeArtifactsServer(createServer(), options);
  await fake.listen();
  return fake;
}
