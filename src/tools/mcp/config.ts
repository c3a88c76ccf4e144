import path from 'node:path';
import { z } from 'zod';
import { unreadableReason } from '../../files/bounded-file.js';
import { readRegularFileSync } from '../../files/bounded-file-sync.js';
import { errorMessage } from '../../errors/error-message.js';

/**
 * One MCP server to start: the `mcpServers` entry of the common configuration format (Claude
 * Code's `.mcp.json` and `--mcp-config`, claude-code-action's `mcp_config`), stdio servers only.
 */
export interface McpServerConfig {
  readonly name: string;
  readonly command: string;
  readonly args: readonly string[];
  /** Added to the tool environment the server starts with (see docs/agent-tools.md, "MCP servers"). */
  readonly env: Readonly<Record<string, string>>;
}

/**
 * A server name becomes part of each tool name, `mcp__<server>__<tool>`, which the Messages API
 * limits to ^[a-zA-Z0-9_-]{1,64}$: the name keeps to those characters and leaves room for the tool.
 */
export const SERVER_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,40}$/;
/** More servers than anyone configures by hand; each is a process for the whole run. */
export const MAX_SERVERS = 20;
const MAX_CONFIG_CHARS = 100_000;
/** The most a configuration file may hold: MAX_CONFIG_CHARS characters of up to 4 bytes in UTF-8. */
const MAX_CONFIG_FILE_BYTES = 4 * MAX_CONFIG_CHARS;
/** `${NAME}` or `${NAME:-default}`: Claude Code expands these, we pass values as they are. */
const VARIABLE_REFERENCE = /\$\{[A-Za-z_][A-Za-z0-9_]*(?::-[^}]*)?\}/;

const REMOTE_TYPES = ['http', 'sse', 'ws', 'streamable-http', 'sdk'];
const STDIO_KEYS = ['type', 'command', 'args', 'env'];

const StdioServer = z
  .object({
    type: z.literal('stdio').optional(),
    command: z.string().trim().min(1, 'must be a non-empty string'),
    args: z.array(z.string()).max(200).default([]),
    env: z
      .record(
        z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'holds a name that is not a variable name'),
        z.string()
      )
      .default({})
  })
  .strict();

const ConfigFile = z.object({ mcpServers: z.record(z.string(), z.unknown()) }).strict();

/** What the input held: the servers, or the problems (each one sentence naming the input). */
export type McpConfigResult =
  | { readonly ok: true; readonly servers: readonly McpServerConfig[] }
  | { readonly ok: false; readonly problems: readonly string[] };

/**
 * Reads the MCP configuration from an input's value: inline JSON (it starts with `{`) or the path
 * of a JSON file (relative to the working folder). Empty means no servers. `shown` is the input
 * as the person wrote it (`mcp_config` or `--mcp-config`).
 */
export function readMcpConfig(raw: string, shown: string): McpConfigResult {
  const value = raw.trim();
  if (value === '') return { ok: true, servers: [] };
  if (value.startsWith('{')) return parseMcpConfig(value, shown);
  const file = path.resolve(value);
  let text: string;
  try {
    text = readRegularFileSync(file, MAX_CONFIG_FILE_BYTES).toString('utf8');
  } catch (error) {
    const reason = unreadableReason(error);
    return fail(
      `${shown}: cannot read the file ${file} (${reason}). ` +
        'Give inline JSON, or the path of a regular JSON file of the form {"mcpServers": {...}}.'
    );
  }
  return parseMcpConfig(text, `${shown} (${value})`);
}

/**
 * The servers as inline JSON that readMcpConfig reads back as the same servers: a caller that has
 * read the configuration once passes this on, so its file is not read a second time.
 */
export function mcpConfigInline(servers: readonly McpServerConfig[]): string {
  // Empty args and env are left out, so the text is never longer than the compact original.
  const entries = servers.map(({ name, command, args, env }) => [
    name,
    { command, ...(args.length > 0 ? { args } : {}), ...(Object.keys(env).length > 0 ? { env } : {}) }
  ]);
  return JSON.stringify({ mcpServers: Object.fromEntries(entries) });
}

