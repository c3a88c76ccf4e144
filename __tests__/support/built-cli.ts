import { spawn } from 'node:child_process';
import { ACTION_NODE } from '../../test-support/action-node.js';

export interface BuiltCliExit {
  readonly code: number | null;
  readonly stderr: string;
}

/**
 * The built CLI (dist/cli/index.js) as a user starts it, on the Node the project targets (it has
 * process.execve, so the CLI seals its environment), with exactly the environment given.
 */
export function runBuiltCli(args: readonly string[], env: NodeJS.ProcessEnv): Promise<BuiltCliExit> {
  return new Promise((resolve, reject) => {
    const child = spawn(ACTION_NODE, ['dist/cli/index.js', ...args], {
      env,
      stdio: ['ignore', 'ignore', 'pipe']
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}
