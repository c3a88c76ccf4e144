import { MAX_OUTPUT_SCHEMA_CHARS, readOutputSchema } from '../../src/structured/output-schema.js';

const TRIAGE = {
  type: 'object',
  properties: {
    labels: { type: 'array', items: { type: 'string', enum: ['bug', 'docs', 'question'] }, minItems: 1 },
    priority: { type: 'integer', minimum: 1, maximum: 3 },
    summary: { type: 'string', maxLength: 200 }
  },
  required: ['labels', 'priority'],
  additionalProperties: false
};

function schemaOf(value: unknown) {
  const reading = readOutputSchema(JSON.stringify(value));
  if (!reading.ok) throw new Error(reading.problems.join('\n'));
  return reading.schema;
}

function problemsOf(text: string): readonly string[] {
  const reading = readOutputSchema(text);
  return reading.ok ? [] : reading.problems;
}

describe('readOutputSchema', () => {
  it('takes a schema and keeps it as compact JSON for the model', () => {
    const schema = schemaOf(TRIAGE);
    expect(schema.text).toBe(JSON.stringify(TRIAGE));
  });

  it('accepts a matching answer and names each problem of one that is not, by JSON Pointer', () => {
    const schema = schemaOf(TRIAGE);
    expect(schema.check({ labels: ['bug'], priority: 2 })).toEqual([]);
    const problems = schema.check({ labels: ['bug', 'feature'], priority: 7, extra: true });
    expect(problems).toEqual([
      '(the root): must NOT have additional properties',
      '/labels/1: must be equal to one of the allowed values',
      '/priority: must be <= 3'
    ]);
    expect(schema.check('just text')).toEqual(['(the root): must be object']);
    expect(schema.check({ priority: 1 })).toEqual(["(the root): must have required property 'labels'"]);
  });

  it('checks what each keyword says, with or without a type beside it', () => {
    const check = (schema: unknown, value: unknown) => schemaOf(schema).check(value);
    expect(check({ required: ['labels'] }, {})).toEqual(["(the root): must have required property 'labels'"]);
    expect(check({ required: ['labels'] }, 'not an object')).toEqual([]);
    expect(check({ minimum: 3 }, 2)).toEqual(['(the root): must be >= 3']);
    expect(check({ enum: [{ kind: 'bug' }, 'none'] }, { kind: 'bug' })).toEqual([]);
    expect(check({ const: { a: [1] } }, { a: [1] })).toEqual([]);
    expect(check({ allOf: [{ required: ['a'] }, { required: ['b'] }] }, { a: 1 })).toEqual([
      "(the root): must have required property 'b'"
    ]);
    expect(check({ type: 'string', format: 'email' }, 'not-an-address')).toEqual([
      '(the root): must match format "email"'
    ]);
    expect(check({ if: { required: ['a'] }, then: { required: ['b'] } }, { a: 1 })).toEqual([
      "(the root): must have required property 'b'",
      '(the root): must match "then" schema'
    ]);
  });

  it('checks $defs references, unions of types and draft-07 tuples', () => {
    const schema = schemaOf({
      $defs: { label: { type: 'string', pattern: '^[a-z]+$' } },
      type: 'object',
      properties: {
        labels: { type: 'array', items: { $ref: '#/$defs/label' } },
        note: { type: ['string', 'null'] }
      }
    });
    expect(schema.check({ labels: ['bug'], note: null })).toEqual([]);
    expect(schema.check({ labels: ['Bug!'] })).toEqual([expect.stringMatching(/^\/labels\/0: /)]);
  });

  it.each([
    ['{"type": "object",', /^it is not valid JSON \(/],
    ['[{"type": "object"}]', /must be a JSON Schema object .*got an array/],
    ['"object"', /got a string/],
    ['null', /got null/],
    ['{"type": "strin"}', /^\/type: type must be one of object, array, string/],
    ['{"properties": 5}', /^\/properties: properties must be an object of schemas/],
    ['{"required": "name"}', /^\/required: required must be an array of distinct strings/],
    ['{"type": "string", "minLength": -1}', /^\/minLength: minLength must be a whole number of 0 or more/],
    ['{"properties": {"a": {"type": "strng"}}}', /^\/properties\/a\/type: /],
    ['{"propertes": {}}', /^\/propertes: the keyword "propertes" is not one compact-agent checks/],
    ['{"prefixItems": [{}]}', /^\/prefixItems: the keyword "prefixItems" is not one/],
    ['{"type": "string", "format": "phone"}', /^\/format: format must be one of the formats checked: date,/],
    ['{"anyOf": []}', /^\/anyOf: anyOf must be a non-empty array of schemas/],
    [
      '{"$ref": "#/$defs/missing"}',
      /not a JSON Schema compact-agent can check answers against: can't resolve reference #\/\$defs\/missing/
    ],
    ['{"type": "string", "pattern": "("}', /not a JSON Schema compact-agent can check .*regular expression/i]
  ])('refuses %s, saying what is wrong', (text, expected) => {
    const problems = problemsOf(text);
    expect(problems).toEqual(expect.arrayContaining([expect.stringMatching(expected)]));
  });

  it('allows annotations and x- extensions, which change nothing the check does', () => {
    const schema = schemaOf({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      title: 'Triage',
      description: 'labels for an issue',
      'x-owner': 'triage-bot',
      type: 'object',
      examples: [{}]
    });
    expect(schema.check({})).toEqual([]);
  });

  it('caps the size and the depth', () => {
    const big = JSON.stringify({ description: 'x'.repeat(MAX_OUTPUT_SCHEMA_CHARS) });
    expect(problemsOf(big)).toEqual([
      expect.stringMatching(/characters long; a schema may hold at most 32768/)
    ]);
    let deep: Record<string, unknown> = { type: 'string' };
    for (let level = 0; level < 40; level++) deep = { type: 'array', items: deep };
    expect(problemsOf(JSON.stringify(deep))).toEqual([
      expect.stringMatching(/nested more than 32 levels deep/)
    ]);
  });
});
