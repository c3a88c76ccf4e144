import { z } from 'zod';

/** A server's tool as we offer it to the model, checked: the server is someone else's code. */
export interface ListedTool {
  /** The server's own name for it (what tools/call takes). */
  readonly name: string;
  readonly description: string;
  /** A JSON Schema object of `type: "object"`, sent to the API as the tool's input_schema. */
  readonly inputSchema: Readonly<Record<string, unknown>>;
}

/** The MCP spec's advice for names is 1 to 128 characters (SEP-986); past that it is not a name. */
const MAX_TOOL_NAME = 128;
const MAX_DESCRIPTION = 4_000;
/** A schema is part of every request's cached prefix: a large one costs on every turn. */
export const MAX_SCHEMA_CHARS = 20_000;
const MAX_SCHEMA_DEPTH = 32;
/** The API refuses property names outside this ("Property keys should match pattern ..."). */
const PROPERTY_KEY = /^[a-zA-Z0-9_.-]{1,64}$/;

const ToolAsListed = z.object({
  name: z.string().min(1).max(MAX_TOOL_NAME),
  description: z.string().optional(),
  inputSchema: z.record(z.string(), z.unknown())
});

export type ListedToolCheck =
  | { readonly ok: true; readonly tool: ListedTool }
  | { readonly ok: false; readonly name: string; readonly reason: string };

/**
 * Checks one entry of a server's tools/list answer as data: a name, an optional description
 * (clipped), and an input schema that is a plain JSON object of type "object", not too large or
 * deep, whose property names the API accepts. A tool that fails is not offered; the run says why.
 */
export function checkListedTool(entry: unknown): ListedToolCheck {
  const parsed = ToolAsListed.safeParse(entry);
  const shownName = nameOf(entry);
  if (!parsed.success)
    return { ok: false, name: shownName, reason: 'its definition is not a tool (name, inputSchema)' };
  const { name, description, inputSchema } = parsed.data;
  if (hasControlCharacter(name))
    return { ok: false, name: shownName, reason: 'its name holds control characters' };
  if (inputSchema.type !== 'object')
    return { ok: false, name, reason: 'its input schema is not of type "object"' };
  let text: string;
  try {
    text = JSON.stringify(inputSchema);
  } catch {
    return { ok: false, name, reason: 'its input schema is not JSON' };
  }
  if (text.length > MAX_SCHEMA_CHARS) {
    return {
      ok: false,
      name,
      reason: `its input schema is ${text.length} characters (at most ${MAX_SCHEMA_CHARS})`
    };
  }
  if (depthOf(inputSchema) > MAX_SCHEMA_DEPTH)
    return { ok: false, name, reason: 'its input schema is nested too deep' };
  const badKey = propertyKeys(inputSchema).find((key) => !PROPERTY_KEY.test(key));
  if (badKey !== undefined) {
    return {
      ok: false,
      name,
      reason: `its input property ${JSON.stringify(badKey.slice(0, 80))} has a name the API refuses`
    };
  }
  const { $schema: _dialect, ...schema } = JSON.parse(text) as Record<string, unknown>;
  return {
    ok: true,
    tool: {
      name,
      description: clip(description?.trim() || `The ${name} tool of an MCP server.`, MAX_DESCRIPTION),
      inputSchema: schema
    }
  };
}

function nameOf(entry: unknown): string {
  const name = typeof entry === 'object' && entry !== null ? (entry as { name?: unknown }).name : undefined;
  return typeof name === 'string' ? name.slice(0, 80) : '(unnamed)';
}

function depthOf(value: unknown, depth = 0): number {
  if (depth > MAX_SCHEMA_DEPTH || typeof value !== 'object' || value === null) return depth;
  return Math.max(depth, ...Object.values(value).map((child) => depthOf(child, depth + 1)));
}

/** Every key of every `properties` object in the schema, nested ones included. */
function propertyKeys(value: unknown): string[] {
  if (typeof value !== 'object' || value === null) return [];
  const keys: string[] = [];
  const record = value as Record<string, unknown>;
  const properties = record.properties;
  if (typeof properties === 'object' && properties !== null && !Array.isArray(properties)) {
    keys.push(...Object.keys(properties));
  }
  for (const child of Object.values(record)) keys.push(...propertyKeys(child));
  return keys;
}

function clip(text: string, limit: number): string {
  return text.length <= limit ? text : `${text.slice(0, limit - 1)}…`;
}

function hasControlCharacter(text: string): boolean {
  return [...text].some((char) => {
    const code = char.charCodeAt(0);
    return code < 0x20 || code === 0x7f;
  });
}