/** Parses and checks the JSON text of an MCP configuration. */
export function parseMcpConfig(text: string, shown: string): McpConfigResult {
  if (text.length > MAX_CONFIG_CHARS) {
    return fail(
      `${shown} is ${text.length} characters long; an MCP configuration may hold at most ${MAX_CONFIG_CHARS}.`
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return fail(
      `${shown} is not valid JSON (${errorMessage(error)}). ` +
        'Expected {"mcpServers": {"<name>": {"command": "...", "args": ["..."], "env": {"NAME": "value"}}}}.'
    );
  }
  const file = ConfigFile.safeParse(json);
  if (!file.success) {
    return fail(
      `${shown} must be an object with one key, "mcpServers", mapping server names to ` +
        '{"command": "...", "args": [...], "env": {...}}; ' +
        `${describeIssues(file.error)}.`
    );
  }
  const entries = Object.entries(file.data.mcpServers);
  if (entries.length > MAX_SERVERS) {
    return fail(`${shown} names ${entries.length} servers; at most ${MAX_SERVERS} are started.`);
  }
  const problems: string[] = [];
  const servers: McpServerConfig[] = [];
  for (const [name, entry] of entries) {
    const server = parseServer(name, entry, `${shown}: the server "${name}"`, problems);
    if (server) servers.push(server);
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, servers };
}

function parseServer(
  name: string,
  entry: unknown,
  shown: string,
  problems: string[]
): McpServerConfig | undefined {
  if (!SERVER_NAME_PATTERN.test(name)) {
    problems.push(
      `${shown} has a name that cannot be part of a tool name: use 1 to 40 letters, digits, "_" or "-" ` +
        '(its tools are called mcp__<server>__<tool>, and the API allows only those characters).'
    );
    return undefined;
  }
  const remote = remoteKind(entry);
  if (remote) {
    problems.push(
      `${shown} is a remote server (${remote}). compact-agent starts stdio servers only (a "command" it runs, ` +
        'with "args" and "env"); a remote server needs a local stdio bridge, e.g. a command that proxies to its URL.'
    );
    return undefined;
  }
  const parsed = StdioServer.safeParse(entry);
  if (!parsed.success) {
    problems.push(`${shown}: ${describeIssues(parsed.error)}. Supported keys: ${STDIO_KEYS.join(', ')}.`);
    return undefined;
  }
  const { command, args, env } = parsed.data;
  const withReference = [command, ...args, ...Object.values(env)].find((value) =>
    VARIABLE_REFERENCE.test(value)
  );
  if (withReference !== undefined) {
    problems.push(
      `${shown} holds "${VARIABLE_REFERENCE.exec(withReference)?.[0]}": compact-agent does not expand environment ` +
        'variables in the MCP configuration. Put the value itself there (in a workflow, `${{ secrets.NAME }}`).'
    );
    return undefined;
  }
  return { name, command, args, env };
}

/** The kind of a remote server entry ("http", "sse", ...), or undefined for anything else. */
function remoteKind(entry: unknown): string | undefined {
  if (typeof entry !== 'object' || entry === null) return undefined;
  const { type, url } = entry as { type?: unknown; url?: unknown };
  if (typeof type === 'string' && REMOTE_TYPES.includes(type)) return `type "${type}"`;
  if (typeof type === 'string' && type !== 'stdio') return `unknown type "${type}"`;
  if (url !== undefined && (entry as { command?: unknown }).command === undefined)
    return 'a "url" and no "command"';
  return undefined;
}

function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => {
      if (issue.code === 'unrecognized_keys')
        return `unsupported key(s) ${issue.keys.map((key) => `"${key}"`).join(', ')}`;
      const where = issue.path.length > 0 ? `"${issue.path.join('.')}"` : 'the value';
      if (issue.code === 'invalid_type' && /received undefined/.test(issue.message))
        return `${where} is missing`;
      if (issue.code === 'invalid_key')
        return `${where} holds a name that is not a variable name (letters, digits, _)`;
      return `${where}: ${issue.message.replace(/^Invalid input: /, '')}`;
    })
    .join('; ');
}

function fail(problem: string): McpConfigResult {
  return { ok: false, problems: [problem] };
}

/**
 * The values of the servers' env entries whose names say they hold a secret (API_KEY, TOKEN, ...),
 * for the redactor: a server that echoes its key must not put it in the transcript or the report.
 */
export function mcpConfigSecrets(raw: string, isSecretName: (name: string) => boolean): string[] {
  const config = readMcpConfig(raw, 'mcp_config');
  return config.ok ? mcpServerSecrets(config.servers, isSecretName) : [];
}

/** The same, from servers already read. */
export function mcpServerSecrets(
  servers: readonly McpServerConfig[],
  isSecretName: (name: string) => boolean
): string[] {
  return servers.flatMap((server) =>
    Object.entries(server.env).flatMap(([name, value]) => (isSecretName(name) ? [value] : []))
  );
}
