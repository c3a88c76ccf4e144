import { z } from 'zod';

/**
 * A `workflow_run` webhook payload reduced to what a CI fix needs: which run and attempt failed, on
 * which commit and branch, from which repository, and the pull requests GitHub links to it.
 *
 * `workflow_run` runs in the base repository with its secrets and a write token, even when the run
 * it follows came from a fork; and `pull_requests` is empty for a fork's run (github/docs issue
 * 22501, read 2026-11-28). So the head repository is read from the payload, never assumed.
 */
export interface WorkflowRunFacts {
  readonly id: number;
  readonly attempt: number;
  /** The workflow's name (`CI`), for the report. */
  readonly name: string;
  readonly conclusion: string | undefined;
  readonly headBranch: string | undefined;
  readonly headSha: string;
  /** `owner/name` of the repository the run's commit came from; undefined when GitHub names none. */
  readonly headRepoFullName: string | undefined;
  readonly htmlUrl: string;
  /** The event that started the run (`pull_request`, `push`). */
  readonly event: string;
  /** Pull requests of this repository whose head is the run's branch (none for a fork's run). */
  readonly pullRequests: readonly {
    readonly number: number;
    readonly headRef: string;
    readonly baseRef: string;
  }[];
}

const pullRequestLink = z.object({
  number: z.number().int(),
  head: z.object({ ref: z.string() }),
  base: z.object({ ref: z.string() })
});

export const workflowRunSchema = z.object({
  id: z.number().int(),
  run_attempt: z.number().int().min(1).default(1),
  name: z.string().nullable().optional(),
  conclusion: z.string().nullable().optional(),
  head_branch: z.string().nullable().optional(),
  head_sha: z.string(),
  head_repository: z.object({ full_name: z.string() }).nullable().optional(),
  html_url: z.string().default(''),
  event: z.string().default(''),
  pull_requests: z.array(pullRequestLink).default([])
});

export function toWorkflowRunFacts(run: z.infer<typeof workflowRunSchema>): WorkflowRunFacts {
  return {
    id: run.id,
    attempt: run.run_attempt,
    name: run.name ?? '',
    conclusion: run.conclusion ?? undefined,
    headBranch: run.head_branch ?? undefined,
    headSha: run.head_sha,
    headRepoFullName: run.head_repository?.full_name,
    htmlUrl: run.html_url,
    event: run.event,
    pullRequests: run.pull_requests.map((pull) => ({
      number: pull.number,
      headRef: pull.head.ref,
      baseRef: pull.base.ref
    }))
  };
}
