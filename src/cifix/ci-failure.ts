import { errorFirstLine } from '../errors/error-message.js';
import type { CheckAnnotation, CiFailureReads, FailedJob } from '../github/api/ci-failure-reads.js';
import type { WorkflowRunFacts } from '../github/events/workflow-run-event.js';
import { failureExcerpt } from './failure-excerpt.js';
import { failureSignature } from './failure-signature.js';

/** One failed job as the task and the report show it: already redacted. */
export interface FailedJobReport {
  readonly name: string;
  readonly url: string;
  readonly steps: readonly string[];
  /** The lines around the errors (failure-excerpt.ts); '' when the log could not be read. */
  readonly excerpt: string;
  readonly annotations: readonly string[];
  /** Why the log is missing, when it is. */
  readonly logProblem: string | undefined;
}

/** A failed run attempt, read: what the model is given, and what a repeat is recognised by. */
export interface CiFailure {
  readonly workflow: string;
  readonly runId: number;
  readonly attempt: number;
  readonly runUrl: string;
  readonly jobs: readonly FailedJobReport[];
  /** More jobs failed than were read. */
  readonly jobsLeftOut: number;
  readonly signature: string;
}

/** At most this many failed jobs are read: a matrix's failures are mostly the same one. */
export const MAX_JOBS_READ = 4;
/**
 * A log's last 256 KiB are kept: the error stands at the end of a failed step. They are asked for by
 * range; maxReadBytes bounds only a storage that ignores Range and is read through to its end.
 */
export const LOG_LIMITS = { maxReadBytes: 1024 * 1024 * 1024, keepBytes: 256 * 1024 };
const MAX_ANNOTATIONS = 10;

/**
 * The failed jobs of the run's attempt, each with its failed steps, the failing lines of its log and
 * its check run's annotations: all text a pull request's author controls (their tests print it), so
 * it is redacted here and shown to the model as untrusted data only (ci-fix-task.ts).
 */
export async function readCiFailure(
  reads: CiFailureReads,
  run: WorkflowRunFacts,
  redact: (text: string) => string,
  jobs?: readonly FailedJob[]
): Promise<CiFailure> {
  const failed = jobs ?? (await reads.failedJobs(run.id, run.attempt));
  const read = failed.slice(0, MAX_JOBS_READ);
  const parts = await Promise.all(read.map((job) => readJob(reads, job)));
  return {
    workflow: run.name,
    runId: run.id,
    attempt: run.attempt,
    runUrl: run.htmlUrl,
    jobs: parts.map(({ job, log, annotations, problem }) => ({
      name: redact(job.name),
      url: job.htmlUrl,
      steps: job.failedSteps.map(redact),
      excerpt: redact(failureExcerpt(log)),
      annotations: annotations.slice(0, MAX_ANNOTATIONS).map((note) => redact(annotationLine(note))),
      logProblem: problem
    })),
    jobsLeftOut: failed.length - read.length,
    signature: failureSignature(parts.map(({ job, log }) => ({ job: job.name, steps: job.failedSteps, log })))
  };
}

async function readJob(
  reads: CiFailureReads,
  job: FailedJob
): Promise<{ job: FailedJob; log: string; annotations: CheckAnnotation[]; problem: string | undefined }> {
  const [log, annotations] = await Promise.all([
    reads
      .jobLogTail(job.id, LOG_LIMITS)
      .then((tail) => ({ text: tail.text, problem: undefined }))
      .catch((error: unknown) => ({
        text: '',
        problem: `its log could not be read (${errorFirstLine(error)})`
      })),
    job.checkRunId === undefined ? Promise.resolve([]) : reads.annotations(job.checkRunId).catch(() => [])
  ]);
  return { job, log: log.text, annotations, problem: log.problem };
}

function annotationLine(note: CheckAnnotation): string {
  const title = note.title === '' ? '' : `${note.title}: `;
  return `${note.level} ${note.path}:${note.startLine}: ${title}${note.message}`.replace(/\s*\n\s*/g, ' ');
}
