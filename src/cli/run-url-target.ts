import { transcriptFromZip, type LoadedTranscript } from '../audit/load-transcript.js';
import { MAX_DOWNLOAD_BYTES } from '../audit/ledger/audit-run.js';
import { TRANSCRIPT_ARTIFACT_NAME } from '../audit/ledger/discover-runs.js';
import { reportRecordOf, type ReportRecord } from '../audit/ledger/report-record.js';
import type { ListedArtifact, OctokitAuditReads } from '../github/api/audit-reads.js';
import { ArtifactExpiredError, ArtifactTooLargeError } from '../github/api/github-api.js';
import { parseRunUrl, type RunLocation } from '../github/api/github-location.js';
import type { CliIo } from './command.js';
import { fileError } from './exit-codes.js';
import { asUsage, cliAuditReads, cliEndpoint, githubFailure } from './github-access.js';

/** The bot whose report comments are read, unless --bot names another (the action's `bot_name`). */
export const DEFAULT_BOT_LOGIN = 'github-actions[bot]';

/** A run's transcript, downloaded from its artifact, and the report that published its head. */
export interface RunTranscript extends LoadedTranscript {
  readonly run: RunLocation;
  /** The newest report comment that carries the run's state and names the artifact read. */
  readonly report: ReportRecord | undefined;
  /** Other comments that carry the run's state and name that artifact: a run writes one, so these are forged. */
  readonly otherReports: readonly ReportRecord[];
}

/**
 * `compact-agent transcript <run URL>`: the run's transcript artifact through the REST API (capped
 * as a local zip is), and, with `withReport`, the bot's report comment of that run (its published
 * head). A run without a transcript artifact is not the agent's: said so, exit 3.
 */
export async function loadRunTranscript(
  url: string,
  io: Pick<CliIo, 'stderr' | 'env'>,
  options: { readonly withReport: boolean; readonly botLogin: string }
): Promise<RunTranscript> {
  const endpoint = cliEndpoint(io.env);
  const run = asUsage(() => parseRunUrl(url, endpoint));
  const reads = cliAuditReads(run, endpoint, io);
  const repo = `${run.owner}/${run.name}`;
  try {
    const found = await reads.workflowRun(run.runId);
    if (!found)
      throw fileError(
        `${repo} has no workflow run ${run.runId} that this token can see. Check the URL, and that the token can read the repository's Actions.`
      );
    const artifact = newestTranscriptArtifact(await reads.runArtifacts(run.runId), run.runId);
    if (!artifact)
      throw fileError(
        `Run ${run.runId} of ${repo} uploaded no compact-agent transcript (an artifact named agent-transcripts-${run.runId}-<attempt>): ` +
          'it is not a run of the agent, or its artifact was deleted. Give the run of the workflow that uses compact-agent.'
      );
    if (artifact.expired) throw expiredError(run, artifact.name);
    io.stderr(`Downloading ${artifact.name} (${artifact.sizeInBytes} bytes) from ${repo}…`);
    const zip = await reads.downloadArtifactZip(artifact.id, MAX_DOWNLOAD_BYTES).catch((error: unknown) => {
      if (error instanceof ArtifactExpiredError) throw expiredError(run, artifact.name);
      if (error instanceof ArtifactTooLargeError)
        throw fileError(`${artifact.name}: ${error.message}. Download it from the run's page and unzip it.`);
      throw error;
    });
    const loaded = transcriptFromZip(`${artifact.name}.zip`, zip);
    const reports = options.withReport
      ? await findRunReports(
          reads,
          `${run.runId}-${TRANSCRIPT_ARTIFACT_NAME.exec(artifact.name)![2]}`,
          artifact.id,
          found.createdAt,
          options.botLogin
        )
      : [];
    const [report, ...otherReports] = reports;
    return { ...loaded, run, report, otherReports };
  } catch (error) {
    throw githubFailure(error);
  }
}

/**
 * The run's newest transcript artifact: one this run uploaded (GitHub's `workflow_run.id`) under its
 * own run's name, from this repository's code. A run can upload an artifact of any name, so a name
 * naming another run is not a transcript of this one.
 */
function newestTranscriptArtifact(
  artifacts: readonly ListedArtifact[],
  runId: number
): ListedArtifact | undefined {
  const attempt = (artifact: ListedArtifact) => Number(TRANSCRIPT_ARTIFACT_NAME.exec(artifact.name)![2]);
  return artifacts
    .filter((artifact) => Number(TRANSCRIPT_ARTIFACT_NAME.exec(artifact.name)?.[1]) === runId)
    .filter((artifact) => artifact.runId === runId && artifact.headRepositoryId === artifact.repositoryId)
    .sort((a, b) => attempt(a) - attempt(b))
    .at(-1);
}

function expiredError(run: RunLocation, name: string) {
  return fileError(
    `The transcript artifact ${name} of run ${run.runId} has expired (GitHub deletes artifacts after their retention); ` +
      "its report comment still holds the run's cost and outcome (compact-agent audit lists it)."
  );
}

/**
 * The bot's reports of a run, newest first: its comments updated since the run was created (a report
 * is written at the end of its run) whose state names that run and the artifact it uploaded (the
 * check of artifact-state.ts: a state naming another artifact is not this run's). Any workflow can
 * comment as the same bot, so every match is returned, and more than one is flagged by the caller.
 */
async function findRunReports(
  reads: OctokitAuditReads,
  runId: string,
  artifactId: number,
  since: string,
  botLogin: string
): Promise<ReportRecord[]> {
  const found: ReportRecord[] = [];
  for await (const page of reads.comments(since)) {
    for (const comment of page) {
      const record = reportRecordOf(comment, botLogin);
      if (record?.runId === runId && record.artifactId === artifactId) found.push(record);
    }
  }
  return found.sort((a, b) => b.reportedAt.localeCompare(a.reportedAt));
}
