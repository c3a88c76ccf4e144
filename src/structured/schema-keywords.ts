/**
 * The JSON Schema keywords an answer is checked against, and a check that each one in a schema has
 * a value of the right kind. The validator (Ajv, draft-07 keywords) ignores a keyword it does not
 * know (a typo, or a newer draft's `prefixItems`, `dependentRequired`) and an unknown format, so a
 * schema would check less than its writer meant: here every keyword must be one it enforces or a
 * pure annotation, and a problem names where it is (a JSON Pointer) and what is wrong.
 */

type ValueCheck = (value: unknown) => string | undefined;

/** Deeper than this is refused: nothing a workflow needs, and the walk stays far from the stack's end. */
export const MAX_SCHEMA_DEPTH = 32;

const TYPES = new Set(['object', 'array', 'string', 'number', 'integer', 'boolean', 'null']);
/** The formats ajv-formats checks (the validator's own list); any other would pass unchecked. */
const FORMATS = new Set([
  'date',
  'time',
  'date-time',
  'iso-time',
  'iso-date-time',
  'duration',
  'uri',
  'uri-reference',
  'uri-template',
  'url',
  'email',
  'hostname',
  'ipv4',
  'ipv6',
  'regex',
  'uuid',
  'json-pointer',
  'json-pointer-uri-fragment',
  'relative-json-pointer',
  'byte',
  'int32',
  'int64',
  'float',
  'double'
]);

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const string: ValueCheck = (value) => (typeof value === 'string' ? undefined : 'must be a string');
const boolean: ValueCheck = (value) => (typeof value === 'boolean' ? undefined : 'must be true or false');
const anything: ValueCheck = () => undefined;
const number: ValueCheck = (value) =>
  typeof value === 'number' && Number.isFinite(value) ? undefined : 'must be a number';
const positiveNumber: ValueCheck = (value) =>
  typeof value === 'number' && Number.isFinite(value) && value > 0
    ? undefined
    : 'must be a number greater than 0';
const count: ValueCheck = (value) =>
  typeof value === 'number' && Number.isInteger(value) && value >= 0
    ? undefined
    : 'must be a whole number of 0 or more';
const list: ValueCheck = (value) => (Array.isArray(value) ? undefined : 'must be an array');
const nonEmptyList: ValueCheck = (value) =>
  Array.isArray(value) && value.length > 0 ? undefined : 'must be a non-empty array';
const uniqueStrings: ValueCheck = (value) =>
  Array.isArray(value) &&
  value.every((item) => typeof item === 'string') &&
  new Set(value).size === value.length
    ? undefined
    : 'must be an array of distinct strings';
const type: ValueCheck = (value) => {
  const names = Array.isArray(value) ? value : [value];
  const ok =
    names.length > 0 &&
    names.every((name) => typeof name === 'string' && TYPES.has(name)) &&
    new Set(names).size === names.length;
  return ok ? undefined : `must be one of ${[...TYPES].join(', ')}, or an array of distinct ones`;
};

/** Keywords whose value is data or a plain setting (never walked into). */
const VALUE_KEYWORDS: Readonly<Record<string, ValueCheck>> = {
  type,
  enum: nonEmptyList,
  const: anything,
  required: uniqueStrings,
  minimum: number,
  maximum: number,
  exclusiveMinimum: number,
  exclusiveMaximum: number,
  multipleOf: positiveNumber,
  minLength: count,
  maxLength: count,
  pattern: string,
  format: (value) =>
    typeof value === 'string' && FORMATS.has(value)
      ? undefined
      : `must be one of the formats checked: ${[...FORMATS].join(', ')}`,
  minItems: count,
  maxItems: count,
  uniqueItems: boolean,
  minProperties: count,
  maxProperties: count,
  $ref: string,
  // Annotations: they change nothing the check does.
  $schema: string,
  $id: string,
  $anchor: string,
  $comment: string,
  title: string,
  description: string,
  default: anything,
  examples: list,
  deprecated: boolean,
  readOnly: boolean,
  writeOnly: boolean
};

/** Keywords whose value is one schema. */
const SCHEMA_KEYWORDS = new Set([
  'additionalProperties',
  'additionalItems',
  'contains',
  'propertyNames',
  'not',
  'if',
  'then',
  'else'
]);
/** Keywords whose value maps names to schemas. */
const SCHEMA_MAP_KEYWORDS = new Set(['properties', 'patternProperties', '$defs', 'definitions']);
/** Keywords whose value is a non-empty array of schemas. */
const SCHEMA_LIST_KEYWORDS = new Set(['anyOf', 'oneOf', 'allOf']);

/** Every problem of the schema's keywords, each as `<pointer>: <what is wrong>`; [] when there is none. */
export function schemaKeywordProblems(schema: Record<string, unknown>): string[] {
  const problems: string[] = [];
  walk(schema, '', 0, problems);
  return problems;
}

function walk(schema: unknown, pointer: string, depth: number, problems: string[]): void {
  if (typeof schema === 'boolean') return;
  if (!isObject(schema)) {
    problems.push(`${shown(pointer)}: a schema must be an object (or true or false)`);
    return;
  }
  if (depth > MAX_SCHEMA_DEPTH) {
    problems.push(`${shown(pointer)}: the schema is nested more than ${MAX_SCHEMA_DEPTH} levels deep`);
    return;
  }
  for (const [keyword, value] of Object.entries(schema)) {
    const at = `${pointer}/${escape(keyword)}`;
    const check = VALUE_KEYWORDS[keyword];
    if (check) {
      const problem = check(value);
      if (problem) problems.push(`${at}: ${keyword} ${problem}`);
    } else if (SCHEMA_KEYWORDS.has(keyword)) {
      walk(value, at, depth + 1, problems);
    } else if (SCHEMA_MAP_KEYWORDS.has(keyword)) {
      if (!isObject(value)) problems.push(`${at}: ${keyword} must be an object of schemas`);
      else
        for (const [name, sub] of Object.entries(value))
          walk(sub, `${at}/${escape(name)}`, depth + 1, problems);
    } else if (SCHEMA_LIST_KEYWORDS.has(keyword)) {
      if (!Array.isArray(value) || value.length === 0)
        problems.push(`${at}: ${keyword} must be a non-empty array of schemas`);
      else value.forEach((sub, index) => walk(sub, `${at}/${index}`, depth + 1, problems));
    } else if (keyword === 'items') {
      // One schema (2020-12), or one per position (draft-07's tuple form).
      if (Array.isArray(value))
        value.forEach((sub, index) => walk(sub, `${at}/${index}`, depth + 1, problems));
      else walk(value, at, depth + 1, problems);
    } else if (!keyword.startsWith('x-')) {
      problems.push(
        `${at}: the keyword "${keyword}" is not one compact-agent checks answers against ` +
          '(a typo, or one of a newer draft such as prefixItems or dependentRequired); an extension must start with x-'
      );
    }
  }
}

/** JSON Pointer escaping (RFC 6901): `~` and `/` inside a name. */
function escape(name: string): string {
  return name.replace(/~/g, '~0').replace(/\//g, '~1');
}

function shown(pointer: string): string {
  return pointer === '' ? '(the root)' : pointer;
}
