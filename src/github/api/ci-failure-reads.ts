import { accountType, RepositoryClient } from './octokit-api.js';
import type { PullRequestAuthor } from './github-api.js';

/** A failed job of a run attempt, and its steps that failed. */
export interface FailedJob {
  readonly id: number;
  readonly name: string;
  readonly htmlUrl: string;
  /** The check run GitHub made for the job (its annotations hang there); undefined when not named. */
  readonly checkRunId: number | undefined;
  readonly failedSteps: readonly string[];
}

/** One annotation of a check run, as much as a fix needs. */
export interface CheckAnnotation {
  readonly path: string;
  readonly startLine: number;
  readonly level: string;
  readonly title: string;
  readonly message: string;
}

/** The pull request a CI fix would push to: who opened it, its head and its labels. */
export interface CiPullRequest {
  readonly number: number;
  readonly state: 'open' | 'closed';
  readonly headRef: string;
  readonly headSha: string;
  readonly headRepoFullName: string | undefined;
  readonly author: PullRequestAuthor | undefined;
  readonly labels: readonly string[];
}

/** The end of a log, and whether more came before it than was kept or read. */
export interface LogTail {
  readonly text: string;
  readonly cut: boolean;
}

/** The Actions and Checks API a CI fix reads and the one write it makes (a re-run). */
export interface CiFailureReads {
  pullRequest(number: number): Promise<CiPullRequest>;
  failedJobs(runId: number, attempt: number): Promise<FailedJob[]>;
  jobLogTail(jobId: number, limits: LogLimits): Promise<LogTail>;
  annotations(checkRunId: number): Promise<CheckAnnotation[]>;
  rerunFailedJobs(runId: number): Promise<void>;
}

export interface LogLimits {
  /** The most bytes read from the log's storage at all. */
  readonly maxReadBytes: number;
  /** The bytes kept: the end of what was read, where a failing step's error stands. */
  readonly keepBytes: number;
}

/** Jobs of an attempt are listed up to this many pages of 100: a matrix has at most 256 jobs. */
const JOB_PAGES = 3;

/**
 * GitHub's Actions and Checks routes for a failed run (descriptions in @octokit/openapi, read
 * 2026-11-28):
 * - "List jobs for a workflow run attempt", GET .../actions/runs/{run_id}/attempts/{attempt_number}/jobs
 *   (https://docs.github.com/rest/actions/workflow-jobs#list-jobs-for-a-workflow-run-attempt): read
 *   access (`actions: read`); each job has its `steps` with their conclusions and its `check_run_url`.
 * - "Download job logs for a workflow run", GET .../actions/jobs/{job_id}/logs
 *   (https://docs.github.com/rest/actions/workflow-jobs#download-job-logs-for-a-workflow-run): a 302
 *   whose Location is a plain-text log that "expires after 1 minute". The redirect is not followed by
 *   Octokit: the log is fetched without the token (the signed URL is the credential; the token must
 *   not travel to the storage host), and read only up to a bound.
 * - "List check run annotations", GET .../check-runs/{check_run_id}/annotations
 *   (https://docs.github.com/rest/checks/runs#list-check-run-annotations): `checks: read`.
 * - "Re-run failed jobs from a workflow run", POST .../actions/runs/{run_id}/rerun-failed-jobs
 *   (https://docs.github.com/rest/actions/workflow-runs#re-run-failed-jobs-from-a-workflow-run):
 *   `actions: write`; it re-runs the failed jobs "and their dependent jobs", at the same commit.
 */
export class OctokitCiFailureReads extends RepositoryClient implements CiFailureReads {
  async pullRequest(number: number): Promise<CiPullRequest> {
    const { data } = await this.octokit.rest.pulls.get({ ...this.repo, pull_number: number });
    return {
      number: data.number,
      state: data.state === 'closed' ? 'closed' : 'open',
      headRef: data.head.ref,
      headSha: data.head.sha,
      headRepoFullName: data.head.repo?.full_name,
      author: data.user
        ? { login: data.user.login, type: accountType(data.user.type), id: data.user.id }
        : undefined,
      labels: data.labels
        .map((label) => label.name)
        .filter((name): name is string => typeof name === 'string')
    };
  }

  async failedJobs(runId: number, attempt: number): Promise<FailedJob[]> {
    const failed: FailedJob[] = [];
    for (let page = 1; page <= JOB_PAGES; page++) {
      const { data } = await this.octokit.rest.actions.listJobsForWorkflowRunAttempt({
        ...this.repo,
        run_id: runId,
        attempt_number: attempt,
        per_page: 100,
        page
      });
      if (!Array.isArray(data.jobs))
        throw new Error(`GitHub answered the jobs of run ${runId} without a list`);
      for (const job of data.jobs) {
        if (job.conclusion !== 'failure' && job.conclusion !== 'timed_out') continue;
        failed.push({
          id: job.id,
          name: job.name,
          htmlUrl: job.html_url ?? '',
          checkRunId: checkRunIdOf(job.check_run_url),
          failedSteps: (job.steps ?? [])
            .filter((step) => step.conclusion === 'failure' || step.conclusion === 'timed_out')
            .map((step) => step.name)
        });
      }
      if (data.jobs.length < 100) break;
    }
    return failed;
  }

