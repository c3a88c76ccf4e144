import { readFileSync } from 'node:fs';
import { COMPACTION_DEFAULTS } from '../../src/compaction/settings.js';
import { GITHUB_DEFAULTS } from '../../src/config/github-inputs.js';
import { INPUT_DEFAULTS } from '../../src/config/inputs.js';

/**
 * Every default is defined once, in the code; action.yml and the inputs reference generated from it
 * (docs/reference/inputs.md) repeat it for people to read. This keeps the three from drifting apart.
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

/** The `Default: \`value\`.` line under each input's heading of docs/reference/inputs.md, by input name. */
function referenceDefaults(): Record<string, string> {
  const reference = readFileSync('docs/reference/inputs.md', 'utf8');
  const defaults: Record<string, string> = {};
  for (const match of reference.matchAll(/^## `([a-z0-9_]+)`\n\n(?:Required\. )?Default: `([^`]*)`\./gm)) {
    defaults[match[1]!] = match[2]!;
  }
  return defaults;
}

describe('defaults are defined once and agree everywhere', () => {
  it.each(Object.keys(CODE_DEFAULTS))('%s: action.yml says what the code does', (name) => {
    expect(actionDefaults()[name]).toBe(CODE_DEFAULTS[name]);
  });

  it.each(Object.keys(CODE_DEFAULTS))('%s: the inputs reference says what the code does', (name) => {
    expect(referenceDefaults()[name]).toBe(CODE_DEFAULTS[name]);
  });

  it('action.yml has no default the code does not define (besides the token)', () => {
    const extra = Object.keys(actionDefaults()).filter(
      (name) => !(name in CODE_DEFAULTS) && name !== 'github_token'
    );
    expect(extra).toEqual([]);
  });
});
