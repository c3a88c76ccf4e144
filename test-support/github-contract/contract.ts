/**
 * Checks one request or one answer against GitHub's OpenAPI description (spec.ts): path and query
 * parameters, the JSON request body, and the JSON answer for its status. Schemas are compiled by
 * Ajv on first use and kept per operation and status, so a test file pays for the few it reaches.
 *
 * OpenAPI 3.0 is not plain JSON Schema: `nullable: true` is Ajv's own OpenAPI keyword (on by
 * default), the OpenAPI-only keywords (`example`, `deprecated`, `x-github`, ...) are ignored
 * (strict: false), and the description's non-JSON-Schema formats (int32, int64, double, binary,
 * repo.nwo, timestamp) are accepted as they are.
 */
import AjvModule, { type ErrorObject, type ValidateFunction } from 'ajv';
import formatsModule from 'ajv-formats';
import { findOperation, type Operation } from './operations.js';
import { githubSpec, resolveRef, type JsonObject } from './spec.js';

export interface ContractError {
  /** Where in the request or answer: `path`, `query` or `body`. */
  readonly in: 'path' | 'query' | 'body';
  /** JSON pointer into that part (`/comments/0/line`), or the parameter's name. */
  readonly instancePath: string;
  readonly keyword: string;
  readonly message: string;
  readonly params: Record<string, unknown>;
}

export interface ContractViolation {
  readonly direction: 'request' | 'response';
  readonly method: string;
  readonly path: string;
  /** The operation's id (`pulls/create-review`); undefined when the description has no such route. */
  readonly operationId: string | undefined;
  /** The status answered (responses only). */
  readonly status?: number;
  readonly errors: readonly ContractError[];
}

const NO_OP_FORMATS = ['int32', 'int64', 'double', 'binary', 'repo.nwo', 'timestamp'];

let ajv: InstanceType<typeof AjvModule.default> | undefined;
const compiled = new Map<string, ValidateFunction>();