  async jobLogTail(jobId: number, limits: LogLimits): Promise<LogTail> {
    const answer = await this.octokit.rest.actions.downloadJobLogsForWorkflowRun({
      ...this.repo,
      job_id: jobId,
      request: { redirect: 'manual' }
    });
    const location = (answer.headers as Record<string, string | undefined>).location;
    if (!location) throw new Error(`GitHub gave no download location for the log of job ${jobId}`);
    return logTailAt(location, jobId, limits);
  }

  async annotations(checkRunId: number): Promise<CheckAnnotation[]> {
    const { data } = await this.octokit.rest.checks.listAnnotations({
      ...this.repo,
      check_run_id: checkRunId,
      per_page: 50
    });
    return data.map((annotation) => ({
      path: annotation.path,
      startLine: annotation.start_line,
      level: annotation.annotation_level ?? 'notice',
      title: annotation.title ?? '',
      message: annotation.message ?? ''
    }));
  }

  async rerunFailedJobs(runId: number): Promise<void> {
    await this.octokit.rest.actions.reRunWorkflowFailedJobs({ ...this.repo, run_id: runId });
  }
}

/** `…/check-runs/123` names the job's check run; anything else names none. */
function checkRunIdOf(url: string | undefined): number | undefined {
  const id = /\/check-runs\/(\d+)$/.exec(url ?? '')?.[1];
  return id === undefined ? undefined : Number(id);
}

/**
 * The end of the log at a signed storage URL, where a failing step's error stands. The log's storage
 * is Azure Blob Storage (its errors are Azure's: https://github.com/KnpLabs/php-github-api/issues/1156,
 * read 2026-11-28), which honours `Range: bytes=start-end` and `bytes=start-` with a 206 whose
 * Content-Range names the blob's size, and answers 416 past its end
 * (https://learn.microsoft.com/en-us/rest/api/storageservices/specifying-the-range-header-for-blob-service-operations,
 * read 2026-11-28; a suffix range `bytes=-n` is not among its forms). So its first byte is asked
 * for to learn the size, then the last `keepBytes` from there. A storage that ignores Range (a 200)
 * is read through to its end (at most `maxReadBytes`), keeping only the last `keepBytes`.
 */
async function logTailAt(location: string, jobId: number, limits: LogLimits): Promise<LogTail> {
  const get = async (range: string) => {
    const response = await fetch(location, { redirect: 'error', headers: { range } });
    if (response.status === 416) return { response, empty: true };
    if (!response.ok || !response.body)
      throw new Error(`the log's storage answered ${response.status} to the download of job ${jobId}'s log`);
    return { response, empty: false };
  };
  const probe = await get('bytes=0-0');
  if (probe.empty) return { text: '', cut: false };
  const size =
    probe.response.status === 206 ? rangeTotal(probe.response.headers.get('content-range')) : undefined;
  if (size === undefined) return readTail(probe.response.body!, limits);
  await probe.response.body?.cancel();
  const start = Math.max(0, size - limits.keepBytes);
  const tail = await get(`bytes=${start}-`);
  if (tail.empty) return { text: '', cut: false };
  if (tail.response.status !== 206) return readTail(tail.response.body!, limits);
  return readTail(
    tail.response.body!,
    { maxReadBytes: limits.keepBytes, keepBytes: limits.keepBytes },
    start > 0
  );
}

/** `bytes 0-0/12345`: the whole size, 12345; undefined when it is not said (`*`) or not a number. */
function rangeTotal(header: string | null): number | undefined {
  const total = /^bytes [^/]+\/(\d+)$/.exec(header?.trim() ?? '')?.[1];
  return total === undefined ? undefined : Number(total);
}

/**
 * The last `keepBytes` of at most `maxReadBytes`: a failing step's error is at the end of its job's
 * log, and a log may be far larger than a model's request should hold. `fromMidway`: the body
 * starts inside the log (a range), so its first line may be partial and is dropped.
 */
export async function readTail(
  body: AsyncIterable<Uint8Array>,
  limits: LogLimits,
  fromMidway = false
): Promise<LogTail> {
  let kept = Buffer.alloc(0);
  let read = 0;
  let cut = fromMidway;
  for await (const chunk of body) {
    const room = limits.maxReadBytes - read;
    const part = Buffer.from(chunk).subarray(0, Math.max(0, room));
    read += part.length;
    kept = Buffer.concat([kept, part]);
    if (kept.length > limits.keepBytes) {
      kept = kept.subarray(kept.length - limits.keepBytes);
      cut = true;
    }
    if (read >= limits.maxReadBytes) {
      cut = true;
      break;
    }
  }
  // A cut may split a character or a line: drop the partial first line.
  const text = kept.toString('utf8');
  return { text: cut ? text.slice(text.indexOf('\n') + 1) : text, cut };
}
