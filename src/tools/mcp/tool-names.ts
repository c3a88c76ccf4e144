import { createHash } from 'node:crypto';

/**
 * The Messages API's rule for a tool's name: "Must match the regex ^[a-zA-Z0-9_-]{1,64}$"
 * (https://platform.claude.com/docs/es/agents-and-tools/tool-use/implement-tool-use, the tool definition
 * parameters, read 2026-11-23). A request with one bad name is refused whole (400), every turn.
 */
export const API_TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const MAX_NAME = 64;
const HASH_CHARS = 8;

/**
 * The agent's name for a server's tool, `mcp__<server>__<tool>` (as Claude Code names them).
 * Characters the API refuses (MCP allows `.` and `/`) become `_`; a name past 64 characters is
 * clipped and ends in a short hash of the full name, so two long names stay apart. Server names
 * are checked when the configuration is read (SERVER_NAME_PATTERN).
 */
export function mcpToolName(server: string, tool: string): string {
  const full = `mcp__${server}__${tool.replace(/[^a-zA-Z0-9_-]/g, '_')}`;
  if (full.length <= MAX_NAME) return full;
  const hash = createHash('sha256').update(`${server}\0${tool}`).digest('hex').slice(0, HASH_CHARS);
  return `${full.slice(0, MAX_NAME - HASH_CHARS - 1)}_${hash}`;
}

export type NameClaim =
  { readonly ok: true; readonly name: string } | { readonly ok: false; readonly reason: string };

/**
 * Hands out the agent's names across all servers, first come first served: a tool whose name is
 * already taken (`a.b` and `a_b` both become `mcp__s__a_b`; server `a__b`'s `c` and server `a`'s
 * `b__c` both become `mcp__a__b__c`) is refused with a reason naming the tool that has it.
 */
export class ToolNameTable {
  private readonly owners = new Map<string, string>();

  claim(server: string, tool: string): NameClaim {
    const name = mcpToolName(server, tool);
    const owner = this.owners.get(name);
    if (owner !== undefined) return { ok: false, reason: `its name ${name} is already taken by ${owner}` };
    this.owners.set(name, `${server}'s ${tool}`);
    return { ok: true, name };
  }
}
