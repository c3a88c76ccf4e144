import { parseBooleanInput } from './boolean-input.js';
import { branchNameProblem } from './branch-name.js';
import {
  ACTION_INPUT_NAMING,
  INPUT_DEFAULTS,
  InputError,
  parseAgentConfig,
  type AgentConfig,
  type InputNaming,
  type InputReader
} from './inputs.js';
import { LIMIT_DEFAULTS, readLimitSettings, type LimitSettings } from './thread-budget-input.js';
import { readCiFixSettings, type CiFixSettings } from './ci-fix-settings.js';
import { readThreadWorkflows } from './thread-workflows-input.js';
import { readFanoutSettings, readFanoutWorkflow, type FanoutSettings } from './fanout-inputs.js';

export type PullRequestType = 'draft' | 'ready' | 'branch';

/**
 * The inputs of the GitHub round trip: who may start a run, where its work and report go, and what
 * a thread may spend across its follow-ups.
 */
export interface GitHubSettings extends LimitSettings {
  readonly token: string;
  readonly triggerPhrase: string;
  readonly labelTrigger: string | undefined;
  readonly assigneeTrigger: string | undefined;
  readonly allowedBots: readonly string[];
  readonly branchPrefix: string;
  /**
   * The branch new agent branches start from and their pull requests target; undefined means the
   * repository's default branch. Not used when the run works on a pull request's own branch.
   */
  readonly baseBranch: string | undefined;
  /** Reuse the action's earlier report comment on the thread instead of posting a new one. */
  readonly useStickyComment: boolean;
  /** A one-line reply mentioning the requester when the run ends: the report is an edit, and GitHub notifies no one of an edit. */
  readonly notifyRequester: boolean;
  readonly pullRequestType: PullRequestType;
  readonly reportIssue: number | undefined;
  readonly promptFile: string | undefined;
  readonly transcriptRetentionDays: number | undefined;
  /** Commits are authored as this identity; comments by `botName` never start a run. */
  readonly botName: string;
  readonly botEmail: string;
  /** Tokens of issue or PR thread the model is given. */
  readonly contextBudgetTokens: number;
  /** Whether comments by people without write access reach the model (as data). */
  readonly includeUntrustedComments: boolean;
  /** Every task on a thread starts as a plan run; `/agent go` carries the plan out. */
  readonly requirePlanApproval: boolean;
  /** pull_request opened, ready_for_review and synchronize start a review run. */
  readonly reviewOnPullRequest: boolean;
  /** What a review with new findings is posted as (a review never approves). */
  readonly reviewEvent: 'COMMENT' | 'REQUEST_CHANGES';
  /** Publish gitlinks and `.gitmodules` the run added or changed; off, they are withheld (git runs a submodule's settings). */
  readonly allowSubmoduleChanges: boolean;
  /** How far a CI fix (a failed workflow_run on a pull request) may go: the config file's `ci_fix:` block. */
  readonly ciFix: CiFixSettings;
  /** Workflow file paths (`.github/workflows/agent.yml`) whose runs share a thread's states, claims and spend with this one. */
  readonly threadWorkflows: readonly string[];
  /** The fan-out workflow `/agent fanout` dispatches (`fanout.workflow`), as `.github/workflows/<file>`. */
  readonly fanoutWorkflow: string;
}

export interface ActionConfig {
  readonly agent: AgentConfig;
  readonly github: GitHubSettings;
  /** The job's role in a fan-out workflow (the `fanout` input); undefined for an ordinary run. */
  readonly fanout?: FanoutSettings | undefined;
}

export const GITHUB_DEFAULTS = {
  trigger_phrase: '/agent',
  branch_prefix: 'agent/',
  pr_type: 'draft',
  bot_name: 'github-actions[bot]',
  bot_email: '41898282+github-actions[bot]@users.noreply.github.com',
  context_budget_tokens: 8_000,
  use_sticky_comment: false,
  notify_requester: true,
  include_untrusted_comments: false,
  require_plan_approval: false,
  review_on_pull_request: false,
  review_event: 'comment',
  allow_submodule_changes: false,
  ...LIMIT_DEFAULTS
} as const;

/** All the action's inputs, checked together: every problem is reported at once, before any call. */
export function parseActionConfig(
  read: InputReader,
  env: NodeJS.ProcessEnv,
  naming: InputNaming = ACTION_INPUT_NAMING
): ActionConfig {
  const problems: string[] = [];
  const fanout = readFanoutSettings(read, naming, problems);
  let agent: AgentConfig | undefined;
  try {
    agent = parseAgentConfig(read, env, naming, fanout === undefined || fanout.role === 'shard');
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    problems.push(...error.problems);
  }
  const github: GitHubSettings = {
    ...readGitHubSettings(read, env, problems, naming),
    ...readLimitSettings(read, problems, agent?.limits.maxBudgetUsd ?? INPUT_DEFAULTS.max_budget_usd)
  };
  if (problems.length > 0 || !agent) throw new InputError(problems);
  return { agent, github, ...(fanout ? { fanout } : {}) };
}

