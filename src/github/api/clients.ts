import type { RepositoryRef } from '../events/event.js';
import { OctokitAuditReads } from './audit-reads.js';
import { OctokitBranchProtection, type BranchProtection } from './branch-protection.js';
import { OctokitCiFailureReads, type CiFailureReads } from './ci-failure-reads.js';
import { OctokitHeadPullRequests, type HeadPullRequests } from './head-pull-requests.js';
import { OctokitMarkedPosts, type MarkedPosts } from './marked-posts.js';
import { OctokitGitHubApi, resilientOctokit, type OctokitGitHubApiOptions } from './octokit-api.js';
import { OctokitPullRequestReviews } from './octokit-reviews.js';
import type { PullRequestReviews } from './review-api.js';
import { OctokitWorkflowDispatcher, type WorkflowDispatcher } from './workflow-dispatch.js';
import {
  OctokitWorkflowRunReads,
  OctokitWorkflowRuns,
  type RunArtifactDownloads,
  type WorkflowRunReads,
  type WorkflowRuns
} from './workflow-runs.js';

/** What every client of one repository is built from: the token, the repository and the API URL. */
export interface GitHubConnection {
  readonly token: string;
  readonly repository: Pick<RepositoryRef, 'owner' | 'name'>;
  /** GITHUB_API_URL (GHES, our fakes); undefined is api.github.com. */
  readonly apiUrl: string | undefined;
  readonly options?: OctokitGitHubApiOptions;
}

/** The run's GitHub clients, one per route group, each behind its own small interface. */
export interface GitHubClients {
  /** Issues, comments, pull requests, permissions and artifacts. */
  api(): OctokitGitHubApi;
  /** Whether a workflow run's attempt is still live (the thread queue). */
  workflowRuns(): WorkflowRuns;
  /** Which workflow a run belongs to, and its artifacts (the trust root of follow-ups). */
  workflowRunReads(): WorkflowRunReads;
  /** Whether a branch is protected (a follow-up never continues on one). */
  branchProtection(): BranchProtection;
  /** Pull request reviews, their comments and threads. */
  reviews(): PullRequestReviews;
  /** A failed run's jobs, logs and annotations, and the re-run of its failed jobs (a CI fix). */
  ciFailureReads(): CiFailureReads;
  /** A repository's reports, transcript artifacts and runs (`compact-agent audit`). */
  auditReads(): OctokitAuditReads;
  /** Starts a workflow_dispatch run (`/agent fanout`). */
  workflowDispatcher(): WorkflowDispatcher;
  /** The pull requests of a branch, opened or edited (a fan-out's land role: give `options.writePacer`). */
  headPullRequests(): HeadPullRequests;
  /** Issues and comments found again by a hidden marker and edited (a fan-out's roll-up). */
  markedPosts(): MarkedPosts;
  /** Another run's artifacts, listed and downloaded (a fan-out's resume). */
  runArtifactDownloads(): RunArtifactDownloads;
}

/**
 * The one place GitHub clients are built, so each gets the same base URL, retry and throttling
 * plugins, write spacing and logger (see resilientOctokit); a stage asks for the client it needs.
 */
export function gitHubClients(connection: GitHubConnection): GitHubClients {
  const { token, repository, apiUrl, options } = connection;
  return {
    api: () => new OctokitGitHubApi(token, repository, apiUrl, options),
    workflowRuns: () => new OctokitWorkflowRuns(token, repository, apiUrl, options),
    workflowRunReads: () => new OctokitWorkflowRunReads(token, repository, apiUrl, options),
    branchProtection: () => new OctokitBranchProtection(token, repository, apiUrl, options),
    reviews: () => new OctokitPullRequestReviews(resilientOctokit(token, apiUrl, options), repository),
    ciFailureReads: () => new OctokitCiFailureReads(token, repository, apiUrl, options),
    auditReads: () => new OctokitAuditReads(token, repository, apiUrl, options),
    workflowDispatcher: () => new OctokitWorkflowDispatcher(token, repository, apiUrl, options),
    headPullRequests: () => new OctokitHeadPullRequests(token, repository, apiUrl, options),
    runArtifactDownloads: () => {
      const runs = new OctokitWorkflowRunReads(token, repository, apiUrl, options);
      const api = new OctokitGitHubApi(token, repository, apiUrl, options);
      return {
        allRunArtifacts: (runId) => runs.allRunArtifacts(runId),
        downloadArtifactZip: (artifactId, maxBytes) => api.downloadArtifactZip(artifactId, maxBytes)
      };
    },
    markedPosts: () => new OctokitMarkedPosts(token, repository, apiUrl, options)
  };
}
