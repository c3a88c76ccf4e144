import { agentConfigFor } from '../../src/action/mcp-on-forks.js';
import type { AgentConfig } from '../../src/config/inputs.js';
import type { McpServerConfig } from '../../src/tools/mcp/config.js';

// Only the field under test matters here; the rest of the config passes through untouched.
const server = {
  name: 'tracker',
  command: 'node',
  args: ['tools/tracker-mcp.mjs'],
  env: {}
} as unknown as McpServerConfig;
const agent = { mcpServers: [server], maxOutputTokens: 1 } as unknown as AgentConfig;

describe('MCP servers on pull requests from forks', () => {
  it("are not started: the fork's code would run as the server, with its env", () => {
    const warnings: string[] = [];
    const config = agentConfigFor({ kind: 'fork', pullNumber: 7, headRepo: 'mallory/repo' }, agent, (line) =>
      warnings.push(line)
    );
    expect(config.mcpServers).toEqual([]);
    expect(config.maxOutputTokens).toBe(1);
    expect(warnings).toEqual([
      expect.stringContaining(
        'mcp_config is ignored on this run: pull request #7 comes from the fork mallory/repo'
      )
    ]);
  });

  it('are started on the repository own branches and pull requests', () => {
    const warnings: string[] = [];
    const config = agentConfigFor(
      { kind: 'new-branch', branch: 'agent/1-x', base: 'main', issueNumber: 1 },
      agent,
      (line) => warnings.push(line)
    );
    expect(config.mcpServers).toEqual([server]);
    expect(warnings).toEqual([]);
  });
});
