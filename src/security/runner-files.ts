import { readFile, writeFile } from 'node:fs/promises';

/** The runner's file commands: what a step writes there changes outputs, env and PATH of later steps. */
const FILE_COMMANDS = [
  'GITHUB_OUTPUT',
  'GITHUB_ENV',
  'GITHUB_PATH',
  'GITHUB_STATE',
  'GITHUB_STEP_SUMMARY'
] as const;

export interface RunnerFilesGuard {
  /** Puts every file command back as it was before the agent ran. */
  restore(): Promise<string[]>;
}

/**
 * The agent's shell can write the runner's file commands (e.g. NODE_OPTIONS into GITHUB_ENV, which
 * would run code in every later step). Their contents are kept before the agent's turn and put back
 * after it; the names of the files that had changed are returned, to be reported.
 */
export async function guardRunnerFiles(env: NodeJS.ProcessEnv): Promise<RunnerFilesGuard> {
  const saved = new Map<string, Buffer>();
  for (const name of FILE_COMMANDS) {
    const file = env[name];
    if (!file) continue;
    saved.set(file, (await readFile(file).catch(() => undefined)) ?? Buffer.alloc(0));
  }
  return {
    restore: async () => {
      const changed: string[] = [];
      for (const [file, content] of saved) {
        const now = await readFile(file).catch(() => undefined);
        if (!now || now.equals(content)) continue;
        changed.push(file);
        await writeFile(file, content);
      }
      return changed;
    }
  };
}
