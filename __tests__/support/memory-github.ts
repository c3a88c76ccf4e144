import type {
  ChangedFile,
  GitHubApi,
  PullRequestDetails,
  ReactionTarget,
  ThreadComment
} from '../../src/github/api/github-api.js';

/** A pull request as GitHub describes it, with what a test cares about overridden. */
export function aPullRequest(overrides: Partial<PullRequestDetails> = {}): PullRequestDetails {
  return {
    number: 2,
    title: 'Update the README',
    body: '',
    headRef: 'changes',
    headRepoFullName: undefined,
    baseRef: 'main',
    ...overrides
  };
}

/** An in-memory GitHubApi for unit tests; integration tests use the real Octokit and a fake server. */
export class MemoryGitHub implements GitHubApi {
  readonly repository = { owner: 'octo', name: 'repo' };
  readonly permissions = new Map<string, string>();
  readonly comments = new Map<number, { issue: number; body: string }>();
  readonly threadComments: ThreadComment[] = [];
  readonly reactions: Array<ReactionTarget & { content: string }> = [];
  readonly pulls: Array<{ title: string; head: string; base: string; body: string; draft: boolean }> = [];
  readonly edits: Array<{ id: number; body: string }> = [];
  pullRequest: PullRequestDetails | undefined;
  files: ChangedFile[] = [];
  failing = new Set<'createComment' | 'updateComment' | 'createPullRequest'>();
  private nextId = 1000;

  async permission(login: string): Promise<string> {
    return this.permissions.get(login) ?? 'none';
  }
  async addReaction(target: ReactionTarget, content: string): Promise<void> {
    this.reactions.push({ ...target, content });
  }
  async createComment(issue: number, body: string) {
    if (this.failing.has('createComment')) throw new Error('500 createComment');
    const id = this.nextId++;
    this.comments.set(id, { issue, body });
    return { id, url: `https://github.com/octo/repo/issues/${issue}#issuecomment-${id}` };
  }
  async updateComment(id: number, body: string): Promise<void> {
    if (this.failing.has('updateComment')) throw new Error('502 updateComment');
    this.edits.push({ id, body });
    const comment = this.comments.get(id);
    if (comment) comment.body = body;
  }
  async listComments(): Promise<ThreadComment[]> {
    return this.threadComments;
  }
  async getPullRequest(): Promise<PullRequestDetails> {
    if (!this.pullRequest) throw new Error('404 no pull request');
    return this.pullRequest;
  }
  async listPullRequestFiles(): Promise<ChangedFile[]> {
    return this.files;
  }
  async createPullRequest(request: {
    title: string;
    head: string;
    base: string;
    body: string;
    draft: boolean;
  }) {
    if (this.failing.has('createPullRequest')) throw new Error('422 A pull request already exists');
    this.pulls.push(request);
    return { number: 7, url: 'https://github.com/octo/repo/pull/7' };
  }
  readonly pullUpdates: Array<{ number: number; body: string }> = [];
  async updatePullRequest(number: number, update: { body: string }) {
    this.pullUpdates.push({ number, body: update.body });
    return { number, url: `https://github.com/octo/repo/pull/${number}` };
  }
}
