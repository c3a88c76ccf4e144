/** The fake artifact service, seen through the real @actions/artifact client (and raw HTTP for the rest). */
import { DefaultArtifactClient } from '@actions/artifact';
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  artifactEnv,
  decodeRuntimeToken,
  runtimeToken,
  startFakeArtifacts,
  TWIRP_PREFIX,
  unzip,
  type FakeArtifacts
} from '../../test-support/fake-artifacts/index.js';

const MiB = 1024 * 1024;
const ENV_KEYS = ['ACTIONS_RUNTIME_TOKEN', 'ACTIONS_RESULTS_URL', 'GITHUB_SERVER_URL'] as const;

let fake: FakeArtifacts;
let root: string;
let files: string[];
const contents = new Map<string, Buffer>();
const savedEnv = new Map<string, string | undefined>();
const realWrite = process.stdout.write.bind(process.stdout);
/** What @actions/core printed (it writes straight to stdout); kept out of the jest output. */
let printed: string[] = [];

beforeAll(async () => {
  for (const key of ENV_KEYS) savedEnv.set(key, process.env[key]);
  root = await mkdtemp(path.join(tmpdir(), 'fake-artifacts-'));
  contents.set('transcript.jsonl', Buffer.from('{"role":"user","content":"fix this"}\n'));
  contents.set('summary.md', Buffer.from('# Summary\n\nAll good.\n'));
  contents.set('nested/deeper/state.json', Buffer.from(JSON.stringify({ step: 3 })));
  // Random bytes do not compress, so the zip is > 8 MiB: the client's 8 MiB chunks make 2 blocks.
  contents.set('big.bin', randomBytes(9 * MiB + 123));
  files = [];
  for (const [rel, data] of contents) {
    const file = path.join(root, rel);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, data);
    files.push(file);
  }
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

beforeEach(async () => {
  fake = await startFakeArtifacts();
  // artifactEnv sets GITHUB_SERVER_URL=https://github.com; deleting it works as well (checked below).
  Object.assign(process.env, artifactEnv(fake));
  delete process.env.GITHUB_SERVER_URL;
  printed = [];
  process.stdout.write = ((chunk: string | Uint8Array): boolean => {
    printed.push(String(chunk));
    return true;
  }) as typeof process.stdout.write;
});

afterEach(async () => {
  process.stdout.write = realWrite;
  for (const [key, value] of savedEnv) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  await fake.close();
});

async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a rejection');
}