function validator(pointer: string): ValidateFunction {
  let found = compiled.get(pointer);
  if (found) return found;
  if (!ajv) {
    ajv = new AjvModule.default({ strict: false, allErrors: true, validateFormats: true });
    formatsModule.default(ajv);
    for (const format of NO_OP_FORMATS) ajv.addFormat(format, true);
    ajv.addSchema(githubSpec() as unknown as JsonObject, 'gh');
  }
  found = ajv.compile({ $ref: `gh${pointer}` });
  compiled.set(pointer, found);
  return found;
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function escape(part: string): string {
  return part.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** The JSON pointer of an object in the spec that may stand behind a `$ref`. */
function pointerOf(value: unknown, fallback: string): string {
  return isObject(value) && typeof value.$ref === 'string' ? value.$ref : fallback;
}

function operationPointer(op: Operation): string {
  return `#/paths/${escape(op.template)}/${op.method}`;
}

function toErrors(
  where: ContractError['in'],
  errors: ErrorObject[] | null | undefined,
  prefix = ''
): ContractError[] {
  return (errors ?? []).map((e) => ({
    in: where,
    instancePath: `${prefix}${e.instancePath}`,
    keyword: e.keyword,
    message: e.message ?? e.keyword,
    params: { ...e.params }
  }));
}

/** A query or path value as the schema's type reads it ("30" is the integer 30). */
function coerce(value: string, schema: unknown): unknown {
  const type = isObject(schema) ? schema.type : undefined;
  if ((type === 'integer' || type === 'number') && /^-?\d+(\.\d+)?$/.test(value)) return Number(value);
  if (type === 'boolean' && (value === 'true' || value === 'false')) return value === 'true';
  return value;
}

export function operationFor(method: string, path: string): Operation | undefined {
  return findOperation(method, path);
}

/** A request's path and query parameters and JSON body against its operation. */
export function checkRequest(op: Operation, query: Record<string, string>, body: unknown): ContractError[] {
  const spec = githubSpec();
  const base = operationPointer(op);
  const errors: ContractError[] = [];
  const parameters = Array.isArray(op.definition.parameters) ? op.definition.parameters : [];
  parameters.forEach((raw: unknown, i: number) => {
    const param = resolveRef(spec, raw);
    if (!isObject(param) || typeof param.name !== 'string') return;
    if (param.in !== 'path' && param.in !== 'query') return;
    const given = param.in === 'path' ? op.pathParams[param.name] : query[param.name];
    if (given === undefined) {
      if (param.required === true)
        errors.push({
          in: param.in,
          instancePath: param.name,
          keyword: 'required',
          message: 'is required',
          params: {}
        });
      return;
    }
    const pointer = `${pointerOf(raw, `${base}/parameters/${i}`)}/schema`;
    const validate = validator(pointer);
    if (!validate(coerce(given, param.schema)))
      errors.push(...toErrors(param.in, validate.errors, param.name));
  });
  const requestBody = resolveRef(spec, op.definition.requestBody);
  if (isObject(requestBody)) {
    const content = isObject(requestBody.content) ? requestBody.content : {};
    if (body === undefined) {
      if (requestBody.required === true)
        errors.push({
          in: 'body',
          instancePath: '',
          keyword: 'required',
          message: 'a body is required',
          params: {}
        });
    } else if (isObject(content['application/json'])) {
      const pointer = `${pointerOf(op.definition.requestBody, `${base}/requestBody`)}/content/application~1json/schema`;
      const validate = validator(pointer);
      if (!validate(body)) errors.push(...toErrors('body', validate.errors));
    }
  }
  return errors;
}

/**
 * An answer against the operation's response for its status. A success status the description
 * does not list is a violation; an error status it does not list is not checked, since GitHub may
 * answer any route with 401, 403, 429 or 5xx (rate limits, outages).
 */
export function checkResponse(op: Operation, status: number, body: unknown): ContractError[] {
  const spec = githubSpec();
  const responses = isObject(op.definition.responses) ? op.definition.responses : {};
  const raw = responses[String(status)];
  if (raw === undefined) {
    if (status >= 400) return [];
    return [
      {
        in: 'body',
        instancePath: '',
        keyword: 'status',
        message: `status ${status} is not an answer the description lists (${Object.keys(responses).join(', ')})`,
        params: { status }
      }
    ];
  }
  const response = resolveRef(spec, raw);
  const content = isObject(response) && isObject(response.content) ? response.content : undefined;
  const json = content?.['application/json'];
  if (!isObject(json) || !isObject(json.schema)) {
    if (body === undefined || status >= 300) return [];
    return [
      {
        in: 'body',
        instancePath: '',
        keyword: 'content',
        message: 'the description lists no JSON body',
        params: {}
      }
    ];
  }
  const pointer = `${pointerOf(raw, `${operationPointer(op)}/responses/${status}`)}/content/application~1json/schema`;
  const validate = validator(pointer);
  return validate(body) ? [] : toErrors('body', validate.errors);
}

function show(value: unknown): string {
  return value === null ? 'nil' : JSON.stringify(value);
}

function valueAt(body: unknown, pointer: string): unknown {
  let at = body;
  for (const part of pointer.split('/').slice(1)) {
    const key = part.replace(/~1/g, '/').replace(/~0/g, '~');
    at = Array.isArray(at) ? at[Number(key)] : isObject(at) ? at[key] : undefined;
  }
  return at;
}

/**
 * GitHub's wording for a request that fails the endpoint's schema (422 "Invalid request." with one
 * line per error, e.g. `For 'properties/body', 1 is not a string.` or `"body" wasn't supplied.`).
 */
export function invalidRequestMessage(errors: readonly ContractError[], body: unknown): string {
  const lines = errors.map((e) => {
    const field = e.instancePath.split('/').filter(Boolean).pop() ?? e.instancePath;
    const value = e.in === 'body' ? valueAt(body, e.instancePath) : undefined;
    switch (e.keyword) {
      case 'required':
        return e.in === 'body' && typeof e.params.missingProperty === 'string'
          ? `"${e.params.missingProperty}" wasn't supplied.`
          : `"${field}" wasn't supplied.`;
      case 'type':
        return `For 'properties/${field}', ${show(value)} is not a${/^[aeiou]/.test(String(e.params.type)) ? 'n' : ''} ${String(e.params.type)}.`;
      case 'enum':
        return `For 'properties/${field}', ${show(value)} is not one of [${(Array.isArray(e.params.allowedValues) ? e.params.allowedValues : []).map((v) => show(v)).join(', ')}].`;
      default:
        return `For '${e.in}${e.instancePath}', ${e.message}.`;
    }
  });
  return `Invalid request.\n\n${[...new Set(lines)].join('\n')}`;
}
