import type { Tool } from '../tool.js';
import type { ToolLimits } from './config.js';
import { ToolDeniedError } from './denied.js';

export { judgeBashCommand, type BashLimits, type BashVerdict, type CommandPrefix } from './bash-rules.js';
export { BUILT_IN_TOOLS, NO_TOOL_LIMITS, readToolLimits, type ToolLimits } from './config.js';
export { DeniedCalls, ToolDeniedError, type DeniedCall } from './denied.js';

export interface OfferedTools {
  readonly offered: readonly Tool[];
  /** The tools left out, each with the error a call to it by name gets (the model may still try). */
  readonly withheld: ReadonlyMap<string, ToolDeniedError>;
  /** Names in the lists that no tool of this run has (an MCP server's tool that did not show up). */
  readonly unmatched: readonly string[];
}

/**
 * Leaves out the tools the lists deny, so that the model is never offered them and spends no turn on
 * them. No tool is kept regardless: a run ends when the model answers without a tool call, and
 * compaction runs on its own without the `compact` tool.
 */
export function offeredTools(tools: readonly Tool[], limits: ToolLimits): OfferedTools {
  const offered: Tool[] = [];
  const withheld = new Map<string, ToolDeniedError>();
  for (const tool of tools) {
    const rule = limits.disallowedTools.includes(tool.name)
      ? limits.disallowedToolsSetting
      : limits.allowedTools && !limits.allowedTools.includes(tool.name)
        ? limits.allowedToolsSetting
        : undefined;
    if (rule === undefined) offered.push(tool);
    else {
      const why = rule === limits.disallowedToolsSetting ? `${rule} names it` : `${rule} does not name it`;
      withheld.set(tool.name, new ToolDeniedError(withheldMessage(tool.name, why), rule, tool.name));
    }
  }
  const names = new Set(tools.map((tool) => tool.name));
  const unmatched = [...(limits.allowedTools ?? []), ...limits.disallowedTools].filter(
    (name) => !names.has(name)
  );
  return { offered, withheld, unmatched: [...new Set(unmatched)] };
}

function withheldMessage(tool: string, why: string): string {
  return (
    `Denied: the tool ${tool} is not offered in this run (${why}; the list is set by whoever started the run, ` +
    'you cannot change it). Use the tools you were given, or say in your summary what you could not do.'
  );
}
