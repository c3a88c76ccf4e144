import path from 'node:path';
import { transcriptArtifactName } from '../artifacts/transcript-artifact.js';
import { errorMessage } from '../errors/error-message.js';
import type { WorkflowRunOrigin, WorkflowRunReads } from '../github/api/workflow-runs.js';
import { runIdParts } from './artifact-state.js';
import type { CarriedState } from './carried-state.js';

/**
 * Whether a carried state or a claim was written by a run of THIS workflow. With the default
 * `bot_name`, every workflow of the repository that comments with GITHUB_TOKEN comments as the same
 * `github-actions[bot]`, and a welcome or triage workflow that quotes an issue's body can end its
 * comment with a reader's forged state block or claim. So the bot account is not the trust root: the
 * run a state or claim names is looked up through the Actions API, and it must be a run of this
 * repository, of this run's own workflow file or of one the config file's `thread.workflows` names
 * (read from the base branch, so a pull request cannot add one), and, for a state, one that uploaded
 * the transcript artifact the state names (its content is checked in artifact-state.ts).
 *
 * - `ours`: a run of this workflow that uploaded the artifact the state names.
 * - `ours-without-artifact`: a run of this workflow, but the state names no artifact, so what it
 *   says cannot be checked (a genuine run whose upload failed, or a forgery naming a real run).
 * - `unchecked`: the state could not be checked at all (this run does not know its workflow, the
 *   token may not read runs, or the lookup bound was reached). It may be genuine.
 * - `foreign`: not a run of this workflow (or an artifact its run did not upload): a forgery.
 */
export type Origin =
  | { readonly kind: 'ours' }
  | { readonly kind: 'ours-without-artifact'; readonly reason: string }
  | { readonly kind: 'unchecked'; readonly reason: string }
  | { readonly kind: 'foreign'; readonly reason: string };

/** Whether a claim's run is a run of this workflow: only `ours` counts, the rest say why not. */
export type RunOrigin =
  | { readonly kind: 'ours' }
  | { readonly kind: 'unchecked'; readonly reason: string }
  | { readonly kind: 'foreign'; readonly reason: string };

export interface StateOrigin {
  judge(state: CarriedState): Promise<Origin>;
  /** A run id alone (a claim names one): is it a run of this workflow? */
  judgeRun(runId: number): Promise<RunOrigin>;
}

/**
 * At most this many runs are looked up one by one per action run: a thread filled with forged states
 * or claims must not turn one run into hundreds of API calls. Past the bound, this workflow's own runs
 * are listed instead, once, at most MAX_LISTED_PAGES pages of 100, newest first: a run id in the list
 * is this workflow's, one in the listed range but not in it is not. So another workflow's comments
 * naming many runs cannot use the bound up and leave the genuine state unchecked (a jammed thread).
 */
export const MAX_RUN_LOOKUPS = 5;
export const MAX_LISTED_PAGES = 10;

/** The line a 403 adds: the token needs `actions: read` to look runs up. */
export const ACTIONS_READ_HINT = 'give the workflow `actions: read`';

/**
 * The workflow file of a `GITHUB_WORKFLOW_REF` or of a run's `path`, without the repository before it
 * or the ref after it. GITHUB_WORKFLOW_REF is "the ref path to the workflow", e.g.
 * `octocat/hello-world/.github/workflows/my-workflow.yml@refs/heads/my_branch`
 * (https://docs.github.com/en/actions/reference/variables-reference, read 2026-11-28).
 */
export function workflowFileOf(reference: string, repositoryFullName: string): string | undefined {
  const at = reference.lastIndexOf('@');
  const withoutRef = at < 0 ? reference : reference.slice(0, at);
  const prefix = `${repositoryFullName}/`;
  const file = withoutRef.toLowerCase().startsWith(prefix.toLowerCase())
    ? withoutRef.slice(prefix.length)
    : withoutRef;
  return file.trim() === '' ? undefined : file;
}

/** "5001-1" or "5001": the numeric run id, or undefined for any other form. */
export function numericRunId(runId: string): number | undefined {
  if (!/^\d{1,16}(-\d{1,6})?$/.test(runId)) return undefined;
  const id = Number(runIdParts(runId)[0]);
  return Number.isSafeInteger(id) && id > 0 ? id : undefined;
}

type RunLookup =
  | { readonly kind: 'run'; readonly run: WorkflowRunOrigin }
  | { readonly kind: 'unchecked' | 'foreign'; readonly reason: string };

