/**
 * The keys of the repository config file (.github/compact-agent.yml), one row each: where it sits
 * in the file, the setting it feeds (by the name the parsers in this folder read it, which is also
 * the old input's name) and its type. The JSON Schema (config-schema.ts), the file reader, the
 * deprecation warnings and the docs are all built from this table, so they cannot drift apart.
 */
export type FileKeyType =
  | { readonly kind: 'string' }
  | { readonly kind: 'enum'; readonly values: readonly string[] }
  | { readonly kind: 'integer'; readonly minimum: number }
  | { readonly kind: 'number' }
  | { readonly kind: 'boolean' }
  | { readonly kind: 'list' };

export interface FileKey {
  /** Its place in the file: `model.max_output_tokens` is `max_output_tokens:` under `model:`. */
  readonly path: string;
  /** The setting it feeds, by the name the parsers read (and the action input it replaces). */
  readonly setting: string;
  readonly type: FileKeyType;
  readonly description: string;
  /** For a list: the word an empty list stands for (`[]` of instruction files reads none). */
  readonly emptyList?: string;
  /** The default, when the code has a fixed one (the schema shows it to editors). */
  readonly default?: string | number | boolean | readonly string[];
}

/** The blocks of the file, in the order the docs and the example show them. */
export const FILE_BLOCKS = [
  'model',
  'limits',
  'compaction',
  'tools',
  'sandbox',
  'review',
  'thread',
  'publish',
  'ci_fix',
  'fanout'
] as const;

const text = { kind: 'string' } as const;
const number = { kind: 'number' } as const;
const flag = { kind: 'boolean' } as const;
const list = { kind: 'list' } as const;
const count = { kind: 'integer', minimum: 0 } as const;
const positive = { kind: 'integer', minimum: 1 } as const;

