import { INITIAL_CHARS_PER_TOKEN } from '../../compaction/token-meter.js';
import { toolDefinition } from '../registry.js';
import type { Tool } from '../tool.js';

/**
 * How many tokens the MCP tools' definitions may take, all servers together. Every request carries
 * them, and the compaction threshold counts them like the work: 20,000 tokens by default on Sonnet
 * 5.5 (15,000 on models whose cache reads cost 0.1x). The seven built-in tools are 3,841 characters
 * (about 550 each) and the system prompt 1,316: about 2,300 tokens as the token meter counts them
 * before anything is measured. With 5,000 more the fixed prefix stays under 40% of 20,000 (about
 * half of 15,000), leaving most of the threshold for the work. That is some three times the
 * built-ins' definitions: about 20 tools of their size.
 */
export const MAX_MCP_DEFINITION_TOKENS = 5_000;
/**
 * The same cap in characters of the definitions' JSON as the API is sent it, at the token meter's
 * starting ratio (dense on purpose, so the estimate errs on the side of a smaller prefix).
 */
export const MAX_MCP_DEFINITION_CHARS = MAX_MCP_DEFINITION_TOKENS * INITIAL_CHARS_PER_TOKEN;

/** The tools a server would add, under the agent's names. */
export interface ServerTools {
  readonly name: string;
  readonly tools: readonly Tool[];
}

const LARGEST_SHOWN = 3;

/** Characters of one tool's definition as the API is sent it (name, description, input schema). */
export function definitionChars(tool: Tool): number {
  return JSON.stringify(toolDefinition(tool)).length;
}

/**
 * Undefined when the servers' tool definitions fit the cap; else one paragraph that names each
 * server with its size and the largest tools, and says what to do.
 *
 * Past the cap the run is refused, before any model call, rather than started with the tools that
 * fit: which tools a task needs is the user's choice, not an order of listing, and a run missing
 * the one it needs costs turns before anyone reads a log line. The configuration has no per-tool
 * filter, but most servers take an option (in `args` or `env`) that lists fewer tools.
 */
export function definitionBudgetProblem(servers: readonly ServerTools[]): string | undefined {
  const maxChars = MAX_MCP_DEFINITION_CHARS;
  const sized = servers.map((server) => ({
    name: server.name,
    tools: server.tools.map((tool) => ({ name: tool.name, chars: definitionChars(tool) }))
  }));
  const serverChars = sized.map((server) => ({
    ...server,
    chars: server.tools.reduce((sum, tool) => sum + tool.chars, 0)
  }));
  const total = serverChars.reduce((sum, server) => sum + server.chars, 0);
  if (total <= maxChars) return undefined;
  const perServer = serverChars
    .map((server) => `"${server.name}" ${count(server.chars)} characters in ${server.tools.length} tools`)
    .join(', ');
  const largest = sized
    .flatMap((server) => server.tools)
    .sort((a, b) => b.chars - a.chars)
    .slice(0, LARGEST_SHOWN)
    .map((tool) => `${tool.name} ${count(tool.chars)}`)
    .join(', ');
  return (
    `The MCP servers' tool definitions come to ${count(total)} characters (about ${tokens(total)} tokens), ` +
    `more than the ${count(maxChars)} (about ${tokens(maxChars)} tokens) a run sends: ${perServer}; ` +
    `the largest tools are ${largest}. Every request carries these definitions and the compaction ` +
    'threshold counts them (20,000 tokens by default on Sonnet 5.5), so more would leave too little room ' +
    'for the work. Remove a server from the MCP configuration, or start it with its own option for ' +
    'fewer tools (many servers take one in their "args" or "env"), until the total is under the cap; ' +
    'the run was stopped before any model call.'
  );
}

function count(chars: number): string {
  return chars.toLocaleString('en-US');
}

function tokens(chars: number): string {
  return Math.round(chars / INITIAL_CHARS_PER_TOKEN).toLocaleString('en-US');
}
