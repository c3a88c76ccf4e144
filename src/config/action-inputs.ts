/**
 * Every input action.yml declares (a test checks the two agree: add a new input to both). The
 * runner passes an input the action does not declare on as well, so a typo such as `max_turn`
 * would otherwise be ignored and the run go on with the default.
 */
export const ACTION_INPUT_NAMES: readonly string[] = [
  'github_token',
  'trigger_phrase',
  'label_trigger',
  'assignee_trigger',
  'allowed_bots',
  'prompt',
  'prompt_file',
  'report_issue',
  'branch_prefix',
  'base_branch',
  'pr_type',
  'bot_name',
  'bot_email',
  'use_sticky_comment',
  'notify_requester',
  'require_plan_approval',
  'review_on_pull_request',
  'review_event',
  'context_budget_tokens',
  'include_untrusted_comments',
  'allow_workflow_changes',
  'allow_submodule_changes',
  'transcript_retention_days',
  'anthropic_api_key',
  'use_bedrock',
  'aws_region',
  'use_vertex',
  'vertex_project_id',
  'vertex_region',
  'vertex_access_token',
  'model',
  'effort',
  'max_output_tokens',
  'context_window',
  'input_price_per_mtok',
  'output_price_per_mtok',
  'cache_write_price_per_mtok',
  'cache_write_1h_price_per_mtok',
  'cache_read_price_per_mtok',
  'max_turns',
  'timeout_minutes',
  'max_budget_usd',
  'max_thread_budget_usd',
  'fail_on_limit',
  'api_max_retries',
  'api_stall_timeout_seconds',
  'bash_timeout_seconds',
  'bash_env_passthrough',
  'sandbox',
  'sandbox_network',
  'sandbox_allow_hosts',
  'sandbox_default_hosts',
  'mcp_config',
  'allowed_tools',
  'disallowed_tools',
  'allowed_bash_commands',
  'disallowed_bash_commands',
  'instruction_files',
  'json_schema',
  'compaction_threshold_tokens',
  'micro_keep_recent',
  'micro_clear_at_least',
  'micro_preserve_tools',
  'compaction_keep_tail',
  'restore_recent_files',
  'max_compactions',
  'compaction_engine'
];

/**
 * The `with:` keys of the step that are not inputs of this action, one problem each, naming the
 * closest known input when there is one.
 *
 * The runner sets `INPUT_<NAME>` for every `with:` key and every declared default: the name
 * upper-cased, spaces replaced by `_`, hyphens kept ("Metadata syntax for GitHub Actions", inputs:
 * https://docs.github.com/en/actions/creating-actions/metadata-syntax-for-github-actions, read
 * 2026-11-25). For an undeclared key it only logs a warning, "Unexpected input(s) 'max_turn',
 * valid inputs are [...]" (actions/runner#429, runner v2.262.1, 2020), and runs the step anyway:
 * the job ends green with the default in force. So the action checks for itself.
 */
export function unknownInputProblems(
  env: NodeJS.ProcessEnv,
  known: readonly string[] = ACTION_INPUT_NAMES
): string[] {
  const declared = new Set(known.map(variableOf));
  return Object.keys(env)
    .filter((key) => key.startsWith('INPUT_') && !declared.has(key))
    .sort()
    .map((key) => unknownInputMessage(key.slice('INPUT_'.length).toLowerCase(), known));
}

function unknownInputMessage(given: string, known: readonly string[]): string {
  const closest = closestInput(given, known);
  const hint = closest === undefined ? '' : ` Did you mean ${closest}?`;
  return (
    `${given} is not an input of compact-agent, so it would be ignored.${hint} ` +
    'Correct or remove it under the step\'s with: (README, "Inputs", lists them all).'
  );
}

/** The variable the runner sets for a declared input. */
function variableOf(name: string): string {
  return `INPUT_${name.replace(/ /g, '_').toUpperCase()}`;
}

/**
 * The known input nearest `given` in edit distance, with `-` and `_` counted alike (`max-turns`
 * is `max_turns` misspelled); none when even the nearest differs in more than a third of it.
 */
export function closestInput(given: string, known: readonly string[]): string | undefined {
  const wanted = given.replace(/-/g, '_');
  let best: { name: string; distance: number } | undefined;
  for (const name of known) {
    const distance = editDistance(wanted, name);
    if (best === undefined || distance < best.distance) best = { name, distance };
  }
  const allowed = Math.max(2, Math.floor(wanted.length / 3));
  return best !== undefined && best.distance <= allowed ? best.name : undefined;
}

/** Levenshtein distance: insertions, deletions and substitutions, one each. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min(previous[j]! + 1, current[j - 1]! + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length]!;
}
