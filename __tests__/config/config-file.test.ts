import { readFileSync } from 'node:fs';
import { FILE_KEYS } from '../../src/config/config-file-keys.js';
import { parseConfigFile } from '../../src/config/config-file.js';
import { configFileSchema } from '../../src/config/config-schema.js';
import { parseActionConfig } from '../../src/config/github-inputs.js';
import { layeredReader } from '../../src/config/layered-inputs.js';

const SOURCE = '.github/compact-agent.yml on main';
const ENV = { ANTHROPIC_API_KEY: 'k', GITHUB_TOKEN: 't' };
const problemsOf = (text: string) => {
  try {
    parseConfigFile(text, SOURCE);
  } catch (error) {
    return (error as { problems: string[] }).problems;
  }
  return [];
};
const given = (inputs: Record<string, string>) => (name: string) => inputs[name] ?? '';

describe('the config file', () => {
  it('names the closest key for an unknown one, in a block, at the top, or under its old input name', () => {
    expect(problemsOf('limits:\n  max_turn: 5\n')).toEqual([
      expect.stringMatching(
        /^\.github\/compact-agent\.yml on main: limits\.max_turn is not a key .* Did you mean limits\.max_turns\?/
      )
    ]);
    expect(problemsOf('max_turns: 5\n')[0]).toContain('Did you mean limits.max_turns?');
    expect(problemsOf('compaction_threshold_tokens: 9000\n')[0]).toContain(
      'Did you mean compaction.threshold_tokens?'
    );
    expect(problemsOf('favourite_colour: blue\n')[0]).not.toContain('Did you mean');
  });

  it('says where invalid YAML is and what to check', () => {
    expect(problemsOf('limits:\n  max_turns: [1, 2\n')).toEqual([
      expect.stringMatching(
        /^\.github\/compact-agent\.yml on main is not valid YAML: .*line \d+, column \d+.* \(check the indentation/
      )
    ]);
    expect(problemsOf('limits:\n  max_turns: 1\nlimits:\n  max_turns: 2\n')[0]).toContain(
      'Map keys must be unique'
    );
  });

  it('names a value of the wrong type or outside its choices', () => {
    expect(problemsOf('limits:\n  max_turns: lots\n')).toEqual([
      `${SOURCE}: limits.max_turns must be integer (see schemas/compact-agent.schema.json).`
    ]);
    expect(problemsOf('model:\n  provider: openai\n')).toEqual([
      `${SOURCE}: model.provider must be one of anthropic, bedrock, vertex.`
    ]);
  });

  it('is too big past 64 KiB', () => {
    expect(problemsOf(`# ${'x'.repeat(70_000)}\n`)[0]).toContain('a config file may have at most 65536');
  });

  it('ranks below with: and above the defaults', () => {
    const file = parseConfigFile('limits:\n  max_budget_usd: 3\n  max_turns: 40\n', SOURCE);
    const fromFile = parseActionConfig(layeredReader(given({}), file), ENV);
    expect(fromFile.agent.limits).toMatchObject({ maxBudgetUsd: 3, maxTurns: 40 });
    const withWins = parseActionConfig(layeredReader(given({ max_turns: '7' }), file), ENV);
    expect(withWins.agent.limits).toMatchObject({ maxBudgetUsd: 3, maxTurns: 7 });
    const defaults = parseActionConfig(layeredReader(given({}), undefined), ENV);
    expect(defaults.agent.limits).toMatchObject({ maxBudgetUsd: 10, maxTurns: 200 });
  });

  it('a problem in a value from the file names its key and the file', () => {
    const file = parseConfigFile('model:\n  name: gpt-9\n', SOURCE);
    expect(() => parseActionConfig(layeredReader(given({}), file), ENV)).toThrow(/gpt-9/);
  });

  it('turns provider and sandbox.hosts into what the old inputs gave', () => {
    const file = parseConfigFile('sandbox:\n  hosts: []\n', SOURCE);
    expect(parseActionConfig(layeredReader(given({}), file), ENV).agent.sandbox.rules).toBeUndefined();
    const some = parseConfigFile('sandbox:\n  hosts: [example.com]\n', SOURCE);
    const sandbox = parseActionConfig(layeredReader(given({}), some), ENV).agent.sandbox;
    expect(sandbox.defaultHosts).toBe(false);
    expect(sandbox.rules).toHaveLength(1);
  });
});

describe('the schema and the parser agree', () => {
  it('the committed schema is the one the key table builds (run npm run schema after changing the table)', () => {
    expect(JSON.parse(readFileSync('schemas/compact-agent.schema.json', 'utf8'))).toEqual(
      JSON.parse(JSON.stringify(configFileSchema()))
    );
  });

  /** A value for each key that differs from the default, by type. */
  const sample: Record<string, string> = {
    'model.name': 'claude-haiku-4-5',
    'model.provider': 'bedrock',
    'model.effort': 'low'
  };
  it.each(FILE_KEYS.map((key) => [key.path, key.setting]))(
    '%s reaches the parser as %s',
    (keyPath, setting) => {
      const key = FILE_KEYS.find((row) => row.path === keyPath)!;
      const value =
        sample[keyPath] ??
        (key.type.kind === 'boolean'
          ? 'true'
          : key.type.kind === 'enum'
            ? key.type.values.at(-1)!
            : key.type.kind === 'list'
              ? 'a\nb'
              : key.type.kind === 'string'
                ? 'x'
                : '3');
      const yaml = keyPath
        .split('.')
        .map(
          (part, depth, parts) =>
            `${'  '.repeat(depth)}${part}:${depth === parts.length - 1 ? ` ${JSON.stringify(key.type.kind === 'list' ? value.split('\n') : ['boolean', 'integer', 'number'].includes(key.type.kind) ? JSON.parse(value) : value)}` : ''}`
        )
        .join('\n');
      const file = parseConfigFile(`${yaml}\n`, SOURCE);
      const reads: string[] = [];
      const reader = layeredReader(given({}), file);
      try {
        parseActionConfig(
          (name) => {
            reads.push(name);
            return reader(name);
          },
          { ...ENV, AWS_REGION: 'us-east-1' }
        );
      } catch {
        // A value that does not fit with the defaults (a made-up model) is still read: that is the point.
      }
      expect(file.settings.get(setting)?.value).toBe(value);
      expect(reads).toContain(setting);
    }
  );
});
