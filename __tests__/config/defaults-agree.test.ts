import { readFileSync } from 'node:fs';
import { COMPACTION_DEFAULTS } from '../../src/compaction/settings.js';
import { GITHUB_DEFAULTS } from '../../src/config/github-inputs.js';
import { FILE_KEYS } from '../../src/config/config-file-keys.js';
import { INPUT_DEFAULTS } from '../../src/config/inputs.js';

/**
 * Every default is defined once, in the code; action.yml and the README's inputs table repeat it
 * for people to read. This keeps the three from drifting apart.
 */
const CODE_DEFAULTS: Record<string, string> = {
  ...Object.fromEntries(Object.entries(INPUT_DEFAULTS).map(([name, value]) => [name, String(value)])),
  ...Object.fromEntries(Object.entries(GITHUB_DEFAULTS).map(([name, value]) => [name, String(value)])),
  micro_keep_recent: String(COMPACTION_DEFAULTS.microKeepRecent),
  restore_recent_files: String(COMPACTION_DEFAULTS.restoreRecentFiles),
  max_compactions: String(COMPACTION_DEFAULTS.maxCompactions)
};

/** `name: {default}` of action.yml's inputs (a flat, two-level YAML: no parser needed). */
function actionDefaults(): Record<string, string> {
  const yaml = readFileSync('action.yml', 'utf8');
  const inputs = yaml.slice(yaml.indexOf('\ninputs:'), yaml.indexOf('\noutputs:'));
  const defaults: Record<string, string> = {};
  let current: string | undefined;
  for (const line of inputs.split('\n')) {
    const name = /^ {2}([a-z0-9_]+):\s*$/.exec(line);
    if (name) current = name[1];
    const value = /^ {4}default:\s*(.*)$/.exec(line);
    if (value && current) defaults[current] = value[1]!.trim().replace(/^'(.*)'$/, '$1');
  }
  return defaults;
}

/** The schema's default of each setting the config file holds (a list as the input spelled it). */
function schemaDefaults(): Record<string, string> {
  return Object.fromEntries(
    FILE_KEYS.filter((key) => key.default !== undefined).map((key) => [
      key.setting,
      Array.isArray(key.default) ? key.default.join(',') : String(key.default)
    ])
  );
}

/** Where a default is written for people: action.yml for an input it declares, else the schema. */
function writtenDefault(name: string): string | undefined {
  return actionDefaults()[name] ?? schemaDefaults()[name];
}

/** The first backquoted value of the README inputs table's default column, by input name. */
function readmeDefaults(): Record<string, string> {
  const readme = readFileSync('README.md', 'utf8');
  const table = readme.slice(readme.indexOf('### Inputs'), readme.indexOf('### Outputs'));
  const defaults: Record<string, string> = {};
  for (const row of table.split('\n').filter((line) => line.startsWith('| `'))) {
    const [names, fallback] = row
      .split('|')
      .slice(1, 3)
      .map((cell) => cell.trim());
    const value = /^`([^`]*)`/.exec(fallback ?? '')?.[1];
    for (const name of [...(names ?? '').matchAll(/`([a-z0-9_]+)`/g)].map((match) => match[1]!)) {
      if (value !== undefined) defaults[name] = value;
    }
  }
  return defaults;
}

describe('defaults are defined once and agree everywhere', () => {
  // Deprecated inputs whose key changed shape: sandbox.hosts and provider replaced them.
  it.each(
    Object.keys(CODE_DEFAULTS).filter((name) => !['sandbox_network', 'sandbox_default_hosts', 'use_bedrock', 'use_vertex'].includes(name))
  )('%s: action.yml or the config schema says what the code does', (name) => {
    expect(writtenDefault(name)).toBe(CODE_DEFAULTS[name]);
  });

  it.each(Object.keys(CODE_DEFAULTS).filter((name) => !['bot_name', 'bot_email'].includes(name)))(
    '%s: the README says what the code does',
    (name) => {
      // Thousands separators (`16,384`) go; a list's commas (instruction_files) stay.
      expect(readmeDefaults()[name]?.replace(/(?<=\d),(?=\d)/g, '')).toBe(
        CODE_DEFAULTS[name]!.replace(/_/g, '')
      );
    }
  );

  it('action.yml has no default the code does not define (besides the token)', () => {
    const extra = Object.keys(actionDefaults()).filter(
      (name) => !(name in CODE_DEFAULTS) && name !== 'github_token'
    );
    expect(extra).toEqual([]);
  });
});
