import type { ToolContext } from '../../src/tools/tool.js';
import { Workspace } from '../../src/tools/workspace.js';
import { buildToolEnvironment } from '../../src/tools/environment.js';

export interface RecordingToolContext extends ToolContext {
  readonly compactionRequests: Array<string | undefined>;
}

export function toolContext(root: string, env: NodeJS.ProcessEnv = process.env): RecordingToolContext {
  const compactionRequests: Array<string | undefined> = [];
  return {
    workspace: new Workspace(root),
    signal: new AbortController().signal,
    env: buildToolEnvironment(env),
    compactionRequests,
    requestCompaction: (focus) => compactionRequests.push(focus)
  };
}
