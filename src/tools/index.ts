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
    compactTool
  ];
  return new ToolRegistry(tools);
}
