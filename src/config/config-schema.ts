import { FILE_BLOCKS, FILE_KEYS, type FileKey } from './config-file-keys.js';

/** Where editors fetch the schema from: the `# yaml-language-server: $schema=` line of the example. */
export const CONFIG_SCHEMA_URL =
  'https://raw.githubusercontent.com/compact-agent/compact-agent/main/schemas/compact-agent.schema.json';

/** A JSON Schema (draft-07, which Ajv's default export validates and editors understand). */
export type JsonSchema = { readonly [keyword: string]: unknown };

/**
 * The JSON Schema of .github/compact-agent.yml, built from the key table: every key of the table is
 * in it and nothing else is (`additionalProperties: false` at every level). The committed copy,
 * schemas/compact-agent.schema.json, is written from this by `npm run schema`, and a test checks it
 * is current.
 */
export function configFileSchema(): JsonSchema {
  const root: MutableObject = {};
  for (const key of FILE_KEYS) {
    const parts = key.path.split('.');
    let node = root;
    for (const part of parts.slice(0, -1)) node = (node[part] ??= {}) as MutableObject;
    node[parts.at(-1)!] = keySchema(key);
  }
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    $id: CONFIG_SCHEMA_URL,
    title: 'compact-agent repository configuration (.github/compact-agent.yml)',
    description:
      'Read from the default branch (or a pull request base), never from a pull request head. ' +
      'A with: input of the workflow wins over this file, which wins over the defaults.',
    ...objectSchema(root, FILE_BLOCKS)
  };
}

interface MutableObject {
  [name: string]: MutableObject | JsonSchema;
}

function objectSchema(node: MutableObject, order?: readonly string[]): JsonSchema {
  const names = order ?? Object.keys(node);
  const properties = Object.fromEntries(
    names.map((name) => {
      const child = node[name]!;
      return [name, isLeaf(child) ? child : objectSchema(child as MutableObject)];
    })
  );
  return { type: 'object', additionalProperties: false, properties };
}

const LEAF = Symbol('leaf');

function isLeaf(node: MutableObject | JsonSchema): boolean {
  return (node as { [LEAF]?: true })[LEAF] === true;
}

function keySchema(key: FileKey): JsonSchema {
  const schema: Record<string | symbol, unknown> = { description: key.description, ...typeSchema(key) };
  if (key.default !== undefined) schema.default = key.default;
  Object.defineProperty(schema, LEAF, { value: true, enumerable: false });
  return schema as JsonSchema;
}

function typeSchema(key: FileKey): JsonSchema {
  switch (key.type.kind) {
    case 'string':
      return { type: 'string', minLength: 1 };
    case 'enum':
      return { type: 'string', enum: key.type.values };
    case 'integer':
      return { type: 'integer', minimum: key.type.minimum };
    case 'number':
      return { type: 'number', exclusiveMinimum: 0 };
    case 'boolean':
      return { type: 'boolean' };
    case 'list':
      return { type: 'array', items: { type: 'string', minLength: 1 } };
  }
}