/**
 * The check against this run's workflow. `workflowRef` is this run's GITHUB_WORKFLOW_REF: GitHub
 * always sets it in a workflow run; without it (a local runner emulation) nothing can be tied to
 * this workflow, and every state and claim is `unchecked` (never trusted; the thread's spend is then
 * unknown, see previous-run.ts). A run id above this run's own is looked up like any other: two
 * events can start two runs whose claims land in either order, and a re-run keeps its old run id,
 * so a later run of this workflow can have written a genuine claim or state. Lookups are cached per run id for the
 * action run (the queue's claims, the follow-up and the sticky comment share them) and bounded by
 * MAX_RUN_LOOKUPS. A 403 (the token lacks `actions: read`) is `unchecked` with a reason that says
 * so; any other failure throws, so the run reports that the thread could not be read rather than
 * quietly forgetting it.
 */
export function ownWorkflowOrigin(
  reads: WorkflowRunReads,
  options: {
    readonly workflowRef: string | undefined;
    readonly repositoryFullName: string;
    /**
     * The config file's `thread.workflows` (paths, `.github/workflows/fix-ci.yml`): other workflow
     * files whose runs share a thread with this one. The config file is read from the base branch,
     * so a pull request cannot widen it.
     */
    readonly sharedWorkflowFiles?: readonly string[];
  }
): StateOrigin {
  const ownFile =
    options.workflowRef === undefined || options.workflowRef.trim() === ''
      ? undefined
      : workflowFileOf(options.workflowRef, options.repositoryFullName);
  // This workflow's own file always counts, first; the others the repository named after it.
  const trustedFiles =
    ownFile === undefined
      ? []
      : [ownFile, ...(options.sharedWorkflowFiles ?? []).filter((file) => file !== ownFile)];
  const runs = new Map<number, Promise<RunLookup>>();
  const listing = ownFile === undefined ? undefined : new TrustedRunListing(reads, trustedFiles);
  const listings = new Map<string, Promise<boolean>>();
  const forbidden = (id: number) =>
    `the token may not read run ${id} to check it (GitHub answered 403; ${ACTIONS_READ_HINT})`;
  const failed = (id: number, error: unknown) =>
    new Error(`run ${id} could not be looked up (${errorMessage(error).split('\n')[0]!.slice(0, 200)})`);

  const fetchRun = async (id: number): Promise<RunLookup> => {
    try {
      const run = await reads.workflowRun(id);
      if (run === undefined)
        return { kind: 'foreign', reason: `it names run ${id}, which this repository does not have` };
      const runFile = workflowFileOf(run.path, options.repositoryFullName);
      if (runFile === undefined || !trustedFiles.includes(runFile))
        return {
          kind: 'foreign',
          reason: `it names run ${id} of ${(runFile ?? run.path).slice(0, 120)}, not of this workflow (${trustedFilesText(trustedFiles)})`
        };
      return { kind: 'run', run };
    } catch (error) {
      if ((error as { status?: unknown }).status === 403) return { kind: 'unchecked', reason: forbidden(id) };
      throw failed(id, error);
    }
  };

  const lookUp = (id: number | undefined): Promise<RunLookup> => {
    if (ownFile === undefined)
      return Promise.resolve({
        kind: 'unchecked',
        reason: 'this run does not know its own workflow file (GITHUB_WORKFLOW_REF is not set)'
      });
    if (id === undefined) return Promise.resolve({ kind: 'foreign', reason: 'it names no numeric run id' });
    let lookup = runs.get(id);
    if (lookup === undefined) {
      if (runs.size >= MAX_RUN_LOOKUPS) return listing!.judge(id);
      lookup = fetchRun(id);
      runs.set(id, lookup);
      lookup.catch(() => runs.delete(id));
    }
    return lookup;
  };

  /** Whether run `id` uploaded the artifact `artifactId` under the transcript's name (cached). */
  const uploaded = (id: number, runId: string, artifactId: number): Promise<boolean> => {
    const key = `${runId}\u0000${artifactId}`;
    let listed = listings.get(key);
    if (listed === undefined) {
      const name = transcriptArtifactName(...runIdParts(runId));
      listed = reads
        .runArtifacts(id, name)
        .then((artifacts) =>
          artifacts.some((artifact) => artifact.id === artifactId && artifact.name === name)
        );
      listings.set(key, listed);
      listed.catch(() => listings.delete(key));
    }
    return listed;
  };

  return {
    async judgeRun(runId) {
      const lookup = await lookUp(runId);
      return lookup.kind === 'run' ? { kind: 'ours' } : lookup;
    },
    async judge(state) {
      const id = numericRunId(state.runId);
      const lookup = await lookUp(id);
      if (lookup.kind !== 'run') return lookup;
      if (state.artifactId === null)
        return {
          kind: 'ours-without-artifact',
          reason: `it names run ${id} of this workflow but no transcript artifact, so what it says cannot be checked`
        };
      try {
        if (!(await uploaded(lookup.run.id, state.runId, state.artifactId)))
          return {
            kind: 'foreign',
            reason: `it names the transcript artifact ${state.artifactId}, which run ${lookup.run.id} did not upload`
          };
      } catch (error) {
        if ((error as { status?: unknown }).status === 403)
          return { kind: 'unchecked', reason: forbidden(lookup.run.id) };
        throw failed(lookup.run.id, error);
      }
      return { kind: 'ours' };
    }
  };
}

