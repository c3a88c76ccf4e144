import { closestInput } from './closest-name.js';
import { DEFAULT_CONFIG_FILE } from './config-file.js';
import { DEPRECATED_INPUTS, MIGRATION_PAGE } from './deprecated-inputs.js';
/**
 * Every input action.yml declares (a test checks the two agree: add a new input to both). The
 * runner passes an input the action does not declare on as well, so a typo such as `max_turn`
 * would otherwise be ignored and the run go on with the default.
 */
export const ACTION_INPUT_NAMES: readonly string[] = [
  // credentials
  'github_token',
  'anthropic_api_key',
  'vertex_access_token',
  // the repository's config file (everything else lives there: docs/config-file.md)
  'config_file',
  // the trigger
  'trigger_phrase',
  'label_trigger',
  'assignee_trigger',
  'allowed_bots',
  'review_on_pull_request',
  // the task
  'prompt',
  'prompt_file',
  'report_issue',
  'json_schema',
  'mcp_config',
  // a fan-out workflow's jobs (docs/fanout.md; the rest is the config file's fanout: block)
  'fanout',
  'fanout_shard',
  'fanout_units',
  'fanout_max_total_usd',
  'fanout_resume',
  // the model and the budget
  'model',
  'provider',
  'max_budget_usd',
  'max_thread_budget_usd',
  'max_turns',
  'timeout_minutes',
  // what a run publishes: differs by workflow (a scheduled refactor opens ready pull requests)
  'base_branch',
  'pr_type'
];

/** What a step may set: the declared inputs, and the old ones that still work this release. */
export const ACCEPTED_INPUT_NAMES: readonly string[] = [...ACTION_INPUT_NAMES, ...DEPRECATED_INPUTS.keys()];

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
  known: readonly string[] = ACCEPTED_INPUT_NAMES
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
  const fileKey = closest === undefined ? unknownKeyHint(given) : '';
  return (
    `${given} is not an input of compact-agent, so it would be ignored.${hint}${fileKey} ` +
    `Correct or remove it under the step's with: (docs/configuration.md lists the inputs, ${MIGRATION_PAGE} the old ones).`
  );
}

/** The variable the runner sets for a declared input. */
function variableOf(name: string): string {
  return `INPUT_${name.replace(/ /g, '_').toUpperCase()}`;
}

/** A with: key that belongs in the config file (`compaction.engine`) says so. */
function unknownKeyHint(given: string): string {
  return /[.]/.test(given) ? ` Keys with a dot belong in ${DEFAULT_CONFIG_FILE}, not under with:.` : '';
}
