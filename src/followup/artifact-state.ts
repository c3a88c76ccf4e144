import { DEFAULT_ZIP_LIMITS, unzip, type ZipLimits } from '../audit/zip-reader.js';
import {
  ArtifactExpiredError,
  ArtifactTooLargeError,
  type WorkflowArtifact,
  type WorkflowArtifacts
} from '../github/api/github-api.js';
import { verifyChain } from '../transcript/verify-chain.js';
import { TRANSCRIPT_FILE } from '../transcript/writer.js';
import { transcriptArtifactName } from '../artifacts/transcript-artifact.js';
import { renderCarriedLedger } from './carried-ledger.js';
import { boundedState, CARRIED_LIMITS, carriedStateSchema, type CarriedState } from './carried-state.js';
import { workOfTranscript } from './transcript-work.js';
import { STATE_FILE } from './state-file.js';
import { errorMessage } from '../errors/error-message.js';

/** A transcript artifact far larger than any real one (a 1,000-turn run zips to a few MB) is not read. */
export const MAX_ARTIFACT_BYTES = 32 * 1024 * 1024;
/** The zip reader's limits, tighter than for a reviewer's own download: this runs unattended. */
const ARTIFACT_ZIP_LIMITS: ZipLimits = {
  ...DEFAULT_ZIP_LIMITS,
  maxEntries: 2_000,
  maxEntryBytes: 128 * 1024 * 1024,
  maxTotalBytes: 256 * 1024 * 1024
};

export type ArtifactState =
  | { readonly kind: 'read'; readonly state: CarriedState; readonly artifactId: number }
  /** `reason` completes "…because <reason>": one clause a maintainer understands. */
  | { readonly kind: 'unusable'; readonly reason: string }
  /**
   * The artifact was read, and its transcript is not the one the state names (no transcript, no
   * chain, a broken chain, or another last hash): the state is not this run's, and is passed over.
   */
  | { readonly kind: 'mismatch'; readonly reason: string };

/**
 * The previous run's state from its transcript artifact, downloaded across workflow runs with the
 * REST API. The report comment (the bot's own, found first) names the artifact and the transcript's
 * last hash; the artifact is read only when it has not expired, was uploaded by a workflow run of
 * THIS repository (base and head: a fork's pull-request run is refused), is the previous run's own
 * (its name and run id), is small enough, and holds a transcript whose hash chain is intact and ends
 * at that hash. From the transcript come the summary, the work ledger (files changed and failed
 * commands), the original task and the requests; they are redacted again and bounded like the
 * comment's state, and stay data for the next run. Anything else: `unusable`, and why.
 */
export async function stateFromArtifact(
  artifacts: WorkflowArtifacts,
  fromComment: CarriedState,
  options: { readonly repositoryId: number | undefined; readonly redact: (text: string) => string }
): Promise<ArtifactState> {
  const unusable = (reason: string): ArtifactState => ({ kind: 'unusable', reason });
  const id = fromComment.artifactId;
  if (id === null) return unusable('the previous run uploaded no transcript artifact');
  if (options.repositoryId === undefined)
    return unusable("the event payload gives no repository id to check the artifact's origin against");
  let artifact: WorkflowArtifact;
  try {
    artifact = await artifacts.getArtifact(id);
  } catch (error) {
    return unusable(readFailure(id, error));
  }
  const refusal = judge(artifact, fromComment, options.repositoryId);
  if (refusal !== undefined) return unusable(refusal);
  let zip: Buffer;
  try {
    zip = await artifacts.downloadArtifactZip(id, MAX_ARTIFACT_BYTES);
  } catch (error) {
    return unusable(readFailure(id, error));
  }
  const files = runFilesIn(zip, fromComment.runId);
  if ('problem' in files) return unusable(`the transcript artifact ${id} ${files.problem}`);
  const { transcript } = files;
  const verdict = verifyChain(transcript, fromComment.transcriptHead ?? undefined);
  const mismatch = (reason: string): ArtifactState => ({ kind: 'mismatch', reason });
  if (verdict.status === 'not_transcript')
    return mismatch(`the transcript artifact ${id} holds no compact-agent transcript (${verdict.reason})`);
  if (verdict.status === 'unchained')
    return mismatch(`the transcript in artifact ${id} has no hash chain, so it cannot be checked`);
  if (verdict.status === 'broken')
    return mismatch(
      `the transcript in artifact ${id} fails its hash-chain check at line ${verdict.line} (${verdict.reason})`
    );
  if (files.stateFile === undefined)
    return unusable(
      `the transcript artifact ${id} holds no ${STATE_FILE} to check the state's costs and branch against`
    );
  const differs = differingField(fromComment, files.stateFile);
  if (differs !== undefined)
    return mismatch(
      `its ${differs} is not what the run wrote in its transcript artifact ${id} (${STATE_FILE})`
    );
  const state = stateOfTranscript(transcript, fromComment, options.redact);
  return state === undefined
    ? unusable(`the state read from the transcript artifact ${id} does not fit the carried state's bounds`)
    : { kind: 'read', state, artifactId: id };
}

