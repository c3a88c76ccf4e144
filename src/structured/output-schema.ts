import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { JsonSchemaType } from '@modelcontextprotocol/sdk/validation';
import { errorMessage } from '../errors/error-message.js';
import { schemaKeywordProblems } from './schema-keywords.js';

/**
 * The largest schema taken, in characters: it is sent with the request for the answer (twice when the
 * answer is asked for again), so it costs tokens, and a triage or labelling schema is a few hundred.
 */
export const MAX_OUTPUT_SCHEMA_CHARS = 32_768;

/** A JSON Schema the run's final answer must match (`json_schema`, `--json-schema`). */
export interface OutputSchema {
  /** The schema as compact JSON: what the model is shown. */
  readonly text: string;
  /** What is wrong with `value`, each as `<JSON Pointer>: <what>`; [] when it matches. */
  check(value: unknown): string[];
}

export type OutputSchemaReading =
  | { readonly ok: true; readonly schema: OutputSchema }
  | { readonly ok: false; readonly problems: readonly string[] };

/**
 * Reads the JSON text of a schema: it must be JSON, an object, within the size cap, use only the
 * keywords we check (schema-keywords.ts), and compile. The problems do not name the input: the
 * caller does, as it spells it (`json_schema` or `--json-schema`).
 */
export function readOutputSchema(text: string): OutputSchemaReading {
  if (text.length > MAX_OUTPUT_SCHEMA_CHARS)
    return fail(`it is ${text.length} characters long; a schema may hold at most ${MAX_OUTPUT_SCHEMA_CHARS}`);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return fail(`it is not valid JSON (${errorMessage(error)})`);
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    return fail(
      `it must be a JSON Schema object such as {"type": "object", "properties": {...}}, got ${kindOf(json)}`
    );
  const keywordProblems = schemaKeywordProblems(json as Record<string, unknown>);
  if (keywordProblems.length > 0) return { ok: false, problems: keywordProblems };
  let validate: (value: unknown) => string | undefined;
  try {
    // Ajv (draft-07 keywords, $defs too) through the MCP SDK we already ship: its own copy of Ajv 8
    // with ajv-formats. The keyword walk above checked the schema (Ajv is told not to); compiling
    // throws on what is left: an unresolvable $ref, a pattern that is no regular expression.
    const validator = new AjvJsonSchemaValidator().getValidator(json as JsonSchemaType);
    validate = (value) => validator(value).errorMessage;
  } catch (error) {
    return fail(`it is not a JSON Schema compact-agent can check answers against: ${errorMessage(error)}`);
  }
  return {
    ok: true,
    schema: {
      text: JSON.stringify(json),
      check: (value) => {
        const errors = validate(value);
        return errors === undefined ? [] : ajvProblems(errors);
      }
    }
  };
}

/**
 * Ajv's errors come as one text, `data/labels/1 must be string, data must NOT have additional
 * properties` (its instance paths are JSON Pointers): one problem each, `<pointer>: <message>`.
 */
function ajvProblems(text: string): string[] {
  return text.split(/, (?=data[/ ])/).map((error) => {
    const match = /^data(\S*) ([\s\S]*)$/.exec(error);
    if (!match) return error;
    return `${match[1] === '' ? '(the root)' : match[1]}: ${match[2]}`;
  });
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}

function fail(problem: string): OutputSchemaReading {
  return { ok: false, problems: [problem] };
}
