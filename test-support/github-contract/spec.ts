/**
 * GitHub's official OpenAPI description of api.github.com, as the npm package @octokit/openapi
 * ships it (generated/api.github.com.json, OpenAPI 3.0.3). The package also has a dereferenced
 * file (api.github.com.deref.json), but it is 73 MB against 13 MB and parses four times slower; the
 * `$ref`s of this one are resolved by Ajv, which compiles only the schemas a request reaches.
 *
 * Read once per process and then shared: every fake GitHub of a test file checks against it.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

export type JsonObject = Record<string, unknown>;

export interface OpenApiSpec {
  openapi: string;
  paths: Record<string, Record<string, unknown>>;
  components: JsonObject;
}

export const SPEC_PACKAGE = '@octokit/openapi';
export const SPEC_FILE = `${SPEC_PACKAGE}/generated/api.github.com.json`;

/**
 * Where GitHub's description is narrower than what github.com answers, and the fake answers as
 * github.com does. Each is one field, said here with the evidence; nothing else is loosened.
 */
export const KNOWN_SPEC_GAPS: ReadonlyArray<{ schema: string; property: string; why: string }> = [
  {
    schema: 'pull-request-review-comment',
    property: 'line',
    why: 'github.com answers "line": null for an outdated review comment (clients rely on it, e.g. omartelo/lich#130, 2026-07-30: "Threads GitHub could not re-anchor (its `line` comes back null)"); the schema types it as integer.'
  },
  {
    schema: 'pull-request-review-comment',
    property: 'position',
    why: 'Likewise "position": null for an outdated comment; the sibling `review-comment` schema of the same description already says nullable.'
  }
];

let loaded: OpenApiSpec | undefined;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The description, read and patched once per process. */
export function githubSpec(): OpenApiSpec {
  if (loaded) return loaded;
  const path = createRequire(import.meta.url).resolve(SPEC_FILE);
  const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'));
  if (
    !isObject(parsed) ||
    !isObject(parsed.paths) ||
    !isObject(parsed.components) ||
    typeof parsed.openapi !== 'string'
  )
    throw new Error(`${SPEC_FILE} is not an OpenAPI description`);
  if (!parsed.openapi.startsWith('3.0.'))
    throw new Error(`${SPEC_FILE} is OpenAPI ${parsed.openapi}; the contract check reads 3.0 (nullable)`);
  const spec = parsed as unknown as OpenApiSpec;
  const schemas = spec.components.schemas;
  for (const gap of KNOWN_SPEC_GAPS) {
    const schema = isObject(schemas) ? schemas[gap.schema] : undefined;
    const property =
      isObject(schema) && isObject(schema.properties) ? schema.properties[gap.property] : undefined;
    if (!isObject(property))
      throw new Error(`known spec gap ${gap.schema}.${gap.property} is no longer in the spec`);
    property.nullable = true;
  }
  readNullableAsOpenApi30(spec);
  loaded = spec;
  return spec;
}

/**
 * `nullable: true` as OpenAPI 3.0.3 defines it ("adds null to the allowed values"), in the two
 * places where Ajv's own `nullable` reads it more narrowly:
 * - an `enum` without null still refuses null in Ajv, so `start_side: null` (nullable, enum
 *   LEFT/RIGHT), which github.com sends on every single-line comment, would fail: null is added;
 * - Ajv refuses `nullable` without `type` (GitHub writes `{nullable: true, allOf: [{$ref}]}` for
 *   a nullable object): such a schema becomes `anyOf: [it, {type: 'null'}]`.
 */
function readNullableAsOpenApi30(value: unknown): void {
  if (Array.isArray(value)) {
    for (const item of value) readNullableAsOpenApi30(item);
    return;
  }
  if (!isObject(value)) return;
  for (const key in value) readNullableAsOpenApi30(value[key]);
  if (value.nullable !== true) return;
  if (Array.isArray(value.enum) && !value.enum.includes(null)) value.enum.push(null);
  if (value.type === undefined) {
    const inner: JsonObject = { ...value };
    delete inner.nullable;
    for (const key of Object.keys(value)) delete value[key];
    value.anyOf = [inner, { type: 'null' }];
  }
}

/** An object of the spec behind a `$ref` ('#/components/parameters/owner'), or the object itself. */
export function resolveRef(spec: OpenApiSpec, value: unknown): unknown {
  if (!isObject(value) || typeof value.$ref !== 'string') return value;
  let at: unknown = spec;
  for (const part of value.$ref.replace(/^#\//, '').split('/')) {
    const key = part.replace(/~1/g, '/').replace(/~0/g, '~');
    at = isObject(at) ? at[key] : undefined;
  }
  if (at === undefined) throw new Error(`unresolvable $ref ${value.$ref}`);
  return resolveRef(spec, at);
}