/** Why the artifact's metadata rules it out, or undefined when it may be read. */
function judge(
  artifact: WorkflowArtifact,
  fromComment: CarriedState,
  repositoryId: number
): string | undefined {
  const id = artifact.id;
  if (artifact.expired) return `its transcript artifact ${id} has expired`;
  const run = artifact.workflowRun;
  if (run?.repositoryId !== repositoryId || run.headRepositoryId !== repositoryId)
    return `the transcript artifact ${id} was not uploaded by a workflow run of this repository`;
  const expectedName = transcriptArtifactName(...runIdParts(fromComment.runId));
  if (artifact.name !== expectedName || String(run.id) !== runIdParts(fromComment.runId)[0])
    return `the artifact ${id} (${artifact.name.slice(0, 80)}) is not the transcript of the previous run ${fromComment.runId}`;
  if (artifact.sizeInBytes > MAX_ARTIFACT_BYTES)
    return `the transcript artifact ${id} is ${artifact.sizeInBytes} bytes, over the ${MAX_ARTIFACT_BYTES} read`;
  return undefined;
}

/** "5001-1" → ["5001", "1"]: the run id and attempt the artifact is named after. */
export function runIdParts(runId: string): [string, string] {
  const at = runId.lastIndexOf('-');
  return at < 0 ? [runId, '1'] : [runId.slice(0, at), runId.slice(at + 1)];
}

function readFailure(id: number, error: unknown): string {
  if (error instanceof ArtifactExpiredError) return `its transcript artifact ${id} has expired`;
  if (error instanceof ArtifactTooLargeError)
    return `the transcript artifact ${id} is too large to read (${error.message})`;
  const status = (error as { status?: unknown }).status;
  if (status === 404) return `the transcript artifact ${id} no longer exists (GitHub answered 404)`;
  if (status === 403)
    return `the token may not read the transcript artifact ${id} (GitHub answered 403; give the workflow \`actions: read\`)`;
  const message = errorMessage(error);
  return `the transcript artifact ${id} could not be read (${message.split('\n')[0]!.slice(0, 200)})`;
}

/**
 * The run's transcript inside the zip (`<run id>/transcript.jsonl`, as the action stages it), and the
 * carried state the run wrote beside it (`<run id>/carried-state.json`), when it is there and reads.
 */
function runFilesIn(
  zip: Buffer,
  runId: string
): { transcript: string; stateFile: CarriedState | undefined } | { problem: string } {
  let entries: Map<string, Buffer>;
  try {
    entries = unzip(zip, ARTIFACT_ZIP_LIMITS);
  } catch (error) {
    return { problem: `is not a readable zip (${errorMessage(error)})` };
  }
  const own = entries.get(`${runId}/${TRANSCRIPT_FILE}`);
  const any = [...entries.keys()].filter((name) => name.split('/').at(-1) === TRANSCRIPT_FILE);
  const transcript = own ?? (any.length === 1 ? entries.get(any[0]!) : undefined);
  if (transcript === undefined) return { problem: `holds no ${TRANSCRIPT_FILE} of the run ${runId}` };
  const folder = own !== undefined ? runId : any[0]!.split('/').slice(0, -1).join('/');
  const stateBytes = entries.get(folder === '' ? STATE_FILE : `${folder}/${STATE_FILE}`);
  return { transcript: transcript.toString('utf8'), stateFile: stateBytes && parsedState(stateBytes) };
}

function parsedState(bytes: Buffer): CarriedState | undefined {
  try {
    const parsed = carriedStateSchema.safeParse(JSON.parse(bytes.toString('utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The first field in which the comment's state differs from the state the run wrote into its own
 * artifact. The transcript's hash chain proves the transcript, not the comment's other fields: a
 * copy of a real run's state with its costs lowered, or its branch changed, names the real artifact
 * and head. The artifact's copy holds the same values (written from the same finished run, its
 * artifact id aside, which it cannot know), so any difference is someone else's edit.
 */
function differingField(fromComment: CarriedState, written: CarriedState): string | undefined {
  const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
  const costs = (state: CarriedState) => state.previousRuns.map((run) => run.costUsd);
  const checks: [string, unknown, unknown][] = [
    ['run id', fromComment.runId, written.runId],
    ['repository', fromComment.repository, written.repository],
    ['cost', fromComment.costUsd, written.costUsd],
    ["thread's cost", fromComment.threadCostUsd, written.threadCostUsd],
    ["earlier runs' costs", costs(fromComment), costs(written)],
    ['thread', fromComment.thread, written.thread],
    ['branch', fromComment.branch, written.branch],
    ['pull request', fromComment.pullRequest, written.pullRequest],
    ['mode', fromComment.mode, written.mode],
    ['transcript head', fromComment.transcriptHead, written.transcriptHead]
  ];
  return checks.find(([, a, b]) => !same(a, b))?.[0];
}

/**
 * The carried state with the transcript's account of the work: where the work is (branch, pull
 * request), the run's link and the costs stay the comment's; the publishing lines of its ledger too
 * (the transcript cannot know what was pushed).
 */
function stateOfTranscript(
  transcript: string,
  fromComment: CarriedState,
  redact: (text: string) => string
): CarriedState | undefined {
  const work = workOfTranscript(transcript);
  const requests = work.requests.filter((request) => request.trim() !== '');
  const state = boundedState({
    ...fromComment,
    task: redact(work.task?.trim() ? work.task : fromComment.task),
    summary: redact(work.summary),
    ledger: redact(
      renderCarriedLedger({
        stopReason: work.stopReason ?? 'unknown (the transcript has no run_end)',
        error: work.error,
        published: fromComment.published ?? [],
        filesChanged: work.filesChanged,
        failedCommands: work.failedCommands
      })
    ),
    recentUserMessages: (requests.length > 0 ? requests : fromComment.recentUserMessages)
      .slice(-CARRIED_LIMITS.messages)
      .map(redact)
  });
  const parsed = carriedStateSchema.safeParse(state);
  return parsed.success ? parsed.data : undefined;
}