describe('uploadArtifact with the real client', () => {
  test('the stored artifact has the returned id and size, and exactly the files, relative to rootDir', async () => {
    const started = Date.now();
    const result = await new DefaultArtifactClient().uploadArtifact('agent-transcripts-1-1', files, root, {
      retentionDays: 3
    });
    const stored = fake.artifact('agent-transcripts-1-1');
    if (!stored) throw new Error('no artifact stored');
    expect(result.id).toBe(1000);
    expect(stored.id).toBe(result.id);
    expect(result.size).toBe(stored.bytes.length);
    expect(stored.size).toBe(stored.bytes.length);
    expect(`sha256:${result.digest}`).toBe(stored.digest);
    expect(stored.digest).toBe(`sha256:${createHash('sha256').update(stored.bytes).digest('hex')}`);
    expect(stored.retentionDays).toBe(3);
    const expires = Date.parse(stored.expiresAt);
    expect(expires).toBeGreaterThanOrEqual(started + 3 * 86_400_000 - 60_000);
    expect(expires).toBeLessThanOrEqual(Date.now() + 3 * 86_400_000 + 60_000);
    expect(stored.mimeType).toBe('application/zip');
    expect(stored.runBackendId).toBe(fake.runBackendId);
    expect(stored.jobBackendId).toBe(fake.jobBackendId);

    const unzipped = unzip(stored.bytes);
    expect([...unzipped.keys()].sort()).toEqual([...contents.keys()].sort());
    for (const [rel, data] of contents) expect(unzipped.get(rel)?.equals(data)).toBe(true);
    expect(fake.files('agent-transcripts-1-1').size).toBe(4);

    // The wire: CreateArtifact, 8 MiB blocks, the block list, FinalizeArtifact.
    expect(stored.blockCount).toBe(Math.ceil(stored.size / (8 * MiB)));
    expect(stored.blockCount).toBeGreaterThanOrEqual(2);
    const ops = fake.requests.map((r) => r.twirpMethod ?? r.blobOp);
    expect(ops[0]).toBe('CreateArtifact');
    expect(ops.slice(1, 1 + stored.blockCount)).toEqual(Array(stored.blockCount).fill('block'));
    expect(ops.slice(1 + stored.blockCount)).toEqual(['blocklist', 'FinalizeArtifact']);
    const blocks = fake.requests.filter((r) => r.blobOp === 'block');
    expect(blocks.map((b) => b.bodyBytes).sort((a, b) => b - a)[0]).toBe(8 * MiB);
    expect(blocks.every((b) => b.status === 201)).toBe(true);
    const create = fake.requests[0]?.body as Record<string, unknown>;
    expect(create).toMatchObject({ name: 'agent-transcripts-1-1', version: 7, mime_type: 'application/zip' });
    const finalize = fake.requests.at(-1)?.body as Record<string, unknown>;
    expect(finalize.size).toBe(String(stored.size)); // int64 as a string
    // The client masks the SAS signature of the upload URL.
    const sig = fake.requests[1]?.query.sig;
    expect(sig).toMatch(/^[0-9a-f]{32}$/);
    expect(printed.join('')).toContain(`::add-mask::${sig}`);
  });

  test('a FinalizeArtifact failure is reported by the client (400: not retried)', async () => {
    // The client retries 429/500/502/503/504 after 3 s, then 4.5 s... (not configurable from
    // uploadArtifact), so a fast test uses a status it does not retry.
    fake.failNext({ target: 'FinalizeArtifact', status: 400, message: 'size mismatch' });
    const error = await rejection(
      new DefaultArtifactClient().uploadArtifact('transcripts', files.slice(0, 2), root, { retentionDays: 3 })
    );
    expect(error.message).toContain('Failed to FinalizeArtifact');
    expect(error.message).toContain('(400)');
    expect(error.message).toContain('size mismatch');
    expect(fake.artifact('transcripts')).toBeUndefined();
    expect(fake.requests.filter((r) => r.twirpMethod === 'FinalizeArtifact')).toHaveLength(1);
    expect(fake.pending.map((p) => p.name)).toEqual(['transcripts']);
  });

  test('one 500 on a block is retried at once by the Azure client and the upload succeeds', async () => {
    fake.failNext({ target: 'block', status: 500 });
    const result = await new DefaultArtifactClient().uploadArtifact('retried', files.slice(0, 3), root);
    const blocks = fake.requests.filter((r) => r.blobOp === 'block');
    expect(blocks.map((b) => [b.status, b.faulted])).toEqual([
      [500, true],
      [201, false]
    ]);
    expect(fake.artifact('retried')?.id).toBe(result.id);
    expect(fake.artifact('retried')?.retentionDays).toBe(90); // no retentionDays: the default
    expect(unzip(fake.artifact('retried')?.bytes ?? Buffer.alloc(0)).size).toBe(3);
  });

  test('a 403 on the blob upload fails the upload without FinalizeArtifact', async () => {
    fake.failNext({ target: 'blob', status: 403 });
    const error = await rejection(
      new DefaultArtifactClient().uploadArtifact('denied', files.slice(0, 1), root)
    );
    expect(error.name).toBe('RestError'); // the Azure client parsed the XML error
    expect(error.message).toContain('Server failed to authenticate the request.');
    expect(fake.requests.some((r) => r.twirpMethod === 'FinalizeArtifact')).toBe(false);
    expect(fake.artifacts).toHaveLength(0);
  });

  test('a second artifact with the same name in the run is refused (409 already_exists)', async () => {
    await new DefaultArtifactClient().uploadArtifact('once', files.slice(0, 1), root);
    const error = await rejection(
      new DefaultArtifactClient().uploadArtifact('once', files.slice(0, 1), root)
    );
    expect(error.message).toContain('Failed to CreateArtifact');
    expect(error.message).toContain('(409)');
    expect(fake.artifacts).toHaveLength(1);
  });

  test('GITHUB_SERVER_URL pointing at 127.0.0.1 makes the client refuse (GHES); artifactEnv avoids it', async () => {
    process.env.GITHUB_SERVER_URL = 'http://127.0.0.1:1';
    const error = await rejection(
      new DefaultArtifactClient().uploadArtifact('ghes', files.slice(0, 1), root)
    );
    expect(error.name).toBe('GHESNotSupportedError');
    Object.assign(process.env, artifactEnv(fake));
    const ok = await new DefaultArtifactClient().uploadArtifact('ghes', files.slice(0, 1), root);
    expect(fake.artifact('ghes')?.id).toBe(ok.id);
  });
});

