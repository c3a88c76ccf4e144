import type { Tool } from './tool.js';
import { createBashTool } from './bash.js';
import { compactTool } from './compact.js';
import { editFileTool } from './edit-file.js';
import { globTool } from './glob.js';
import { grepTool } from './grep.js';
import { readFileTool } from './read-file.js';
import { ToolRegistry } from './registry.js';
import { writeFileTool } from './write-file.js';
import { NO_TOOL_LIMITS, offeredTools, type ToolLimits } from './limits/index.js';

export interface ToolSettings {
  readonly bashTimeoutMs?: number;
  /** Tools from outside (MCP servers), after the built-in ones so that their prefix stays cached. */
  readonly extraTools?: readonly Tool[];
  /** Which tools are offered and which bash commands may run; none by default. */
  readonly limits?: ToolLimits;
  /** Told the names in the tool lists that no tool of this run has (e.g. an MCP tool that did not show up). */
  readonly onUnmatchedNames?: (names: readonly string[]) => void;
}

/** The agent's tool set, in a fixed order (the order is part of the cached prompt prefix). */
export function createDefaultTools(settings: ToolSettings = {}): ToolRegistry {
  const limits = settings.limits ?? NO_TOOL_LIMITS;
  const tools: Tool[] = [
    createBashTool(settings.bashTimeoutMs, limits.bash),
    readFileTool,
    writeFileTool,
    editFileTool,
    globTool,
    grepTool,
    compactTool,
    ...(settings.extraTools ?? [])
  ];
  const { offered, withheld, unmatched } = offeredTools(tools, limits);
  if (unmatched.length > 0) settings.onUnmatchedNames?.(unmatched);
  return new ToolRegistry(offered, { withheld });
}
