import { readFileSync } from 'node:fs';
import { COMPACTION_DEFAULTS } from '../../src/compaction/settings.js';
import { GITHUB_DEFAULTS } from '../../src/config/github-inputs.js';
import { FILE_KEYS } from '../../src/config/config-file-keys.js';
import { INPUT_DEFAULTS } from '../../src/config/inputs.js';

/**
 * Every default is defined once, in the code; action.yml or the config schema, and the reference
 * pages generated from them, repeat it for people to read. This keeps them from drifting apart.
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

/** The default each generated reference page shows, by setting name: inputs.md, then the config file's keys. */
function referenceDefaults(): Record<string, string> {
  const defaults: Record<string, string> = {};
  const inputs = readFileSync('docs/reference/inputs.md', 'utf8');
  for (const match of inputs.matchAll(/^## `([a-z0-9_]+)`\n\n(?:Required\. )?Default: `([^`]*)`\./gm)) {
    defaults[match[1]!] = match[2]!;
  }
  const keys = readFileSync('docs/reference/config-file.md', 'utf8');
  const settingOf = new Map(FILE_KEYS.map((key) => [key.path, key.setting]));
  for (const match of keys.matchAll(/^\| `([a-z0-9_.]+)` +\|[^|]*\| `([^`]*)` +\|/gm)) {
    const setting = settingOf.get(match[1]!);
    const value = match[2]!;
    if (setting)
      defaults[setting] ??= value.startsWith('[') ? (JSON.parse(value) as string[]).join(',') : value;
  }
  return defaults;
}

/** Deprecated inputs whose key changed shape (sandbox.hosts and provider replaced them). */
const CHANGED_SHAPE = ['sandbox_network', 'sandbox_default_hosts', 'use_bedrock', 'use_vertex'];

describe('defaults are defined once and agree everywhere', () => {
  it.each(Object.keys(CODE_DEFAULTS).filter((name) => !CHANGED_SHAPE.includes(name)))(
    '%s: action.yml or the config schema says what the code does',
    (name) => {
      expect(writtenDefault(name)).toBe(CODE_DEFAULTS[name]);
    }
  );

  it.each(Object.keys(CODE_DEFAULTS).filter((name) => !CHANGED_SHAPE.includes(name)))(
    '%s: the generated reference says what the code does',
    (name) => {
      expect(referenceDefaults()[name]).toBe(CODE_DEFAULTS[name]);
    }
  );

  it('action.yml has no default the code does not define (besides the token)', () => {
    const extra = Object.keys(actionDefaults()).filter(
      (name) => !(name in CODE_DEFAULTS) && name !== 'github_token'
    );
    expect(extra).toEqual([]);
  });
});
