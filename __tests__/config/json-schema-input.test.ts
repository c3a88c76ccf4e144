import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { CLI_INPUT_NAMING } from '../../src/cli/args.js';
import { InputError, parseAgentConfig, type InputNaming } from '../../src/config/inputs.js';
import { createTempDir } from '../support/temp-repo.js';

const ENV = { ANTHROPIC_API_KEY: 'k' };

function configOf(jsonSchema: string) {
  return parseAgentConfig((name) => (name === 'json_schema' ? jsonSchema : ''), ENV);
}

function problemsOf(jsonSchema: string, naming?: InputNaming): readonly string[] {
  try {
    parseAgentConfig((name) => (name === 'json_schema' ? jsonSchema : ''), ENV, naming);
  } catch (error) {
    if (error instanceof InputError) return error.problems;
    throw error;
  }
  return [];
}

describe('the json_schema input', () => {
  it('is off when empty', () => {
    expect(configOf('').outputSchema).toBeUndefined();
    expect(configOf('  \n').outputSchema).toBeUndefined();
  });

  it('takes inline JSON, as a workflow writes it in a block', () => {
    const schema = configOf('\n  {"type": "object", "required": ["labels"]}\n').outputSchema;
    expect(schema?.text).toBe('{"type":"object","required":["labels"]}');
    expect(schema?.check({})).toEqual(["(the root): must have required property 'labels'"]);
  });

  it('takes the path of a JSON file', () => {
    const folder = createTempDir();
    const file = path.join(folder, 'triage.schema.json');
    writeFileSync(file, '{"type": "array", "items": {"type": "string"}}\n');
    expect(configOf(file).outputSchema?.check(['bug'])).toEqual([]);
  });

  it.each([
    ['not JSON', '{"type": "object"', /^json_schema is not a usable JSON Schema: it is not valid JSON \(/],
    ['not an object', '["bug", "docs"]', /^json_schema is not a usable JSON Schema: .*got an array\.$/],
    ['a number', '42', /^json_schema is not a usable JSON Schema: .*got a number\.$/],
    [
      'an unknown type',
      '{"type": "text"}',
      /^json_schema is not a usable JSON Schema: \/type: type must be one of/
    ],
    [
      'a malformed keyword',
      '{"type": "object", "required": "labels"}',
      /^json_schema is not a usable JSON Schema: \/required: required must be an array of distinct strings\.$/
    ],
    [
      'too long',
      JSON.stringify({ description: 'x'.repeat(40_000) }),
      /^json_schema is not a usable .*at most 32768\.$/
    ],
    ['a missing file', 'schemas/none.json', /^json_schema: cannot read the file .*none\.json/]
  ])('refuses %s, naming the input', (_what, value, expected) => {
    expect(problemsOf(value)).toEqual([expect.stringMatching(expected)]);
  });

  it('is named --json-schema on the command line', () => {
    expect(problemsOf('{"type": "text"}', CLI_INPUT_NAMING)).toEqual([
      expect.stringMatching(/^--json-schema is not a usable JSON Schema: /)
    ]);
  });
});
