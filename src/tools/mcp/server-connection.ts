import { randomBytes } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { JsonSchemaValidator, jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import type { BoxedCommand, CommandBox } from '../../sandbox/command-box.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { BoundedBuffer } from '../bounded-buffer.js';
import { COMMAND_MARKER_VARIABLE, readSpawnClock, type SpawnClock } from '../process-table.js';
import type { ToolOutput } from '../tool.js';
import { ToolError } from '../tool-error.js';
import { callAnswerText, type CallAnswer } from './call-result.js';
import type { McpServerConfig } from './config.js';
import { checkListedTool, type ListedTool } from './listed-tool.js';
import { killMarkedProcesses } from './process-cleanup.js';
import { errorMessage } from '../../errors/error-message.js';

/**
 * The SDK checks a tool's structuredContent against the server's outputSchema with a backtracking
 * regex engine, on our event loop: a hostile `pattern` froze a run past every timeout and Ctrl-C
 * (a 2 s call took 175 s). We use only the text content, so the structured part is not checked.
 */
export const SKIP_OUTPUT_SCHEMAS: jsonSchemaValidator = {
  getValidator<T>(): JsonSchemaValidator<T> {
    return (input) => ({ valid: true, data: input as T, errorMessage: undefined });
  }
};

export interface ConnectOptions {
  /** The repository folder: the server runs there, as the agent's commands do. */
  readonly cwd: string;
  /** The tool environment (never the action's own); the server's `env` is added to it. */
  readonly env: NodeJS.ProcessEnv;
  /** For the handshake and each listing page. */
  readonly startTimeoutMs: number;
  readonly signal?: AbortSignal;
  /** The box the server runs in, as the agent's commands do (src/sandbox/); none: on the runner. */
  readonly box?: CommandBox;
}

/** A tool the server listed but the agent is not offered, and why. */
export interface SkippedTool {
  readonly name: string;
  readonly reason: string;
}

const CLIENT_INFO = { name: 'compact-agent', version: '0' };
/** One JSON-RPC message may be this large; a larger one closes the connection (the SDK's own check). */
const MAX_MESSAGE_BYTES = 8 * 1024 * 1024;
const MAX_TOOLS_PER_SERVER = 100;
const MAX_LIST_PAGES = 20;
const STDERR_KEPT_CHARS = 2_000;

/** A running MCP server over stdio, its checked tools, and the way to stop it and its children. */
export class McpServerConnection {
  private constructor(
    readonly config: McpServerConfig,
    private readonly client: Client,
    private readonly marker: string,
    private readonly spawnClock: SpawnClock,
    readonly tools: readonly ListedTool[],
    readonly skipped: readonly SkippedTool[],
    private readonly boxed: BoxedCommand | undefined
  ) {}

  /** Starts the server, shakes hands and lists its tools; on any failure, stops it and throws. */
  static async connect(config: McpServerConfig, options: ConnectOptions): Promise<McpServerConnection> {
    const marker = randomBytes(16).toString('hex');
    const spawnClock = readSpawnClock();
    const stderr = new BoundedBuffer(STDERR_KEPT_CHARS);
    const env = { ...definedOnly(options.env), ...config.env, [COMMAND_MARKER_VARIABLE]: marker };
    const argv = [config.command, ...config.args];
    const boxed = options.box
      ? await options.box.wrapArgv(argv, env, `MCP server ${config.name}: ${argv.join(' ')}`)
      : undefined;
    const transport = new StdioClientTransport({
      command: boxed?.file ?? config.command,
      args: boxed ? [...boxed.args] : [...config.args],
      env: boxed ? definedOnly(boxed.env) : env,
      cwd: options.cwd,
      // Kept for an error message, never printed: a server may log what it was given.
      stderr: 'pipe',
      maxBufferSize: MAX_MESSAGE_BYTES
    });
    transport.stderr?.on('data', (chunk: Buffer) => stderr.append(chunk.toString('utf8')));
    const client = new Client(CLIENT_INFO, { capabilities: {}, jsonSchemaValidator: SKIP_OUTPUT_SCHEMAS });
    const requestOptions = {
      timeout: options.startTimeoutMs,
      ...(options.signal ? { signal: options.signal } : {})
    };
    try {
      await client.connect(transport, requestOptions);
      const { tools, skipped } = await listTools(client, requestOptions);
      return new McpServerConnection(config, client, marker, spawnClock, tools, skipped, boxed);
    } catch (error) {
      await stop(client, marker, spawnClock);
      await boxed?.finish();
      throw McpStartError.notStarted(config, oneLine(errorMessage(error)), stderr.text());
    }
  }

  /** Calls one tool; a failure (the server's error answer, a timeout, a closed pipe) is a tool error. */
  async call(
    tool: string,
    input: Record<string, unknown>,
    signal: AbortSignal,
    timeoutMs: number
  ): Promise<ToolOutput> {
    let answer: CallAnswer;
    try {
      answer = (await this.client.callTool({ name: tool, arguments: input }, undefined, {
        signal,
        timeout: timeoutMs
      })) as CallAnswer;
    } catch (error) {
      throw new ToolError(
        `The MCP server "${this.config.name}" failed on ${tool}: ${oneLine(errorMessage(error))}`
      );
    }
    return { content: callAnswerText(answer), isError: answer.isError === true };
  }

  /** Closes the connection (the SDK ends stdin, then SIGTERM, then SIGKILL) and kills what is left. */
  async close(): Promise<void> {
    await stop(this.client, this.marker, this.spawnClock);
    await this.boxed?.finish();
  }
}

/** An MCP configuration the run cannot start with: the run stops before the first model call. */
export class McpStartError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'McpStartError';
  }

  /** A server that could not be started or listed. */
  static notStarted(config: McpServerConfig, reason: string, stderr: string): McpStartError {
    const shownStderr =
      stderr.trim() === '' ? '' : ` Its error output ended with: ${oneLine(stderr.trim().slice(-500))}`;
    return new McpStartError(
      `The MCP server "${config.name}" could not be started (command: ${[config.command, ...config.args].join(' ')}, ` +
        `run in the repository folder): ${reason}.${shownStderr} Check that the command is installed on the runner ` +
        'and starts an MCP server on stdio, or remove it from the MCP configuration.'
    );
  }
}

async function listTools(
  client: Client,
  options: { timeout: number; signal?: AbortSignal }
): Promise<{ tools: ListedTool[]; skipped: SkippedTool[] }> {
  const tools: ListedTool[] = [];
  const skipped: SkippedTool[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_LIST_PAGES; page++) {
    const answer = await client.listTools(cursor === undefined ? {} : { cursor }, options);
    for (const entry of answer.tools as unknown[]) {
      const checked = checkListedTool(entry);
      if (!checked.ok) skipped.push({ name: checked.name, reason: checked.reason });
      else if (tools.length >= MAX_TOOLS_PER_SERVER)
        skipped.push({
          name: checked.tool.name,
          reason: `the server lists more than ${MAX_TOOLS_PER_SERVER} tools`
        });
      else tools.push(checked.tool);
    }
    cursor = answer.nextCursor;
    if (cursor === undefined) break;
  }
  return { tools, skipped };
}

async function stop(client: Client, marker: string, spawnClock: SpawnClock): Promise<void> {
  try {
    await client.close();
  } catch {
    // The process is swept below either way.
  }
  await killMarkedProcesses(marker, spawnClock);
}

function definedOnly(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined)
  );
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
