/**
 * The CI-failure routes of the fake GitHub (descriptions in @octokit/openapi, read 2026-11-28):
 * - "List jobs for a workflow run attempt", GET /actions/runs/{run_id}/attempts/{attempt_number}/jobs;
 * - "Download job logs for a workflow run", GET /actions/jobs/{job_id}/logs: a 302 to a plain-text
 *   log on the same server, signed and valid one minute like GitHub's. The log route takes the
 *   signature as its only credential and refuses an Authorization header, so a client that forwards
 *   its GitHub token to the storage host fails here;
 * - "List check run annotations", GET /check-runs/{check_run_id}/annotations (a job's check run has
 *   the job's id, as on GitHub, where `check_run_url` ends in it);
 * - "Re-run failed jobs from a workflow run", POST /actions/runs/{run_id}/rerun-failed-jobs: 201,
 *   recorded in `reruns`; the test then says how the re-run ended, as GitHub would in a new event.
 * A test seeds an attempt's jobs with `setRunJobs`; an attempt it did not seed has no jobs.
 */
import { randomBytes } from 'node:crypto';
import { nodeId, WEB_URL } from './render.js';

export interface FakeJobSeed {
  readonly id: number;
  readonly name: string;
  readonly conclusion: 'success' | 'failure' | 'cancelled' | 'skipped' | 'timed_out';
  readonly steps: ReadonlyArray<{
    readonly name: string;
    readonly conclusion: 'success' | 'failure' | 'skipped';
  }>;
  /** The job's log as GitHub serves it (times before each line, if the test wants them). */
  readonly log: string;
  /** The log's storage ignores a Range header and sends the whole log (a server may: RFC 9110). */
  readonly ignoresRange?: boolean;
  readonly annotations?: ReadonlyArray<{
    readonly path: string;
    readonly line: number;
    readonly level: 'notice' | 'warning' | 'failure';
    readonly title?: string;
    readonly message: string;
  }>;
}

export interface CiJobsAnswer {
  readonly status: number;
  readonly body?: unknown;
  readonly headers?: Record<string, string>;
  readonly raw?: Buffer;
}

const DOC_LOGS = 'https://docs.github.com/rest/actions/workflow-jobs#download-job-logs-for-a-workflow-run';
const DOC_ANNOTATIONS = 'https://docs.github.com/rest/checks/runs#list-check-run-annotations';
const SIGNED_URL_LIFETIME_MS = 60_000;
const TIME = '2026-11-28T06:00:00Z';

export class FakeCiJobRoutes {
  private readonly attempts = new Map<string, { runId: number; attempt: number; jobs: FakeJobSeed[] }>();
  private readonly signatures = new Map<string, { jobId: number; expiresAt: number }>();
  /** The run ids whose failed jobs were re-run, in order. */
  readonly reruns: number[] = [];

  constructor(
    private readonly repo: () => { owner: string; name: string },
    private readonly clock: () => number
  ) {}

  set(runId: number, attempt: number, jobs: readonly FakeJobSeed[]): void {
    this.attempts.set(`${runId}/${attempt}`, { runId, attempt, jobs: [...jobs] });
  }

  /** GET /actions/runs/{run_id}/attempts/{attempt_number}/jobs */
  list(api: string, runId: number, attempt: number, query: URLSearchParams): CiJobsAnswer {
    const seeded = this.attempts.get(`${runId}/${attempt}`);
    const all = seeded?.jobs ?? [];
    const perPage = Math.min(100, Number(query.get('per_page') ?? 30));
    const page = Math.max(1, Number(query.get('page') ?? 1));
    const jobs = all
      .slice((page - 1) * perPage, page * perPage)
      .map((job) => this.render(api, runId, attempt, job));
    return { status: 200, body: { total_count: all.length, jobs } };
  }

  /** GET /actions/jobs/{job_id}/logs: a redirect to the signed log. */
  logs(api: string, jobId: number): CiJobsAnswer {
    if (this.find(jobId) === undefined) return notFound(DOC_LOGS);
    const sig = randomBytes(12).toString('hex');
    const expiresAt = this.clock() + SIGNED_URL_LIFETIME_MS;
    this.signatures.set(sig, { jobId, expiresAt });
    return {
      status: 302,
      headers: {
        location: `${api}/_logs/jobs/${jobId}/signedlogcontent?sig=${sig}&urlExpires=${encodeURIComponent(new Date(expiresAt).toISOString())}`
      }
    };
  }

  /** GET /_logs/jobs/{id}/signedlogcontent?sig=… (no GitHub auth: the signature is the credential). */
  blob(
    path: string,
    query: URLSearchParams,
    authorization: string | undefined,
    range: string | undefined
  ): CiJobsAnswer | undefined {
    const id = /^\/_logs\/jobs\/(\d+)\/signedlogcontent$/.exec(path)?.[1];
    if (id === undefined) return undefined;
    if (authorization !== undefined) return plain(400, 'A signed log URL takes no Authorization header.');
    const signed = this.signatures.get(query.get('sig') ?? '');
    if (!signed || signed.jobId !== Number(id)) return plain(403, 'Signature did not match.');
    if (signed.expiresAt <= this.clock()) return plain(403, 'Signed URL expired.');
    const job = this.find(Number(id));
    if (!job) return plain(404, 'The log does not exist.');
    const raw = Buffer.from(job.log, 'utf8');
    const headers = { 'content-type': 'text/plain; charset=utf-8' };
    const part = job.ignoresRange ? undefined : byteRange(range, raw.length);
    if (part === 'unsatisfiable')
      return { status: 416, raw: Buffer.alloc(0), headers: { 'content-range': `bytes */${raw.length}` } };
    if (part === undefined)
      return { status: 200, raw, headers: { ...headers, 'content-length': String(raw.length) } };
    const slice = raw.subarray(part.start, part.end + 1);
    return {
      status: 206,
      raw: slice,
      headers: {
        ...headers,
        'content-length': String(slice.length),
        'content-range': `bytes ${part.start}-${part.end}/${raw.length}`
      }
    };
  }

