import { transcriptFromZip } from '../load-transcript.js';
import { parseTranscript } from '../parse-transcript.js';
import type { RunAudit } from '../run-audit.js';
import { DEFAULT_ZIP_LIMITS } from '../zip-reader.js';
import type { ListedArtifact, OctokitAuditReads } from '../../github/api/audit-reads.js';
import { GitHubAccessError } from '../../github/api/github-access-error.js';
import { ArtifactExpiredError, ArtifactTooLargeError } from '../../github/api/github-api.js';
import { errorMessage } from '../../errors/error-message.js';
import { verifyChain } from '../../transcript/verify-chain.js';
import { deniedCommandsOf } from './denied-commands.js';
import { TRANSCRIPT_ARTIFACT_NAME, type RunCandidate } from './discover-runs.js';
import type { LedgerRow, Verdict } from './ledger-row.js';

/** An artifact zip is read up to what the zip reader would expand at most: the same cap as a local zip. */
export const MAX_DOWNLOAD_BYTES = DEFAULT_ZIP_LIMITS.maxTotalBytes;

/** What the artifact of a run held, once read: its transcript's text and what it says. */
export interface ReadTranscript {
  readonly text: string;
  readonly source: string;
  readonly audit: RunAudit;
}

type ArtifactOutcome =
  | { readonly kind: 'read'; readonly transcript: ReadTranscript; readonly artifact: ListedArtifact }
  | { readonly kind: 'verdict'; readonly verdict: Verdict; readonly detail: string };

/**
 * One row of the ledger: the run's artifact found, downloaded (capped), unzipped and its chain
 * checked against the head the report published; every failure on the way is a row that says why.
 */
export async function auditRun(
  run: RunCandidate,
  reads: OctokitAuditReads,
  repositoryId: number
): Promise<LedgerRow> {
  const readOutcome = await readRunArtifact(run, reads, repositoryId);
  const conflicting = conflict(run);
  const outcome: ArtifactOutcome =
    conflicting === undefined ? readOutcome : { kind: 'verdict', verdict: 'tampered', detail: conflicting };
  const report = run.report;
  const base = {
    runId: run.runId,
    runUrl: run.runUrl,
    time: run.time,
    thread: report?.thread,
    threadUrl: undefined,
    reportUrl: report?.reportUrl,
    requester: report?.requester,
    kind: report?.kind ?? 'unknown',
    outcome: report?.outcome,
    pullRequest: report?.pullRequest,
    costUsd: report?.costUsd ?? run.listedCostUsd,
    publishedHead: report?.transcriptHead
  } as const;
  if (outcome.kind === 'verdict') {
    return {
      ...base,
      turns: undefined,
      usage: undefined,
      tools: [],
      deniedCommands: [],
      refusedHosts: [],
      filesChanged: [],
      verdict: outcome.verdict,
      detail: outcome.detail
    };
  }
  const { audit, text } = outcome.transcript;
  const { verdict, detail } = judge(run, outcome.transcript);
  return {
    ...base,
    threadUrl: audit.thread?.links.thread,
    thread: base.thread ?? threadNumberOf(audit.thread?.links.thread),
    outcome: base.outcome ?? audit.stopReason,
    costUsd: base.costUsd ?? audit.costUsd,
    turns: audit.turns,
    usage: audit.usage,
    tools: audit.toolStats.map((tool) => ({ name: tool.name, calls: tool.calls })),
    deniedCommands: deniedCommandsOf(text),
    refusedHosts: (audit.sandbox?.refused ?? []).map((entry) => `${entry.host}:${entry.port}`),
    filesChanged: audit.filesChanged,
    verdict,
    detail
  };
}

/**
 * The chain against the report's head, the transcript's run against the report's, and the report's
 * cost against the transcript's. Only a chain that ends where a checked report of the agent's
 * workflow says, and whose cost that report repeats, is `intact`.
 */
function judge(run: RunCandidate, transcript: ReadTranscript): { verdict: Verdict; detail: string } {
  const head = run.report?.transcriptHead;
  const chain = verifyChain(transcript.text, head);
  switch (chain.status) {
    case 'broken':
      return { verdict: 'tampered', detail: `line ${chain.line} of ${chain.lines}: ${chain.reason}` };
    case 'not_transcript':
      return { verdict: 'tampered', detail: `the artifact holds no transcript: ${chain.reason}` };
    case 'unchained':
      return {
        verdict: 'unreadable',
        detail: 'the transcript was written before transcripts were chained, so it cannot be verified'
      };
    case 'intact':
      break;
  }
  // A run only a later report lists is known by its number alone (`123`), not its attempt.
  const expected = run.report?.runId ?? run.runId;
  const actual = transcript.audit.runId;
  const sameRun = expected.includes('-') ? actual === expected : actual?.split('-')[0] === expected;
  if (!sameRun)
    return {
      verdict: 'tampered',
      detail: `the artifact holds run ${transcript.audit.runId ?? '(none)'}'s transcript, not run ${expected}'s`
    };
  const reportCost = run.report?.costUsd;
  const transcriptCost = transcript.audit.costUsd;
  if (reportCost !== undefined && transcriptCost !== undefined && !sameCost(reportCost, transcriptCost))
    return {
      verdict: 'tampered',
      detail: `the report says the run cost $${reportCost}, its transcript says $${transcriptCost}`
    };
  if (run.unchecked !== undefined)
    return { verdict: 'unverified', detail: `${chain.lines} lines; ${run.unchecked}` };
  if (!run.report)
    return {
      verdict: 'unverified',
      detail: `${chain.lines} lines; no report comment of the agent's workflow names this run, so only the chain is checked, not where it ends`
    };
  if (head !== undefined)
    return { verdict: 'intact', detail: `${chain.lines} lines; ends at the head the report published` };
  return {
    verdict: 'unverified',
    detail: `${chain.lines} lines; the report published no head, so only the chain is checked, not where it ends`
  };
}

