import type { AgentConfig } from '../config/inputs.js';
import type { WorkTarget } from './work-target.js';

/**
 * On a pull request from a fork the checkout is the fork's code, so a configured MCP server (often a
 * script in the repository, or npx reading the fork's .npmrc) would run the fork author's code with
 * the server's env, before any model call. Those runs get no MCP servers, and the log says why.
 */
export function agentConfigFor(
  target: WorkTarget,
  agent: AgentConfig,
  warn: (line: string) => void
): AgentConfig {
  if (target.kind !== 'fork' || agent.mcpServers.length === 0) return agent;
  warn(
    `mcp_config is ignored on this run: pull request #${target.pullNumber} comes from the fork ` +
      `${target.headRepo}, whose code would run as the MCP servers with their env. The agent runs with ` +
      'its built-in tools only.'
  );
  return { ...agent, mcpServers: [] };
}