  /** GET /check-runs/{check_run_id}/annotations */
  annotations(checkRunId: number): CiJobsAnswer {
    const job = this.find(checkRunId);
    if (!job) return notFound(DOC_ANNOTATIONS);
    const { owner, name } = this.repo();
    return {
      status: 200,
      body: (job.annotations ?? []).map((note) => ({
        path: note.path,
        blob_href: `${WEB_URL}/${owner}/${name}/blob/${'0'.repeat(40)}/${note.path}`,
        start_line: note.line,
        end_line: note.line,
        start_column: null,
        end_column: null,
        annotation_level: note.level,
        title: note.title ?? null,
        message: note.message,
        raw_details: null
      }))
    };
  }

  /** POST /actions/runs/{run_id}/rerun-failed-jobs */
  rerunFailed(runId: number): CiJobsAnswer {
    const known = [...this.attempts.values()].some((seeded) => seeded.runId === runId);
    if (!known)
      return notFound(
        'https://docs.github.com/rest/actions/workflow-runs#re-run-failed-jobs-from-a-workflow-run'
      );
    this.reruns.push(runId);
    return { status: 201, body: {} };
  }

  private find(jobId: number): FakeJobSeed | undefined {
    for (const { jobs } of this.attempts.values()) {
      const job = jobs.find((candidate) => candidate.id === jobId);
      if (job) return job;
    }
    return undefined;
  }

  private render(api: string, runId: number, attempt: number, job: FakeJobSeed): unknown {
    const { owner, name } = this.repo();
    const full = `${owner}/${name}`;
    return {
      id: job.id,
      run_id: runId,
      run_url: `${api}/repos/${full}/actions/runs/${runId}`,
      run_attempt: attempt,
      node_id: nodeId('CheckRun', job.id),
      head_sha: '0'.repeat(40),
      url: `${api}/repos/${full}/actions/jobs/${job.id}`,
      html_url: `${WEB_URL}/${full}/actions/runs/${runId}/job/${job.id}`,
      status: 'completed',
      conclusion: job.conclusion,
      created_at: TIME,
      started_at: TIME,
      completed_at: TIME,
      name: job.name,
      steps: job.steps.map((step, index) => ({
        name: step.name,
        status: 'completed',
        conclusion: step.conclusion,
        number: index + 1,
        started_at: TIME,
        completed_at: TIME
      })),
      check_run_url: `${api}/repos/${full}/check-runs/${job.id}`,
      labels: ['ubuntu-latest'],
      runner_id: 1,
      runner_name: 'GitHub Actions 1',
      runner_group_id: 2,
      runner_group_name: 'GitHub Actions',
      workflow_name: 'CI',
      head_branch: 'main'
    };
  }
}

function notFound(doc: string): CiJobsAnswer {
  return { status: 404, body: { message: 'Not Found', documentation_url: doc, status: '404' } };
}

function plain(status: number, message: string): CiJobsAnswer {
  return { status, raw: Buffer.from(message), headers: { 'content-type': 'text/plain' } };
}

/** The routes, as the server's route table takes them (matched on the path after the repository). */
export function ciJobRoutes(
  /** Read when answering: the route table is built before the routes' state. */
  routesOf: () => FakeCiJobRoutes,
  api: () => string
): Array<{
  method: string;
  pattern: RegExp;
  handler: (ctx: { readonly query: URLSearchParams }, params: string[]) => CiJobsAnswer;
}> {
  return [
    {
      method: 'GET',
      pattern: /^\/actions\/runs\/(\d+)\/attempts\/(\d+)\/jobs$/,
      handler: (ctx, [run, attempt]) => routesOf().list(api(), Number(run), Number(attempt), ctx.query)
    },
    {
      method: 'GET',
      pattern: /^\/actions\/jobs\/(\d+)\/logs$/,
      handler: (_ctx, [job]) => routesOf().logs(api(), Number(job))
    },
    {
      method: 'GET',
      pattern: /^\/check-runs\/(\d+)\/annotations$/,
      handler: (_ctx, [id]) => routesOf().annotations(Number(id))
    },
    {
      method: 'POST',
      pattern: /^\/actions\/runs\/(\d+)\/rerun-failed-jobs$/,
      handler: (_ctx, [run]) => routesOf().rerunFailed(Number(run))
    }
  ];
}

/**
 * A Range header as Azure Blob Storage (where GitHub's job logs are stored) takes it: `bytes=start-`
 * or `bytes=start-end`, answered 206 with Content-Range, or 416 past the blob's end
 * (https://learn.microsoft.com/en-us/rest/api/storageservices/specifying-the-range-header-for-blob-service-operations,
 * read 2026-11-28). Any other form (a suffix `bytes=-n` is not among Azure's) is ignored: the whole
 * blob, 200, as RFC 9110 lets a server answer.
 */
function byteRange(
  header: string | undefined,
  size: number
): { start: number; end: number } | 'unsatisfiable' | undefined {
  const match = /^bytes=(\d+)-(\d*)$/.exec(header?.trim() ?? '');
  if (!match) return undefined;
  const start = Number(match[1]);
  if (start >= size) return 'unsatisfiable';
  const end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  return end < start ? undefined : { start, end };
}
