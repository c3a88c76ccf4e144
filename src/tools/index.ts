import type { Tool } from './tool.js';
import type { CommandBox } from '../sandbox/command-box.js';
import { createBashTool } from './bash.js';
import { compactTool } from './compact.js';
import { editFileTool } from './edit-file.js';
import { globTool } from './glob.js';
import { grepTool } from './grep.js';
import { readFileTool } from './read-file.js';
import { ToolRegistry } from './registry.js';
import { writeFileTool } from './write-file.js';
import { NO_TOOL_LIMITS, offeredTools, ToolDeniedError, type ToolLimits } from './limits/index.js';
import { readOnlyRefusal, WRITING_TOOLS, type RunMode } from '../agent/run-mode.js';

export interface ToolSettings {
  readonly bashTimeoutMs?: number;
  /** Tools from outside (MCP servers), after the built-in ones so that their prefix stays cached. */
  readonly extraTools?: readonly Tool[];
  /** Which tools are offered and which bash commands may run; none by default. */
  readonly limits?: ToolLimits;
  /** Told the names in the tool lists that no tool of this run has (e.g. an MCP tool that did not show up). */
  readonly onUnmatchedNames?: (names: readonly string[]) => void;
  /** A plan or a review: the writing tools are left out, and the mode's own tools come after the built-in ones. */
  readonly mode?: Pick<RunMode, 'name' | 'readOnly' | 'tools'>;
  /** The box the bash tool's commands run in (src/sandbox/); none: the process sweep ends what they leave. */
  readonly box?: CommandBox;
}

/** The agent's tool set, in a fixed order (the order is part of the cached prompt prefix). */
export function createDefaultTools(settings: ToolSettings = {}): ToolRegistry {
  const limits = settings.limits ?? NO_TOOL_LIMITS;
  const tools: Tool[] = [
    createBashTool(settings.bashTimeoutMs, limits.bash, settings.box),
    readFileTool,
    writeFileTool,
    editFileTool,
    globTool,
    grepTool,
    compactTool,
    ...(settings.mode?.tools ?? []),
    ...(settings.extraTools ?? [])
  ];
  const readOnly = settings.mode?.readOnly === true;
  const { offered, withheld, unmatched } = offeredTools(
    readOnly ? tools.filter((tool) => !WRITING_TOOLS.includes(tool.name)) : tools,
    limits
  );
  // The writing tools are this run's all the same: a list that names them is not mistaken.
  const unknown = readOnly ? unmatched.filter((name) => !WRITING_TOOLS.includes(name)) : unmatched;
  if (unknown.length > 0) settings.onUnmatchedNames?.(unknown);
  const refusals = new Map(withheld);
  // Named by the mode, not by a limit: a call to them by name gets the reason and is counted as denied.
  if (readOnly)
    for (const name of WRITING_TOOLS)
      refusals.set(
        name,
        new ToolDeniedError(readOnlyRefusal(settings.mode?.name ?? 'plan'), 'read-only run', name)
      );
  return new ToolRegistry(offered, { withheld: refusals });
}
