/**
 * JSON answers of the fake GitHub API, shaped like github.com's (typed with Octokit's own response
 * types, so every field the real API always sends is present). `api` is the fake's base URL (the
 * real API's https://api.github.com); web links use https://github.com like the real API.
 */
import { createHash } from 'node:crypto';
import type {
  FakeComment,
  FakeIssue,
  FakePull,
  FakePullFile,
  FakeReaction,
  FakeReview,
  FakeReviewComment,
  FakeUser,
  IssueCommentJson,
  IssueJson,
  Permission,
  PermissionJson,
  PullFileJson,
  PullJson,
  PullRepoJson,
  ReactionContent,
  ReactionJson,
  RepoJson,
  ReviewCommentJson,
  ReviewJson,
  SimpleUserJson,
  UserType
} from './types.js';

export const WEB_URL = 'https://github.com';

/** The GitHub Actions app (github-actions[bot] comments are made through it). */
export const ACTIONS_BOT: FakeUser = { login: 'github-actions[bot]', id: 41898282, type: 'Bot' };
const ACTIONS_APP_ID = 15368;

export interface RepoInfo {
  owner: FakeUser;
  name: string;
  id: number;
  default_branch: string;
  private: boolean;
  description: string | null;
  created_at: string;
}

/** A stable id for a name (FNV-1a), so seeds without ids still answer the same ids every run. */
export function stableId(text: string, min = 1_000_000): number {
  let hash = 0x811c9dc5;
  for (const char of text) {
    hash ^= char.codePointAt(0) ?? 0;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return min + (hash % 900_000_000);
}

/** GitHub's legacy node id: base64 of `0<len>:<Type><id>` (e.g. MDQ6VXNlcjE= for User 1). */
export function nodeId(type: string, id: number): string {
  return Buffer.from(`0${type.length}:${type}${id}`).toString('base64');
}

/** GitHub's timestamp format: ISO 8601 in UTC without milliseconds. */
export function isoSeconds(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export function fakeSha(seed: string): string {
  return createHash('sha1').update(seed).digest('hex');
}

export function userTypeFor(login: string, type?: UserType): UserType {
  return type ?? (login.endsWith('[bot]') ? 'Bot' : 'User');
}

export function userJson(api: string, user: FakeUser): SimpleUserJson {
  const isBot = user.type === 'Bot';
  const login = user.login;
  return {
    login,
    id: user.id,
    node_id: nodeId(isBot ? 'Bot' : user.type === 'Organization' ? 'Organization' : 'User', user.id),
    avatar_url:
      user.id === ACTIONS_BOT.id
        ? `https://avatars.githubusercontent.com/in/${ACTIONS_APP_ID}?v=4`
        : `https://avatars.githubusercontent.com/u/${user.id}?v=4`,
    gravatar_id: '',
    url: `${api}/users/${encodeURIComponent(login)}`,
    html_url: isBot ? `${WEB_URL}/apps/${login.replace(/\[bot\]$/, '')}` : `${WEB_URL}/${login}`,
    followers_url: `${api}/users/${encodeURIComponent(login)}/followers`,
    following_url: `${api}/users/${encodeURIComponent(login)}/following{/other_user}`,
    gists_url: `${api}/users/${encodeURIComponent(login)}/gists{/gist_id}`,
    starred_url: `${api}/users/${encodeURIComponent(login)}/starred{/owner}{/repo}`,
    subscriptions_url: `${api}/users/${encodeURIComponent(login)}/subscriptions`,
    organizations_url: `${api}/users/${encodeURIComponent(login)}/orgs`,
    repos_url: `${api}/users/${encodeURIComponent(login)}/repos`,
    events_url: `${api}/users/${encodeURIComponent(login)}/events{/privacy}`,
    received_events_url: `${api}/users/${encodeURIComponent(login)}/received_events`,
    type: user.type,
    user_view_type: 'public',
    site_admin: false
  };
}

/** The `repository` schema (as in a PR's head.repo and base.repo). */
export function pullRepoJson(api: string, repo: RepoInfo): NonNullable<PullRepoJson> {
  const full = `${repo.owner.login}/${repo.name}`;
  const base = `${api}/repos/${full}`;
  return {
    id: repo.id,
    node_id: nodeId('Repository', repo.id),
    name: repo.name,
    full_name: full,
    private: repo.private,
    owner: userJson(api, repo.owner),
    html_url: `${WEB_URL}/${full}`,
    description: repo.description,
    fork: false,
    url: base,
    forks_url: `${base}/forks`,
    keys_url: `${base}/keys{/key_id}`,
    collaborators_url: `${base}/collaborators{/collaborator}`,
    teams_url: `${base}/teams`,
    hooks_url: `${base}/hooks`,
    issue_events_url: `${base}/issues/events{/number}`,
    events_url: `${base}/events`,
    assignees_url: `${base}/assignees{/user}`,
    branches_url: `${base}/branches{/branch}`,
    tags_url: `${base}/tags`,
    blobs_url: `${base}/git/blobs{/sha}`,
    git_tags_url: `${base}/git/tags{/sha}`,
    git_refs_url: `${base}/git/refs{/sha}`,
    trees_url: `${base}/git/trees{/sha}`,
    statuses_url: `${base}/statuses/{sha}`,
    languages_url: `${base}/languages`,
    stargazers_url: `${base}/stargazers`,
    contributors_url: `${base}/contributors`,
    subscribers_url: `${base}/subscribers`,
    subscription_url: `${base}/subscription`,
    commits_url: `${base}/commits{/sha}`,
    git_commits_url: `${base}/git/commits{/sha}`,
    comments_url: `${base}/comments{/number}`,
    issue_comment_url: `${base}/issues/comments{/number}`,
    contents_url: `${base}/contents/{+path}`,
    compare_url: `${base}/compare/{base}...{head}`,
    merges_url: `${base}/merges`,
    archive_url: `${base}/{archive_format}{/ref}`,
    downloads_url: `${base}/downloads`,
    issues_url: `${base}/issues{/number}`,
    pulls_url: `${base}/pulls{/number}`,
    milestones_url: `${base}/milestones{/number}`,
    notifications_url: `${base}/notifications{?since,all,participating}`,
    labels_url: `${base}/labels{/name}`,
    releases_url: `${base}/releases{/id}`,
    deployments_url: `${base}/deployments`,
    created_at: repo.created_at,
    updated_at: repo.created_at,
    pushed_at: repo.created_at,
    git_url: `git://github.com/${full}.git`,
    ssh_url: `git@github.com:${full}.git`,
    clone_url: `${WEB_URL}/${full}.git`,
    svn_url: `${WEB_URL}/${full}`,
    homepage: null,
    size: 108,
    stargazers_count: 0,
    watchers_count: 0,
    language: 'TypeScript',
    has_issues: true,
    has_projects: true,
    has_downloads: true,
    has_wiki: true,
    has_pages: false,
    has_discussions: false,
    forks_count: 0,
    mirror_url: null,
    archived: false,
    disabled: false,
    open_issues_count: 0,
    license: null,
    allow_forking: true,
    is_template: false,
    web_commit_signoff_required: false,
    topics: [],
    visibility: repo.private ? 'private' : 'public',
    forks: 0,
    open_issues: 0,
    watchers: 0,
    default_branch: repo.default_branch
  };
}

/** `GET /repos/{o}/{r}`: the full repository. */
export function repoJson(api: string, repo: RepoInfo, openIssues: number): RepoJson {
  const short = pullRepoJson(api, repo);
  return {
    ...short,
    open_issues_count: openIssues,
    open_issues: openIssues,
    has_downloads: true,
    has_discussions: false,
    pushed_at: repo.created_at,
    created_at: repo.created_at,
    updated_at: repo.created_at,
    temp_clone_token: '',
    allow_squash_merge: true,
    allow_merge_commit: true,
    allow_rebase_merge: true,
    allow_auto_merge: false,
    delete_branch_on_merge: false,
    allow_update_branch: false,
    use_squash_pr_title_as_default: false,
    squash_merge_commit_message: 'COMMIT_MESSAGES',
    squash_merge_commit_title: 'COMMIT_OR_PR_TITLE',
    merge_commit_message: 'PR_TITLE',
    merge_commit_title: 'MERGE_MESSAGE',
    network_count: 0,
    subscribers_count: 1
  };
}

/** Repository info for a PR head in another repository (a fork), from its full name. */
export function forkRepoInfo(fullName: string, parent: RepoInfo): RepoInfo {
  const [owner = 'unknown', name = parent.name] = fullName.split('/');
  return {
    owner: { login: owner, id: stableId(`user:${owner}`), type: 'User' },
    name,
    id: stableId(`repo:${fullName}`),
    default_branch: parent.default_branch,
    private: parent.private,
    description: parent.description,
    created_at: parent.created_at
  };
}

function repoPaths(api: string, repo: RepoInfo): { apiRepo: string; webRepo: string } {
  const full = `${repo.owner.login}/${repo.name}`;
  return { apiRepo: `${api}/repos/${full}`, webRepo: `${WEB_URL}/${full}` };
}

export type ReactionCounts = Record<ReactionContent, number>;

export function reactionRollup(
  url: string,
  counts: ReactionCounts
): NonNullable<IssueCommentJson['reactions']> {
  const total = Object.values(counts).reduce((sum, n) => sum + n, 0);
  return { url, total_count: total, ...counts };
}

const LABEL_COLORS: Readonly<Record<string, string>> = {
  bug: 'd73a4a',
  documentation: '0075ca',
  duplicate: 'cfd3d7',
  enhancement: 'a2eeef',
  'good first issue': '7057ff',
  'help wanted': '008672',
  invalid: 'e4e669',
  question: 'd876e3',
  wontfix: 'ffffff'
};

function labelJson(
  api: string,
  repo: RepoInfo,
  name: string
): {
  id: number;
  node_id: string;
  url: string;
  name: string;
  description: string | null;
  color: string;
  default: boolean;
} {
  const id = stableId(`label:${repo.owner.login}/${repo.name}:${name}`);
  return {
    id,
    node_id: nodeId('Label', id),
    url: `${repoPaths(api, repo).apiRepo}/labels/${encodeURIComponent(name)}`,
    name,
    description: null,
    color: LABEL_COLORS[name] ?? 'ededed',
    default: name in LABEL_COLORS
  };
}

const ACTIONS_APP = (api: string): NonNullable<IssueCommentJson['performed_via_github_app']> => ({
  id: ACTIONS_APP_ID,
  slug: 'github-actions',
  node_id: 'MDM6QXBwMTUzNjg=',
  owner: userJson(api, { login: 'github', id: 9919, type: 'Organization' }),
  name: 'GitHub Actions',
  description: 'Automate your workflow from idea to production',
  external_url: 'https://help.github.com/en/actions',
  html_url: `${WEB_URL}/apps/github-actions`,
  created_at: '2018-07-30T09:30:17Z',
  updated_at: '2019-12-10T19:04:12Z',
  permissions: {
    actions: 'write',
    checks: 'write',
    contents: 'write',
    issues: 'write',
    metadata: 'read',
    pull_requests: 'write',
    statuses: 'write'
  },
  events: [
    'branch_protection_rule',
    'check_run',
    'check_suite',
    'issue_comment',
    'issues',
    'pull_request',
    'push'
  ]
});

export function issueJson(
  api: string,
  repo: RepoInfo,
  issue: FakeIssue,
  commentCount: number,
  reactions: ReactionCounts,
  pull: FakePull | undefined
): IssueJson {
  const { apiRepo, webRepo } = repoPaths(api, repo);
  const url = `${apiRepo}/issues/${issue.number}`;
  const json: IssueJson = {
    url,
    repository_url: apiRepo,
    labels_url: `${url}/labels{/name}`,
    comments_url: `${url}/comments`,
    events_url: `${url}/events`,
    html_url: `${webRepo}/${issue.isPullRequest ? 'pull' : 'issues'}/${issue.number}`,
    id: issue.id,
    node_id: nodeId(issue.isPullRequest ? 'PullRequest' : 'Issue', issue.id),
    number: issue.number,
    title: issue.title,
    user: userJson(api, issue.user),
    labels: issue.labels.map((name) => labelJson(api, repo, name)),
    state: issue.state,
    locked: issue.locked,
    assignee: null,
    assignees: [],
    milestone: null,
    comments: commentCount,
    created_at: issue.created_at,
    updated_at: issue.updated_at,
    closed_at: issue.state === 'closed' ? issue.updated_at : null,
    author_association: issue.author_association,
    active_lock_reason: null,
    body: issue.body,
    reactions: reactionRollup(`${url}/reactions`, reactions),
    timeline_url: `${url}/timeline`,
    performed_via_github_app: null,
    state_reason: issue.state === 'closed' ? 'completed' : null
  };
  if (issue.isPullRequest) {
    json.draft = pull?.draft ?? false;
    json.pull_request = {
      url: `${apiRepo}/pulls/${issue.number}`,
      html_url: `${webRepo}/pull/${issue.number}`,
      diff_url: `${webRepo}/pull/${issue.number}.diff`,
      patch_url: `${webRepo}/pull/${issue.number}.patch`,
      merged_at: pull?.merged ? pull.updated_at : null
    };
  }
  return json;
}

export function commentJson(
  api: string,
  repo: RepoInfo,
  comment: FakeComment,
  isPullRequest: boolean,
  reactions: ReactionCounts
): IssueCommentJson {
  const { apiRepo, webRepo } = repoPaths(api, repo);
  const url = `${apiRepo}/issues/comments/${comment.id}`;
  return {
    url,
    html_url: `${webRepo}/${isPullRequest ? 'pull' : 'issues'}/${comment.issueNumber}#issuecomment-${comment.id}`,
    issue_url: `${apiRepo}/issues/${comment.issueNumber}`,
    id: comment.id,
    node_id: nodeId('IssueComment', comment.id),
    user: userJson(api, comment.user),
    created_at: comment.created_at,
    updated_at: comment.updated_at,
    author_association: comment.author_association,
    body: comment.body,
    reactions: reactionRollup(`${url}/reactions`, reactions),
    performed_via_github_app: comment.user.id === ACTIONS_BOT.id ? ACTIONS_APP(api) : null
  };
}

/**
 * A review comment. For an outdated comment GitHub answers `line: null` and `position: null`,
 * though its OpenAPI description types both as integer (the contract check allows exactly that).
 */
export type ReviewCommentAnswer = Omit<ReviewCommentJson, 'line' | 'position'> & {
  line: number | null;
  position: number | null;
};

export function reviewCommentJson(
  api: string,
  repo: RepoInfo,
  comment: FakeReviewComment,
  pull: FakePull,
  reactions: ReactionCounts
): ReviewCommentAnswer {
  const { apiRepo, webRepo } = repoPaths(api, repo);
  const url = `${apiRepo}/pulls/comments/${comment.id}`;
  const html = `${webRepo}/pull/${pull.number}#discussion_r${comment.id}`;
  const pullUrl = `${apiRepo}/pulls/${pull.number}`;
  return {
    url,
    pull_request_review_id: comment.reviewId,
    id: comment.id,
    node_id: nodeId('PullRequestReviewComment', comment.id),
    diff_hunk: comment.diffHunk,
    path: comment.path,
    position: comment.position,
    original_position: comment.originalPosition,
    commit_id: comment.commitId,
    original_commit_id: comment.originalCommitId,
    ...(comment.inReplyTo !== undefined ? { in_reply_to_id: comment.inReplyTo } : {}),
    user: userJson(api, comment.user),
    body: comment.body,
    created_at: comment.created_at,
    updated_at: comment.updated_at,
    html_url: html,
    pull_request_url: pullUrl,
    author_association: comment.author_association,
    _links: { self: { href: url }, html: { href: html }, pull_request: { href: pullUrl } },
    start_line: comment.startLine,
    original_start_line: comment.originalStartLine,
    start_side: comment.startSide,
    line: comment.line,
    original_line: comment.originalLine,
    side: comment.side,
    subject_type: 'line',
    reactions: reactionRollup(`${url}/reactions`, reactions)
  };
}

/** A pull request review (`pull-request-review`). */
export function reviewJson(api: string, repo: RepoInfo, review: FakeReview): ReviewJson {
  const { apiRepo, webRepo } = repoPaths(api, repo);
  const html = `${webRepo}/pull/${review.pullNumber}#pullrequestreview-${review.id}`;
  const pullUrl = `${apiRepo}/pulls/${review.pullNumber}`;
  return {
    id: review.id,
    node_id: nodeId('PullRequestReview', review.id),
    user: userJson(api, review.user),
    body: review.body,
    state: review.state,
    html_url: html,
    pull_request_url: pullUrl,
    _links: { html: { href: html }, pull_request: { href: pullUrl } },
    ...(review.submitted_at !== undefined ? { submitted_at: review.submitted_at } : {}),
    commit_id: review.commitId,
    author_association: review.author_association
  };
}

export function reactionJson(api: string, reaction: FakeReaction): ReactionJson {
  return {
    id: reaction.id,
    node_id: nodeId('Reaction', reaction.id),
    user: userJson(api, reaction.user),
    content: reaction.content,
    created_at: reaction.created_at
  };
}

/** The legacy `permission` field: maintain shows as write, triage as read (role_name has the role). */
export function legacyPermission(role: Permission): 'admin' | 'write' | 'read' | 'none' {
  switch (role) {
    case 'admin':
      return 'admin';
    case 'maintain':
    case 'write':
      return 'write';
    case 'triage':
    case 'read':
      return 'read';
    case 'none':
      return 'none';
  }
}

export function permissionJson(api: string, user: FakeUser, role: Permission): PermissionJson {
  const rank = ['none', 'read', 'triage', 'write', 'maintain', 'admin'].indexOf(role);
  return {
    permission: legacyPermission(role),
    role_name: role,
    user: {
      ...userJson(api, user),
      permissions: {
        admin: rank >= 5,
        maintain: rank >= 4,
        push: rank >= 3,
        triage: rank >= 2,
        pull: rank >= 1
      },
      role_name: role
    }
  };
}

export function pullJson(
  api: string,
  repo: RepoInfo,
  pull: FakePull,
  labels: string[],
  commentCount: number,
  reviewCommentCount: number
): PullJson {
  const { apiRepo, webRepo } = repoPaths(api, repo);
  const url = `${apiRepo}/pulls/${pull.number}`;
  const html = `${webRepo}/pull/${pull.number}`;
  const issueUrl = `${apiRepo}/issues/${pull.number}`;
  const headRepoInfo =
    pull.head.repoFullName === null
      ? null
      : pull.head.repoFullName.toLowerCase() === `${repo.owner.login}/${repo.name}`.toLowerCase()
        ? repo
        : forkRepoInfo(pull.head.repoFullName, repo);
  const headOwner = headRepoInfo?.owner ?? pull.user;
  const headRepo = headRepoInfo ? pullRepoJson(api, headRepoInfo) : null;
  if (headRepo && headRepoInfo !== repo) headRepo.fork = true;
  const baseRepo = pullRepoJson(api, repo);
  return {
    url,
    id: pull.id,
    node_id: nodeId('PullRequest', pull.id),
    html_url: html,
    diff_url: `${html}.diff`,
    patch_url: `${html}.patch`,
    issue_url: issueUrl,
    number: pull.number,
    state: pull.state,
    locked: false,
    title: pull.title,
    user: userJson(api, pull.user),
    body: pull.body,
    created_at: pull.created_at,
    updated_at: pull.updated_at,
    closed_at: pull.state === 'closed' ? pull.updated_at : null,
    merged_at: pull.merged ? pull.updated_at : null,
    merge_commit_sha: pull.merged ? fakeSha(`merge:${pull.number}`) : null,
    assignee: null,
    assignees: [],
    requested_reviewers: [],
    requested_teams: [],
    labels: labels.map((name) => labelJson(api, repo, name)),
    milestone: null,
    draft: pull.draft,
    commits_url: `${url}/commits`,
    review_comments_url: `${url}/comments`,
    review_comment_url: `${apiRepo}/pulls/comments{/number}`,
    comments_url: `${issueUrl}/comments`,
    statuses_url: `${apiRepo}/statuses/${pull.head.sha}`,
    // A deleted fork leaves head.repo null (the type says otherwise; the API does it anyway).
    head: {
      label: `${headOwner.login}:${pull.head.ref}`,
      ref: pull.head.ref,
      sha: pull.head.sha,
      user: userJson(api, headOwner),
      repo: headRepo as NonNullable<PullRepoJson>
    },
    base: {
      label: `${repo.owner.login}:${pull.base.ref}`,
      ref: pull.base.ref,
      sha: pull.base.sha,
      user: userJson(api, repo.owner),
      repo: baseRepo
    },
    _links: {
      self: { href: url },
      html: { href: html },
      issue: { href: issueUrl },
      comments: { href: `${issueUrl}/comments` },
      review_comments: { href: `${url}/comments` },
      review_comment: { href: `${apiRepo}/pulls/comments{/number}` },
      commits: { href: `${url}/commits` },
      statuses: { href: `${apiRepo}/statuses/${pull.head.sha}` }
    },
    author_association: pull.author_association,
    auto_merge: null,
    active_lock_reason: null,
    merged: pull.merged,
    mergeable: pull.state === 'open' ? true : null,
    rebaseable: pull.state === 'open' ? true : null,
    mergeable_state: pull.state === 'open' ? (pull.draft ? 'draft' : 'clean') : 'unknown',
    merged_by: null,
    comments: commentCount,
    review_comments: reviewCommentCount,
    maintainer_can_modify: pull.maintainer_can_modify,
    commits: 1,
    additions: pull.files.reduce((sum, f) => sum + f.additions, 0),
    deletions: pull.files.reduce((sum, f) => sum + f.deletions, 0),
    changed_files: pull.files.length
  };
}

export function pullFileJson(api: string, repo: RepoInfo, pull: FakePull, file: FakePullFile): PullFileJson {
  const { apiRepo, webRepo } = repoPaths(api, repo);
  const path = file.filename.split('/').map(encodeURIComponent).join('/');
  const json: PullFileJson = {
    sha: file.sha,
    filename: file.filename,
    status: file.status,
    additions: file.additions,
    deletions: file.deletions,
    changes: file.additions + file.deletions,
    blob_url: `${webRepo}/blob/${pull.head.sha}/${path}`,
    raw_url: `${webRepo}/raw/${pull.head.sha}/${path}`,
    contents_url: `${apiRepo}/contents/${path}?ref=${pull.head.sha}`
  };
  if (file.patch !== undefined) json.patch = file.patch;
  if (file.previous_filename !== undefined) json.previous_filename = file.previous_filename;
  return json;
}