/** "agent.yml" or "agent.yml, fix-ci.yml": the trusted files, named in a reason. */
function trustedFilesText(files: readonly string[]): string {
  return files.map((file) => file.slice(0, 120)).join(', ');
}

/** What one file's listing says of a run id: one of its runs, not one, or it cannot say. */
type ListedVerdict =
  { readonly kind: 'listed' | 'not-listed' } | { readonly kind: 'unknown'; readonly reason: string };

/** The pages the listings of one action run may read in all, whatever files they list. */
interface PageBudget {
  left: number;
}

/**
 * The trusted workflows' runs, listed newest first a page at a time as far as a run asked about
 * needs, and kept for the action run: this workflow's file first, then each file `thread.workflows`
 * names, all within MAX_LISTED_PAGES pages in all (more files do not buy more API calls). A run in
 * any file's list is trusted; one that every file's listing rules out is foreign; otherwise it is
 * `unchecked`. A 403 is `unchecked`, as for a lookup.
 */
class TrustedRunListing {
  private readonly files: readonly FileRunListing[];
  private readonly budget: PageBudget = { left: MAX_LISTED_PAGES };
  private pending: Promise<void> = Promise.resolve();

  constructor(
    reads: WorkflowRunReads,
    private readonly trustedFiles: readonly string[]
  ) {
    this.files = trustedFiles.map(
      (file, index) => new FileRunListing(reads, file, index === 0 ? 'this workflow' : file, this.budget)
    );
  }

  judge(id: number): Promise<RunLookup> {
    // One listing at a time: two runs asked about at once read the same pages.
    const answer = this.pending.then(() => this.judgeListed(id));
    this.pending = answer.then(
      () => undefined,
      () => undefined
    );
    return answer;
  }

  private async judgeListed(id: number): Promise<RunLookup> {
    let unknown: string | undefined;
    for (const file of this.files) {
      let verdict: ListedVerdict;
      try {
        verdict = await file.judge(id);
      } catch (error) {
        if ((error as { status?: unknown }).status === 403)
          return {
            kind: 'unchecked',
            reason: `the token may not list the runs of ${file.label} to check run ${id} (GitHub answered 403; ${ACTIONS_READ_HINT})`
          };
        throw new Error(
          `the runs of ${file.label} could not be listed to check run ${id} (${errorMessage(error).split('\n')[0]!.slice(0, 200)})`
        );
      }
      if (verdict.kind === 'listed') return { kind: 'run', run: { id, path: file.file } };
      if (verdict.kind === 'unknown') unknown ??= verdict.reason;
    }
    if (unknown !== undefined) return { kind: 'unchecked', reason: unknown };
    return {
      kind: 'foreign',
      reason: `it names run ${id}, which is not a run of this workflow (${trustedFilesText(this.trustedFiles)})`
    };
  }
}

/** One workflow file's runs, listed newest first as far as the shared page budget allows. */
class FileRunListing {
  private readonly ids = new Set<number>();
  private highest = 0;
  private lowest = Number.POSITIVE_INFINITY;
  private pages = 0;
  private complete = false;

  constructor(
    private readonly reads: WorkflowRunReads,
    readonly file: string,
    /** How a reason names the file: `this workflow` for the running one's own. */
    readonly label: string,
    private readonly budget: PageBudget
  ) {}

  async judge(id: number): Promise<ListedVerdict> {
    while (!this.complete && this.budget.left > 0 && (this.pages === 0 || id < this.lowest))
      await this.nextPage();
    if (this.ids.has(id)) return { kind: 'listed' };
    if (this.pages === 0)
      return {
        kind: 'unknown',
        reason: `it names run ${id}, and the runs of ${this.label} were not listed (the ${MAX_LISTED_PAGES} pages a run may list went to other workflow files)`
      };
    if (id > this.highest)
      return {
        kind: 'unknown',
        reason: `it names run ${id}, newer than every run of ${this.label} listed (more than ${MAX_RUN_LOOKUPS} runs were looked up in this run already)`
      };
    if (this.complete || id >= this.lowest) return { kind: 'not-listed' };
    return {
      kind: 'unknown',
      reason: `it names run ${id}, older than the ${this.ids.size} newest runs of ${this.label} listed`
    };
  }

  private async nextPage(): Promise<void> {
    this.budget.left--;
    const page = await this.reads.workflowRunIds(path.posix.basename(this.file), this.pages + 1);
    this.pages++;
    if (page === undefined) {
      this.complete = true;
      return;
    }
    for (const id of page.ids) {
      this.ids.add(id);
      this.highest = Math.max(this.highest, id);
      this.lowest = Math.min(this.lowest, id);
    }
    if (!page.more || page.ids.length === 0) this.complete = true;
  }
}
