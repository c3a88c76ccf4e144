import path from 'node:path';
import { readRegularFileSync } from '../files/bounded-file-sync.js';
import { unreadableReason } from '../files/bounded-file.js';
import { MAX_OUTPUT_SCHEMA_CHARS, readOutputSchema, type OutputSchema } from '../structured/output-schema.js';

/**
 * The `json_schema` input (`--json-schema`): the JSON Schema the run's final answer must match, as
 * inline JSON or the path of a JSON file (as mcp_config). Empty: no structured output. A bad value is
 * one problem naming the input, and the run does not start.
 */
export function parseJsonSchemaInput(
  raw: string,
  shown: string,
  problems: string[]
): OutputSchema | undefined {
  const value = raw.trim();
  if (value === '') return undefined;
  let text = value;
  let where = shown;
  if (!looksInline(value)) {
    const file = path.resolve(value);
    try {
      // Up to 4 bytes a character in UTF-8: the character cap is checked on the text.
      text = readRegularFileSync(file, 4 * MAX_OUTPUT_SCHEMA_CHARS).toString('utf8');
    } catch (error) {
      problems.push(
        `${shown}: cannot read the file ${file} (${unreadableReason(error)}). Give the schema as inline ` +
          'JSON, e.g. {"type": "object", "properties": {"labels": {"type": "array", "items": {"type": "string"}}}}, ' +
          'or the path of a regular JSON file that holds it.'
      );
      return undefined;
    }
    where = `${shown} (${value})`;
  }
  const reading = readOutputSchema(text);
  if (reading.ok) return reading.schema;
  problems.push(`${where} is not a usable JSON Schema: ${reading.problems.join('; ')}.`);
  return undefined;
}

/** Inline JSON (an object, or any other JSON value, which is then refused as not an object); else a path. */
function looksInline(value: string): boolean {
  if (value.startsWith('{') || value.startsWith('[')) return true;
  try {
    JSON.parse(value);
    return true;
  } catch {
    return false;
  }
}
