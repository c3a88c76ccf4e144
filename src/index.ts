import * as core from '@actions/core';
import { missingRunnerVariables, outsideActionsMessage } from './action/actions-environment.js';
import { run } from './action/run.js';
import { sealSecretEnvironment } from './security/sealed-env.js';
import { errorMessage } from './errors/error-message.js';

// The action's entry point. First, the secrets leave the process's initial environment (this
// re-executes the process once), so the agent's shell cannot read them from /proc; then, with the
// environment back, it checks that a runner started it, and runs.
try {
  const sealed = sealSecretEnvironment(process);
  if (sealed.kind === 'unsupported') core.warning(`compact-agent: ${sealed.reason}.`);
  const missing = missingRunnerVariables(process.env);
  if (missing.length > 0) {
    process.stderr.write(`${outsideActionsMessage(missing)}\n`);
    process.exitCode = 1;
  } else {
    void run();
  }
} catch (error) {
  core.setFailed(errorMessage(error));
}