describe('the service on the wire', () => {
  const twirp = (
    method: string,
    body: unknown,
    token = fake.runtimeToken,
    contentType = 'application/json'
  ): Promise<Response> =>
    fetch(`${fake.url}${TWIRP_PREFIX}${method}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
      body: JSON.stringify(body)
    });
  const ids = (): Record<string, string> => ({
    workflow_run_backend_id: fake.runBackendId,
    workflow_job_run_backend_id: fake.jobBackendId
  });
  async function createUpload(name: string): Promise<string> {
    const res = await twirp('CreateArtifact', { ...ids(), name, version: 7 });
    expect(res.status).toBe(200);
    return ((await res.json()) as { signed_upload_url: string }).signed_upload_url;
  }
  const blockId = (n: number): string =>
    Buffer.from(`block-${String(n).padStart(6, '0')}`).toString('base64');
  const put = (url: string, query: string, body: Buffer | string): Promise<Response> =>
    fetch(`${url}&${query}`, { method: 'PUT', body, headers: { 'x-ms-blob-type': 'BlockBlob' } });

  test('runtimeToken is a JWT the client can decode; a token for another job is refused', async () => {
    const token = runtimeToken('run-a', 'job-b');
    expect(decodeRuntimeToken(token)).toMatchObject({ runBackendId: 'run-a', jobBackendId: 'job-b' });
    const res = await twirp(
      'CreateArtifact',
      { ...ids(), name: 'x', version: 7 },
      runtimeToken(fake.runBackendId, 'other-job')
    );
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ code: 'permission_denied' });
    const anonymous = await fetch(`${fake.url}${TWIRP_PREFIX}CreateArtifact`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}'
    });
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ code: 'unauthenticated' });
  });

  test('bad names, versions and routes get Twirp errors, always as JSON', async () => {
    const cases: Array<[Response, number, string]> = [
      [await twirp('CreateArtifact', { ...ids(), name: 'a/b', version: 7 }), 400, 'invalid_argument'],
      [await twirp('CreateArtifact', { ...ids(), name: 'ok', version: 4 }), 400, 'invalid_argument'],
      [await twirp('CreateArtifact', { ...ids(), name: 'ok', version: '7' }), 400, 'malformed'],
      [await twirp('NoSuchMethod', {}), 404, 'bad_route'],
      [await twirp('CreateArtifact', {}, fake.runtimeToken, 'application/protobuf'), 404, 'bad_route'],
      [await fetch(`${fake.url}/elsewhere`), 404, 'bad_route']
    ];
    for (const [res, status, code] of cases) {
      expect(res.status).toBe(status);
      expect(res.headers.get('content-type')).toBe('application/json');
      expect(((await res.json()) as { code: string }).code).toBe(code);
    }
    expect(fake.pending).toHaveLength(0);
  });

  test('blocks are committed in block-list order, and Finalize checks size and sha256', async () => {
    const url = await createUpload('ordered');
    expect(new URL(url).origin).toBe(fake.url);
    expect((await put(url, `comp=block&blockid=${encodeURIComponent(blockId(1))}`, 'first-')).status).toBe(
      201
    );
    expect((await put(url, `comp=block&blockid=${encodeURIComponent(blockId(2))}`, 'second-')).status).toBe(
      201
    );
    const list = `<?xml version="1.0" encoding="utf-8"?><BlockList><Latest>${blockId(2)}</Latest><Latest>${blockId(1)}</Latest></BlockList>`;
    expect((await put(url, 'comp=blocklist', list)).status).toBe(201);
    const bytes = Buffer.from('second-first-');
    const sha = createHash('sha256').update(bytes).digest('hex');

    const finalize = (size: string, hash: string): Promise<Response> =>
      twirp('FinalizeArtifact', { ...ids(), name: 'ordered', size, hash });
    const wrongSize = await finalize('14', `sha256:${sha}`);
    expect(wrongSize.status).toBe(400);
    expect(await wrongSize.json()).toMatchObject({ code: 'invalid_argument' });
    const wrongHash = await finalize(String(bytes.length), `sha256:${'0'.repeat(64)}`);
    expect(wrongHash.status).toBe(400);
    const ok = await finalize(String(bytes.length), `sha256:${sha}`);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ ok: true, artifact_id: '1000' });
    expect(fake.artifact('ordered')?.bytes.toString()).toBe('second-first-');
    expect(fake.artifact('ordered')?.blockCount).toBe(2);

    // After finalize the upload URL is dead; the artifact is listed.
    expect((await put(url, `comp=block&blockid=${encodeURIComponent(blockId(3))}`, 'late')).status).toBe(403);
    const listed = (await (await twirp('ListArtifacts', ids())).json()) as {
      artifacts: Array<Record<string, string>>;
    };
    expect(listed.artifacts).toEqual([
      expect.objectContaining({
        name: 'ordered',
        database_id: '1000',
        size: String(bytes.length),
        digest: `sha256:${sha}`
      })
    ]);
  });

  test('a block list naming an unstaged block, a wrong signature, and Finalize before the upload', async () => {
    const url = await createUpload('broken');
    const early = await twirp('FinalizeArtifact', { ...ids(), name: 'broken', size: '0' });
    expect(early.status).toBe(412);
    expect((await put(url, `comp=block&blockid=${encodeURIComponent(blockId(1))}`, 'data')).status).toBe(201);
    const bad = await put(url, 'comp=blocklist', `<BlockList><Latest>${blockId(9)}</Latest></BlockList>`);
    expect(bad.status).toBe(400);
    expect(bad.headers.get('x-ms-error-code')).toBe('InvalidBlockList');
    const forged = url.replace(/sig=[0-9a-f]+/, 'sig=forged');
    expect((await put(forged, `comp=block&blockid=${encodeURIComponent(blockId(2))}`, 'x')).status).toBe(403);
    const mixed = await put(
      url,
      `comp=block&blockid=${encodeURIComponent(Buffer.from('short').toString('base64'))}`,
      'x'
    );
    expect(mixed.status).toBe(400); // block ids of one blob must all have the same length
    expect(fake.artifacts).toHaveLength(0);
  });
});
