import type { CommandBox } from '../../sandbox/command-box.js';
import { z } from 'zod';
import { defineTool, type Tool } from '../tool.js';
import type { McpServerConfig } from './config.js';
import { definitionBudgetProblem, type ServerTools } from './definition-budget.js';
import { McpServerConnection, McpStartError, type SkippedTool } from './server-connection.js';
import { ToolNameTable } from './tool-names.js';

export { McpStartError } from './server-connection.js';
export type { McpServerConfig } from './config.js';

export interface McpStartOptions {
  /** The repository folder. */
  readonly cwd: string;
  /** The tool environment (see tools/environment.ts): never the action's secrets. */
  readonly env: NodeJS.ProcessEnv;
  /** Each tool call's limit (the bash tool's default timeout). */
  readonly callTimeoutMs: number;
  readonly startTimeoutMs?: number;
  readonly signal?: AbortSignal;
  /** The box the servers run in (src/sandbox/); none: on the runner. */
  readonly box?: CommandBox;
}

/** What the transcript's run_start records of each server, for auditors. */
export interface McpServerRecord {
  readonly name: string;
  readonly command: string;
  readonly args: readonly string[];
  /** Names only: values may be secrets. */
  readonly env: readonly string[];
  /** The agent's names for its tools. */
  readonly tools: readonly string[];
  readonly skipped: readonly SkippedTool[];
}

/** The running servers and the tools they add; `close` stops them all (safe to call twice). */
export interface McpToolSet {
  readonly tools: readonly Tool[];
  readonly servers: readonly McpServerRecord[];
  /** One line for the log: the servers and their tools. Empty when none is configured. */
  readonly notice: string;
  close(): Promise<void>;
}

const DEFAULT_START_TIMEOUT_MS = 30_000;
const NO_SERVERS: McpToolSet = { tools: [], servers: [], notice: '', close: async () => {} };
const AnyObject = z.record(z.string(), z.unknown());

/**
 * Starts every configured server (at once), lists their tools and wraps each as an agent tool
 * named mcp__<server>__<tool>. If one server cannot start, the others are stopped and this throws
 * McpStartError naming it: the run fails before the first model call, not halfway. So it does,
 * after stopping them all, when their tools' definitions together pass MAX_MCP_DEFINITION_CHARS.
 */
export async function startMcpServers(
  servers: readonly McpServerConfig[],
  options: McpStartOptions
): Promise<McpToolSet> {
  // A run cancelled before it started calls no tool: it ends at once, as cancelled, not as failed.
  if (servers.length === 0 || options.signal?.aborted) return NO_SERVERS;
  const started = await Promise.allSettled(
    servers.map((server) =>
      McpServerConnection.connect(server, {
        cwd: options.cwd,
        env: options.env,
        startTimeoutMs: options.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS,
        ...(options.box ? { box: options.box } : {}),
        ...(options.signal ? { signal: options.signal } : {})
      })
    )
  );
  const connections = started.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value] : []));
  const closeAll = onlyOnce(async () => {
    await Promise.all(connections.map((connection) => connection.close()));
  });
  const failure = started.find((outcome) => outcome.status === 'rejected');
  if (failure) {
    await closeAll();
    if (options.signal?.aborted) return NO_SERVERS;
    throw failure.reason instanceof McpStartError ? failure.reason : new Error(String(failure.reason));
  }
  const offeredByServer: ServerTools[] = [];
  const records: McpServerRecord[] = [];
  const names = new ToolNameTable();
  for (const connection of connections) {
    const { config } = connection;
    const offered: Tool[] = [];
    const skipped = [...connection.skipped];
    for (const listed of connection.tools) {
      const claim = names.claim(config.name, listed.name);
      if (!claim.ok) {
        skipped.push({ name: listed.name, reason: claim.reason });
        continue;
      }
      offered.push(
        defineTool({
          name: claim.name,
          description: listed.description,
          inputSchema: AnyObject,
          apiInputSchema: listed.inputSchema,
          run: (input, context) => connection.call(listed.name, input, context.signal, options.callTimeoutMs)
        })
      );
    }
    records.push({
      name: config.name,
      command: config.command,
      args: config.args,
      env: Object.keys(config.env),
      tools: offered.map((tool) => tool.name),
      skipped
    });
    offeredByServer.push({ name: config.name, tools: offered });
  }
  const tooLarge = definitionBudgetProblem(offeredByServer);
  if (tooLarge !== undefined) {
    await closeAll();
    if (options.signal?.aborted) return NO_SERVERS;
    throw new McpStartError(tooLarge);
  }
  const tools = offeredByServer.flatMap((server) => server.tools);
  return { tools, servers: records, notice: noticeLine(records), close: closeAll };
}

function noticeLine(records: readonly McpServerRecord[]): string {
  const parts = records.map((record) => {
    const tools = record.tools.length > 0 ? record.tools.join(', ') : 'no tools';
    const skipped =
      record.skipped.length > 0
        ? `; not offered: ${record.skipped.map((tool) => `${tool.name} (${tool.reason})`).join(', ')}`
        : '';
    return `${record.name} (${record.command}): ${tools}${skipped}`;
  });
  return `MCP servers: ${parts.join('; ')}`;
}

function onlyOnce(action: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | undefined;
  return () => (running ??= action());
}
