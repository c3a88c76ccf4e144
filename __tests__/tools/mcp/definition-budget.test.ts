import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { buildSystemPrompt } from '../../../src/agent/system-prompt.js';
import { defaultThreshold } from '../../../src/compaction/settings.js';
import { TokenMeter } from '../../../src/compaction/token-meter.js';
import { findModel } from '../../../src/config/model-catalog.js';
import { createDefaultTools } from '../../../src/tools/index.js';
import {
  definitionBudgetProblem,
  definitionChars,
  MAX_MCP_DEFINITION_CHARS,
  MAX_MCP_DEFINITION_TOKENS
} from '../../../src/tools/mcp/definition-budget.js';
import { ToolRegistry } from '../../../src/tools/registry.js';
import { defineTool, type Tool } from '../../../src/tools/tool.js';

/** An MCP-like tool (its schema given as data, as a server's is) whose description has `chars` characters. */
function mcpTool(name: string, descriptionChars: number): Tool {
  return defineTool({
    name,
    description: 'd'.repeat(descriptionChars),
    inputSchema: z.record(z.string(), z.unknown()),
    apiInputSchema: { type: 'object', properties: { key: { type: 'string' } } },
    run: async () => ({ content: '' })
  });
}

/** Tools named `<server>_<n>` whose definitions add up to exactly `total` characters. */
function toolsOfSize(server: string, count: number, total: number): Tool[] {
  const bare = Array.from({ length: count }, (_, index) => definitionChars(mcpTool(`${server}_${index}`, 0)));
  const spare = total - bare.reduce((sum, chars) => sum + chars, 0);
  return bare.map((_, index) =>
    mcpTool(`${server}_${index}`, Math.floor(spare / count) + (index < spare % count ? 1 : 0))
  );
}

describe('the cap on the MCP tools’ definitions', () => {
  it('leaves most of the default compaction threshold on Sonnet 5.5 for the work', () => {
    const sonnet = findModel('claude-sonnet-5-5')!;
    const threshold = defaultThreshold(
      sonnet.contextWindow,
      sonnet.maxOutputTokens,
      sonnet.prices.cacheReadPerMTok / sonnet.prices.inputPerMTok,
      sonnet.minCacheableTokens
    );
    expect(threshold).toBe(20_000);
    const builtIns = JSON.stringify(createDefaultTools().definitions).length;
    const meter = new TokenMeter(0);
    // As the compaction counts them before any measurement: built-ins, system prompt, a full MCP cap.
    const fixedPrefix = meter.estimate(builtIns + buildSystemPrompt().length + MAX_MCP_DEFINITION_CHARS);
    expect(fixedPrefix).toBeLessThan(threshold * 0.4);
    // The cap is a few times the built-ins, not a sliver of them nor the whole threshold.
    expect(MAX_MCP_DEFINITION_CHARS).toBeGreaterThan(3 * builtIns);
    // docs/agent-tools.md states the cap as users see it in the refusal.
    const page = readFileSync('docs/agent-tools.md', 'utf8');
    expect(page).toContain(
      `may take ${MAX_MCP_DEFINITION_CHARS.toLocaleString('en-US')} characters, about ` +
        `${MAX_MCP_DEFINITION_TOKENS.toLocaleString('en-US')} tokens`
    );
  });

  it('measures a tool as the API is sent it', () => {
    const tool = mcpTool('mcp__s__lookup', 321);
    const [sent] = new ToolRegistry([tool]).definitions;
    expect(definitionChars(tool)).toBe(JSON.stringify(sent).length);
  });

  it('lets definitions up to the cap through', () => {
    const servers = [
      { name: 'a', tools: toolsOfSize('a', 7, 5_000) },
      { name: 'b', tools: toolsOfSize('b', 3, MAX_MCP_DEFINITION_CHARS - 5_000) }
    ];
    expect(servers.flatMap((server) => server.tools).reduce((sum, t) => sum + definitionChars(t), 0)).toBe(
      MAX_MCP_DEFINITION_CHARS
    );
    expect(definitionBudgetProblem(servers)).toBeUndefined();
    expect(definitionBudgetProblem([])).toBeUndefined();
  });

  it('refuses one character more, naming each server with its size, the largest tools and what to do', () => {
    const problem = definitionBudgetProblem([
      { name: 'a', tools: toolsOfSize('a', 7, 5_000) },
      {
        name: 'b',
        tools: [...toolsOfSize('b', 2, MAX_MCP_DEFINITION_CHARS - 7_000), mcpTool('b_huge', 1_900)]
      }
    ]);
    const hugeChars = definitionChars(mcpTool('b_huge', 1_900));
    const bChars = MAX_MCP_DEFINITION_CHARS - 7_000 + hugeChars;
    expect(problem).toBeDefined();
    expect(problem).toContain(
      `The MCP servers' tool definitions come to ${(5_000 + bChars).toLocaleString('en-US')} characters`
    );
    expect(problem).toContain('more than the 12,500 (about 5,000 tokens) a run sends');
    expect(problem).toContain(
      `"a" 5,000 characters in 7 tools, "b" ${bChars.toLocaleString('en-US')} characters in 3 tools`
    );
    expect(problem).toContain(`the largest tools are b_0 `);
    expect(problem).toContain(`b_huge ${hugeChars.toLocaleString('en-US')}`);
    expect(problem).toContain('Remove a server from the MCP configuration, or start it with its own option');
    expect(problem).not.toContain('\n');

    const justOver = definitionBudgetProblem([
      { name: 'a', tools: toolsOfSize('a', 4, MAX_MCP_DEFINITION_CHARS + 1) }
    ]);
    expect(justOver).toContain('come to 12,501 characters');
  });
});
