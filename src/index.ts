import * as core from '@actions/core';
import { run } from './action/run.js';
import { sealSecretEnvironment } from './security/sealed-env.js';

// The action's entry point. First, the secrets leave the process's initial environment (this
// re-executes the process once), so the agent's shell cannot read them from /proc; then run().
try {
  const sealed = sealSecretEnvironment(process);
  if (sealed.kind === 'unsupported') core.warning(`compact-agent: ${sealed.reason}.`);
  void run();
} catch (error) {
  core.setFailed(error instanceof Error ? error.message : String(error));
}