function readGitHubSettings(
  read: InputReader,
  env: NodeJS.ProcessEnv,
  problems: string[],
  naming: InputNaming
): Omit<GitHubSettings, keyof LimitSettings> {
  const token = read('github_token').trim() || env.GITHUB_TOKEN?.trim() || '';
  if (token === '')
    problems.push('No GitHub token: set the input github_token (its default is `${{ github.token }}`).');
  const pullRequestType = (read('pr_type').trim() || GITHUB_DEFAULTS.pr_type) as PullRequestType;
  if (!['draft', 'ready', 'branch'].includes(pullRequestType)) {
    problems.push(`pr_type must be draft, ready or branch, got "${pullRequestType}".`);
  }
  const triggerPhrase = read('trigger_phrase').trim() || GITHUB_DEFAULTS.trigger_phrase;
  if (/\s/.test(triggerPhrase)) problems.push(`trigger_phrase must be one word, got "${triggerPhrase}".`);
  const branchPrefix = read('branch_prefix').trim() || GITHUB_DEFAULTS.branch_prefix;
  if (!/^[A-Za-z0-9._/-]*$/.test(branchPrefix) || branchPrefix.includes('..')) {
    problems.push(`branch_prefix may hold letters, digits, '.', '_', '-' and '/', got "${branchPrefix}".`);
  }
  const baseBranch = read('base_branch').trim() || undefined;
  const baseBranchProblem = baseBranch === undefined ? undefined : branchNameProblem(baseBranch);
  if (baseBranchProblem !== undefined) {
    problems.push(
      `base_branch must be the name of a branch (e.g. develop), got "${baseBranch}": ${baseBranchProblem}. ` +
        "Leave it empty to start from the repository's default branch."
    );
  }
  return {
    token,
    triggerPhrase,
    labelTrigger: read('label_trigger').trim() || undefined,
    assigneeTrigger: read('assignee_trigger').trim().replace(/^@/, '') || undefined,
    allowedBots: read('allowed_bots')
      .split(/[\s,]+/)
      .filter((name) => name !== ''),
    branchPrefix,
    baseBranch,
    useStickyComment: booleanInput(read, 'use_sticky_comment', GITHUB_DEFAULTS.use_sticky_comment, problems),
    notifyRequester: booleanInput(read, 'notify_requester', GITHUB_DEFAULTS.notify_requester, problems),
    pullRequestType,
    reportIssue: positiveInteger(read, 'report_issue', problems),
    promptFile: read('prompt_file').trim() || undefined,
    transcriptRetentionDays: positiveInteger(read, 'transcript_retention_days', problems),
    botName: read('bot_name').trim() || GITHUB_DEFAULTS.bot_name,
    botEmail: read('bot_email').trim() || GITHUB_DEFAULTS.bot_email,
    contextBudgetTokens:
      positiveInteger(read, 'context_budget_tokens', problems) ?? GITHUB_DEFAULTS.context_budget_tokens,
    includeUntrustedComments: booleanInput(
      read,
      'include_untrusted_comments',
      GITHUB_DEFAULTS.include_untrusted_comments,
      problems
    ),
    requirePlanApproval: booleanInput(
      read,
      'require_plan_approval',
      GITHUB_DEFAULTS.require_plan_approval,
      problems
    ),
    reviewOnPullRequest: booleanInput(
      read,
      'review_on_pull_request',
      GITHUB_DEFAULTS.review_on_pull_request,
      problems
    ),
    reviewEvent: reviewEvent(read, problems),
    allowSubmoduleChanges: booleanInput(
      read,
      'allow_submodule_changes',
      GITHUB_DEFAULTS.allow_submodule_changes,
      problems
    ),
    ciFix: readCiFixSettings(read, problems),
    threadWorkflows: readThreadWorkflows(read, problems),
    fanoutWorkflow: readFanoutWorkflow(read, naming.nameOf, problems)
  };
}

/** A review may request changes when an input says so; it never approves (an agent's review is no sign-off). */
function reviewEvent(read: InputReader, problems: string[]): GitHubSettings['reviewEvent'] {
  const raw = read('review_event').trim().toLowerCase() || GITHUB_DEFAULTS.review_event;
  if (raw === 'comment') return 'COMMENT';
  if (raw === 'request_changes') return 'REQUEST_CHANGES';
  problems.push(
    `review_event must be comment or request_changes, got "${read('review_event').trim()}"` +
      (raw === 'approve' ? ': compact-agent does not approve pull requests, a person does.' : '.')
  );
  return 'COMMENT';
}

/** An on/off input; a bad value is a problem (the run does not start), so the fallback is never used. */
function booleanInput(read: InputReader, name: string, fallback: boolean, problems: string[]): boolean {
  return parseBooleanInput(read(name), name, fallback, problems) ?? fallback;
}

function positiveInteger(read: InputReader, name: string, problems: string[]): number | undefined {
  const raw = read(name).trim();
  if (raw === '') return undefined;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) {
    problems.push(`${name} must be a positive whole number, got "${raw}".`);
    return undefined;
  }
  return value;
}

/**
 * A dispatched or scheduled run has no comment or issue to take its task from: without `prompt` or
 * `prompt_file` it can do nothing, and that is a mistake in the workflow, not a reason to end green.
 */
export function missingPromptProblem(eventName: string, read: InputReader): string | undefined {
  if (eventName !== 'workflow_dispatch' && eventName !== 'schedule') return undefined;
  if (read('prompt').trim() !== '' || read('prompt_file').trim() !== '') return undefined;
  const example =
    eventName === 'workflow_dispatch'
      ? 'e.g. prompt: ${{ inputs.task }}, with a task input under on: workflow_dispatch: inputs:'
      : 'e.g. prompt_file: .github/agent/weekly.md';
  return (
    `A ${eventName} run needs a task, and prompt and prompt_file are both unset or empty. ` +
    `Pass one under the step's with: (${example}).`
  );
}
