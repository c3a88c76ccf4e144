import type { Tool } from './tool.js';
import { createBashTool } from './bash.js';
import { compactTool } from './compact.js';
import { editFileTool } from './edit-file.js';
import { globTool } from './glob.js';
import { grepTool } from './grep.js';
import { readFileTool } from './read-file.js';
import { ToolRegistry } from './registry.js';
import { writeFileTool } from './write-file.js';

export interface ToolSettings {
  readonly bashTimeoutMs?: number;
  /** Tools from outside (MCP servers), after the built-in ones so that their prefix stays cached. */
  readonly extraTools?: readonly Tool[];
}

/** The agent's tool set, in a fixed order (the order is part of the cached prompt prefix). */
export function createDefaultTools(settings: ToolSettings = {}): ToolRegistry {
  const tools: Tool[] = [
    createBashTool(settings.bashTimeoutMs),
    readFileTool,
    writeFileTool,
    editFileTool,
    globTool,
    grepTool,
    compactTool,
    ...(settings.extraTools ?? [])
  ];
  return new ToolRegistry(tools);
}
