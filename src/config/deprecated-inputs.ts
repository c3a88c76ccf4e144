import { FILE_KEYS, fileKeyOf } from './config-file-keys.js';
import { DEFAULT_CONFIG_FILE } from './config-file.js';

/** The page that says, for each old input, what to write instead. */
export const MIGRATION_PAGE = 'docs/migration.md';

/**
 * The inputs action.yml no longer declares (issue 34 moved them into the config file's blocks).
 * They still work for one release: the runner passes an undeclared `with:` key on as INPUT_<NAME>
 * (with its own "Unexpected input" warning), the parsers read it as before, and each one set gets
 * a warning naming what replaces it.
 */
const REPLACED_BY_SPECIAL_KEYS: Readonly<Record<string, string>> = {
  use_bedrock: 'provider: bedrock (the input provider, or model.provider in the file)',
  use_vertex: 'provider: vertex (the input provider, or model.provider in the file)',
  sandbox_network: 'sandbox.hosts in the file ([] for no network)',
  sandbox_allow_hosts: 'sandbox.hosts in the file (the hosts, plus defaults for the default list)',
  sandbox_default_hosts: 'sandbox.hosts in the file (list defaults, or leave it out)'
};

/** The inputs still declared in action.yml that the file can set too (`with:` wins over the file). */
export const INPUTS_ALSO_IN_FILE: readonly string[] = [
  'model',
  'provider',
  'max_budget_usd',
  'max_thread_budget_usd',
  'max_turns',
  'timeout_minutes',
  'base_branch',
  'pr_type',
  'review_on_pull_request',
  'fanout_units',
  'fanout_max_total_usd'
];

/** Every old input name that still works this release, with what to write instead. */
export const DEPRECATED_INPUTS: ReadonlyMap<string, string> = new Map([
  ...Object.entries(REPLACED_BY_SPECIAL_KEYS),
  ...fileSettingsNotDeclared().map(
    (setting) => [setting, `${fileKeyOf(setting)!.path} in ${DEFAULT_CONFIG_FILE}`] as const
  )
]);

/** The file's settings that were inputs and are no longer declared (sandbox.hosts and the fanout block are new). */
function fileSettingsNotDeclared(): string[] {
  return FILE_KEYS.map((key) => key.setting).filter(
    (setting) =>
      setting !== 'sandbox_hosts' && !setting.startsWith('fanout_') && !INPUTS_ALSO_IN_FILE.includes(setting)
  );
}

/** One warning per deprecated input the step sets (the runner's INPUT_<NAME> variables). */
export function deprecatedInputWarnings(env: NodeJS.ProcessEnv): string[] {
  return [...DEPRECATED_INPUTS]
    .filter(([name]) => (env[`INPUT_${name.toUpperCase()}`] ?? '').trim() !== '')
    .map(
      ([name, replacement]) =>
        `The input ${name} is deprecated and will be removed in the next release; it still works in this one. ` +
        `Set ${replacement} instead (${MIGRATION_PAGE} shows each old input and its new key).`
    );
}
