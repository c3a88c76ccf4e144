import type { AgentConfig } from '../config/inputs.js';
import { unboxedValidation, type ValidationRunner } from './validation.js';
import { watchNestedRepositories } from '../git/nested-repositories.js';
import { openSessionBox } from '../sandbox/session-box.js';
import { runBoundedCommand } from '../tools/bounded-command.js';
import { toolEnvironment } from '../tools/environment.js';

/**
 * The validation command in the box the shard's agent had (same sandbox settings, same
 * environment rules): the worktree holds what the agent wrote, and a test run executes it. With
 * `sandbox: off` it runs without one, as the agent's commands did. With `requireBox` the command
 * runs in the box whatever the mode (as if `required`): no box throws SandboxUnavailableError, so a
 * job that holds a write credential never runs the agents' code on its host.
 */
export function boxedValidation(
  config: AgentConfig,
  env: NodeJS.ProcessEnv,
  onNotice: (line: string) => void,
  { requireBox = false }: { readonly requireBox?: boolean } = {}
): ValidationRunner {
  if (config.sandbox.mode === 'off' && !requireBox) return unboxedValidation(env);
  const sandbox = requireBox ? { ...config.sandbox, mode: 'required' as const } : config.sandbox;
  const shell = toolEnvironment(env, config.bashEnvPassthrough);
  return async (command, options) => {
    const nested = watchNestedRepositories(options.cwd);
    const session = await openSessionBox(
      sandbox,
      {
        workspace: options.cwd,
        env,
        nestedRepositories: nested,
        ...(options.readOnlyFolders ? { readOnly: options.readOnlyFolders } : {})
      },
      onNotice
    );
    try {
      const { readOnlyFolders: _shown, ...bounded } = options;
      return await runBoundedCommand(command, {
        ...bounded,
        env: shell.env,
        ...(session.box ? { box: session.box } : {})
      });
    } finally {
      await session.box?.close();
      nested.sweep();
    }
  };
}