export const FILE_KEYS: readonly FileKey[] = [
  // model
  {
    path: 'model.name',
    setting: 'model',
    type: text,
    description: 'Model id or alias from the model catalogue.',
    default: 'claude-sonnet-5-5'
  },
  {
    path: 'model.provider',
    setting: 'provider',
    type: { kind: 'enum', values: ['anthropic', 'bedrock', 'vertex'] },
    description: 'Where the model runs: the Claude API, Amazon Bedrock or Google Vertex AI.',
    default: 'anthropic'
  },
  {
    path: 'model.effort',
    setting: 'effort',
    type: { kind: 'enum', values: ['low', 'medium', 'high', 'xhigh', 'max'] },
    description: "output_config.effort, for models with effort levels; unset keeps the model's default."
  },
  {
    path: 'model.max_output_tokens',
    setting: 'max_output_tokens',
    type: positive,
    description: 'max_tokens of each model turn (thinking counts against it).',
    default: 16384
  },
  {
    path: 'model.context_window',
    setting: 'context_window',
    type: positive,
    description: "Overrides the catalogue's context window (tokens)."
  },
  {
    path: 'model.prices.input',
    setting: 'input_price_per_mtok',
    type: number,
    description: 'Input price override, USD per million tokens.'
  },
  {
    path: 'model.prices.output',
    setting: 'output_price_per_mtok',
    type: number,
    description: 'Output price override, USD per million tokens.'
  },
  {
    path: 'model.prices.cache_write',
    setting: 'cache_write_price_per_mtok',
    type: number,
    description: '5-minute cache-write price override, USD per million tokens.'
  },
  {
    path: 'model.prices.cache_write_1h',
    setting: 'cache_write_1h_price_per_mtok',
    type: number,
    description: '1-hour cache-write price override, USD per million tokens.'
  },
  {
    path: 'model.prices.cache_read',
    setting: 'cache_read_price_per_mtok',
    type: number,
    description: 'Cache-read price override, USD per million tokens.'
  },
  {
    path: 'model.aws_region',
    setting: 'aws_region',
    type: text,
    description: 'The Bedrock region (default AWS_REGION, then AWS_DEFAULT_REGION).'
  },
  {
    path: 'model.vertex_project_id',
    setting: 'vertex_project_id',
    type: text,
    description: 'The Google Cloud project (default ANTHROPIC_VERTEX_PROJECT_ID, then GOOGLE_CLOUD_PROJECT).'
  },
  {
    path: 'model.vertex_region',
    setting: 'vertex_region',
    type: text,
    description: 'The Vertex AI region, e.g. global or us-east5 (default CLOUD_ML_REGION).'
  },
  {
    path: 'model.api_max_retries',
    setting: 'api_max_retries',
    type: count,
    description: 'Retries of a failed model request, with backoff.',
    default: 4
  },
  {
    path: 'model.api_stall_timeout_seconds',
    setting: 'api_stall_timeout_seconds',
    type: number,
    description: 'A response stream with no event for this long is dropped and retried.',
    default: 120
  },
  // limits
  {
    path: 'limits.max_budget_usd',
    setting: 'max_budget_usd',
    type: number,
    description: 'Stop once the run has cost this much (USD).',
    default: 10
  },
  {
    path: 'limits.max_thread_budget_usd',
    setting: 'max_thread_budget_usd',
    type: number,
    description:
      'The most one thread (a run and its follow-ups) may cost in all (USD); unset: 5 x max_budget_usd.'
  },
  {
    path: 'limits.max_turns',
    setting: 'max_turns',
    type: positive,
    description: 'Stop after this many model turns.',
    default: 200
  },
  {
    path: 'limits.timeout_minutes',
    setting: 'timeout_minutes',
    type: number,
    description: 'Stop after this many minutes.',
    default: 60
  },
  {
    path: 'limits.fail_on_limit',
    setting: 'fail_on_limit',
    type: flag,
    description: 'Whether a run that stops at a limit fails the step.',
    default: false
  },
  // compaction
  {
    path: 'compaction.engine',
    setting: 'compaction_engine',
    type: { kind: 'enum', values: ['client', 'api', 'auto'] },
    description: "Who writes the summaries: client (ours), api (the API's compaction) or auto.",
    default: 'client'
  },
  {
    path: 'compaction.threshold_tokens',
    setting: 'compaction_threshold_tokens',
    type: positive,
    description: "Auto-compaction threshold (default from the model's prices and context window)."
  },
  {
    path: 'compaction.micro_keep_recent',
    setting: 'micro_keep_recent',
    type: count,
    description: 'Most recent tool results micro-compaction never clears.',
    default: 2
  },
  {
    path: 'compaction.micro_by',
    setting: 'micro_by',
    type: { kind: 'enum', values: ['client', 'server'] },
    description:
      "Who clears old tool results: client (ours, cheapest) or server (the API's context editing, keeps the model's reasoning).",
    default: 'server'
  },
  {
    path: 'compaction.micro_clear_at_least',
    setting: 'micro_clear_at_least',
    type: count,
    description: 'Micro-compaction clears only once this many tokens are clearable.'
  },
  {
    path: 'compaction.micro_preserve_tools',
    setting: 'micro_preserve_tools',
    type: list,
    description: 'Tools whose results are never cleared.'
  },
  {
    path: 'compaction.keep_tail',
    setting: 'compaction_keep_tail',
    type: count,
    description: 'Token budget of recent messages kept verbatim after an auto-compaction.'
  },
  {
    path: 'compaction.restore_recent_files',
    setting: 'restore_recent_files',
    type: count,
    description: 'Recently read files re-read into the history after an auto-compaction.',
    default: 5
  },
  {
    path: 'compaction.max_compactions',
    setting: 'max_compactions',
    type: count,
    description: 'Summary compactions per run; past it, the oldest turns are dropped.',
    default: 50
  },
  // tools
  {
    path: 'tools.allowed',
    setting: 'allowed_tools',
    type: list,
    description: 'Offer the model only these tools (bash, read_file, ..., mcp__<server>__<tool>).'
  },
  {
    path: 'tools.disallowed',
    setting: 'disallowed_tools',
    type: list,
    description: 'Never offer these tools; wins over tools.allowed.'
  },
  {
    path: 'tools.allowed_bash_commands',
    setting: 'allowed_bash_commands',
    type: list,
    description: 'Bash may run only commands that start with one of these prefixes.'
  },
  {
    path: 'tools.disallowed_bash_commands',
    setting: 'disallowed_bash_commands',
    type: list,
    description: 'Bash never runs commands that start with one of these prefixes (a guard, not a boundary).'
  },
  {
    path: 'tools.bash_timeout_seconds',
    setting: 'bash_timeout_seconds',
    type: number,
    description: 'Default timeout of one bash command.',
    default: 120
  },
  {
    path: 'tools.bash_env_passthrough',
    setting: 'bash_env_passthrough',
    type: list,
    description: 'Extra environment variables the bash tool may see.'
  },
  {
    path: 'tools.instruction_files',
    setting: 'instruction_files',
    type: list,
    description: "The repository's instruction files read into the system prompt; [] reads none.",
    emptyList: 'none',
    default: ['AGENTS.md', 'CLAUDE.md', '.github/copilot-instructions.md']
  },
  // sandbox
  {
    path: 'sandbox.mode',
    setting: 'sandbox',
    type: { kind: 'enum', values: ['auto', 'required', 'off'] },
    description: 'auto: the box where the runner allows it; required: no box, no run; off: no box.',
    default: 'auto'
  },
  {
    path: 'sandbox.hosts',
    setting: 'sandbox_hosts',
    type: list,
    description:
      'Hosts the box may reach over HTTP(S): host, host:port, *.example.com, or an IP with its port; ' +
      '`defaults` stands for the default package registries; [] means no network at all.',
    emptyList: 'none',
    default: ['defaults']
  },
  // review
  {
    path: 'review.on_pull_request',
    setting: 'review_on_pull_request',
    type: flag,
    description: 'Review a pull request when it is opened, reopened, marked ready or pushed to.',
    default: false
  },
  {
    path: 'review.event',
    setting: 'review_event',
    type: { kind: 'enum', values: ['comment', 'request_changes'] },
    description: 'What a review with new findings is posted as (a review never approves).',
    default: 'comment'
  },
  // thread
  {
    path: 'thread.context_budget_tokens',
    setting: 'context_budget_tokens',
    type: positive,
    description: 'Tokens of the issue or pull request thread given to the model.',
    default: 8000
  },
  {
    path: 'thread.include_untrusted_comments',
    setting: 'include_untrusted_comments',
    type: flag,
    description: 'Give the model comments by people without write access too (as data).',
    default: false
  },
  {
    path: 'thread.use_sticky_comment',
    setting: 'use_sticky_comment',
    type: flag,
    description: "Edit the action's earlier report comment instead of posting a new one.",
    default: false
  },
  {
    path: 'thread.notify_requester',
    setting: 'notify_requester',
    type: flag,
    description: 'Post a one-line reply mentioning who asked when a run ends.',
    default: true
  },
  {
    path: 'thread.require_plan_approval',
    setting: 'require_plan_approval',
    type: flag,
    description: 'Start every task with a read-only plan run; `/agent go` carries it out.',
    default: false
  },
  {
    path: 'thread.workflows',
    setting: 'thread_workflows',
    type: list,
    description:
      "Workflow files (in .github/workflows/) whose runs share a thread's states, claims and spend, " +
      'e.g. [agent.yml, fix-ci.yml]; the running workflow always counts, and unset it counts alone.'
  },
  // publish
  {
    path: 'publish.branch_prefix',
    setting: 'branch_prefix',
    type: text,
    description: 'Prefix of the branches the action creates.',
    default: 'agent/'
  },
  {
    path: 'publish.base_branch',
    setting: 'base_branch',
    type: text,
    description: "The branch new agent branches start from (default the repository's default branch)."
  },
  {
    path: 'publish.pr_type',
    setting: 'pr_type',
    type: { kind: 'enum', values: ['draft', 'ready', 'branch'] },
    description: 'draft, ready (a pull request) or branch (push only).',
    default: 'draft'
  },
  {
    path: 'publish.bot_name',
    setting: 'bot_name',
    type: text,
    description: "Author name of the action's commits; comments by this login never start a run.",
    default: 'github-actions[bot]'
  },
  {
    path: 'publish.bot_email',
    setting: 'bot_email',
    type: text,
    description: "Author email of the action's commits.",
    default: '41898282+github-actions[bot]@users.noreply.github.com'
  },
  {
    path: 'publish.allow_workflow_changes',
    setting: 'allow_workflow_changes',
    type: flag,
    description: 'Let the agent change .github/workflows/ (workflows run with the secrets).',
    default: false
  },
  {
    path: 'publish.allow_submodule_changes',
    setting: 'allow_submodule_changes',
    type: flag,
    description: 'Publish the submodules the agent added or changed.',
    default: false
  },
  {
    path: 'publish.transcript_retention_days',
    setting: 'transcript_retention_days',
    type: positive,
    description: "Retention of the transcript artifact (default the repository's setting)."
  },
  // ci_fix
  {
    path: 'ci_fix.max_attempts',
    setting: 'ci_fix_max_attempts',
    type: count,
    description:
      'CI fix runs per pull request (a failed workflow_run on it starts one); 0 turns CI fixing off.',
    default: 2
  },
  {
    path: 'ci_fix.label',
    setting: 'ci_fix_label',
    type: text,
    description:
      'The label that lets compact-agent fix the CI of a pull request it did not open (its own are fixed without one).',
    default: 'agent-fix-ci'
  },
  {
    path: 'ci_fix.rerun_first',
    setting: 'ci_fix_rerun_first',
    type: flag,
    description:
      'Re-run the failed jobs once before a fix: a flaky failure that passes then costs no model run.',
    default: true
  },
  // fanout (docs/fanout.md): the plan job's settings; the fan-out workflow's inputs win over them
  {
    path: 'fanout.units',
    setting: 'fanout_units',
    type: text,
    description:
      'A command printing one path per line, the units of work (e.g. git grep -l oldApi -- src); the input fanout_units wins.'
  },
  {
    path: 'fanout.globs',
    setting: 'fanout_globs',
    type: list,
    description: 'Or: glob patterns of the files that are the units, e.g. [src/**/*.ts].'
  },
  {
    path: 'fanout.packages',
    setting: 'fanout_packages',
    type: flag,
    description: 'Or: the units are the workspace\'s packages (package.json "workspaces").',
    default: false
  },
  {
    path: 'fanout.group_by',
    setting: 'fanout_group_by',
    type: { kind: 'enum', values: ['count', 'folder', 'size', 'owner'] },
    description:
      'How units are grouped into shards: consecutive units, one folder at a time, about the same bytes each, or by CODEOWNERS owner.',
    default: 'count'
  },
  {
    path: 'fanout.shard_size',
    setting: 'fanout_shard_size',
    type: positive,
    description: 'Units per shard.',
    default: 10
  },
  {
    path: 'fanout.max_total_usd',
    setting: 'fanout_max_total_usd',
    type: number,
    description:
      'The cap for all shards together, split among them in advance; the input fanout_max_total_usd wins. One of the two is required.'
  },
  {
    path: 'fanout.validate',
    setting: 'fanout_validate',
    type: text,
    description: "A command run in the box in the shard's checkout after its agent; exit 0 passes."
  },
  {
    path: 'fanout.validate_retries',
    setting: 'fanout_validate_retries',
    type: count,
    description: 'Times a failing validation goes back to the agent with its errors.',
    default: 1
  },
  {
    path: 'fanout.land',
    setting: 'fanout_land',
    type: { kind: 'enum', values: ['per-shard', 'combined', 'per-owner'] },
    description: 'One pull request per shard, one combined pull request, or one per CODEOWNERS owner.',
    default: 'per-shard'
  },
  {
    path: 'fanout.pilot',
    setting: 'fanout_pilot',
    type: positive,
    description:
      'The first N shards are the pilot: the plan funds them first (docs/fanout.md shows how a protected environment holds the sweep for approval).'
  },
  {
    path: 'fanout.workflow',
    setting: 'fanout_workflow',
    type: text,
    description: 'The fan-out workflow file in .github/workflows/ that `/agent fanout` dispatches.',
    default: 'fanout.yml'
  }
];

/** The row of a setting, by the name the parsers read; undefined for an input the file cannot set. */
export function fileKeyOf(setting: string): FileKey | undefined {
  return FILE_KEYS.find((key) => key.setting === setting);
}