/** The report rounds nothing (it carries the state's number), so cents apart is a different figure. */
function sameCost(a: number, b: number): boolean {
  return Math.abs(a - b) < 0.005;
}

/** Two comments that carry the run's state: one of them is not the run's own. */
function conflict(run: RunCandidate): string | undefined {
  if (run.otherReports.length === 0) return undefined;
  const urls = [run.report!, ...run.otherReports].map((report) => report.reportUrl);
  return `${urls.length} report comments carry run ${run.runId}'s state (${urls.join(', ')}); a run writes one, so the others are forged: check them by hand`;
}

async function readRunArtifact(
  run: RunCandidate,
  reads: OctokitAuditReads,
  repositoryId: number
): Promise<ArtifactOutcome> {
  try {
    const artifact = run.artifact ?? (await findArtifact(run, reads));
    if (!artifact) {
      return {
        kind: 'verdict',
        verdict: 'missing',
        detail:
          run.report && run.report.artifactId === undefined
            ? 'the report says the transcripts could not be uploaded'
            : 'no transcript artifact: it was deleted, or never uploaded'
      };
    }
    if (artifact.runId !== run.runNumber)
      return unreadable(`the artifact ${artifact.id} was uploaded by run ${artifact.runId}, not this run`);
    const named = TRANSCRIPT_ARTIFACT_NAME.exec(artifact.name);
    if (Number(named?.[1]) !== run.runNumber)
      return unreadable(`the artifact ${artifact.id} is not named as this run's transcript`);
    if (artifact.repositoryId !== repositoryId || artifact.headRepositoryId !== repositoryId)
      return unreadable(`the artifact ${artifact.id} was uploaded by a run of another repository's code`);
    if (artifact.expired) return expired(artifact.id);
    if (artifact.sizeInBytes > MAX_DOWNLOAD_BYTES)
      return unreadable(
        `the artifact is ${artifact.sizeInBytes} bytes, over the ${MAX_DOWNLOAD_BYTES} read; download and check it by hand`
      );
    const zip = await reads.downloadArtifactZip(artifact.id, MAX_DOWNLOAD_BYTES);
    const loaded = transcriptFromZip(`${artifact.name}.zip`, zip);
    return { kind: 'read', artifact, transcript: { ...loaded, audit: parseTranscript(loaded.text) } };
  } catch (error) {
    if (error instanceof ArtifactExpiredError) return expired(run.artifact?.id ?? run.report?.artifactId);
    if (error instanceof ArtifactTooLargeError) return unreadable(error.message);
    if (error instanceof GitHubAccessError) return unreadable(error.message);
    return unreadable(errorMessage(error).split('\n')[0] ?? 'unknown error');
  }
}

/** The report's artifact by id, or the run's own list (a run whose artifact the repository list missed). */
async function findArtifact(
  run: RunCandidate,
  reads: OctokitAuditReads
): Promise<ListedArtifact | undefined> {
  const byRun = (await reads.runArtifacts(run.runNumber)).filter(
    (artifact) => Number(TRANSCRIPT_ARTIFACT_NAME.exec(artifact.name)?.[1]) === run.runNumber
  );
  const id = run.report?.artifactId;
  return byRun.find((artifact) => artifact.id === id) ?? byRun.at(-1);
}

function expired(id: number | undefined): ArtifactOutcome {
  return {
    kind: 'verdict',
    verdict: 'expired',
    detail: `the transcript artifact${id === undefined ? '' : ` ${id}`} expired (GitHub deletes artifacts after their retention); the row keeps what the report holds`
  };
}

function unreadable(detail: string): ArtifactOutcome {
  return { kind: 'verdict', verdict: 'unreadable', detail };
}

function threadNumberOf(url: string | undefined): number | undefined {
  const number = url === undefined ? undefined : /\/(?:issues|pull)\/(\d+)$/.exec(url)?.[1];
  return number === undefined ? undefined : Number(number);
}
