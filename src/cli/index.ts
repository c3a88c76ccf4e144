#!/usr/bin/env node
import { runCli } from './main.js';
import { EXIT } from './exit-codes.js';
import { errorMessage } from '../errors/error-message.js';
import { sealSecretEnvironment } from '../security/sealed-env.js';

// The CLI's entry point. First, as the action does, the environment leaves the process's initial
// environment (this re-executes the process once): without the box, the agent's commands could
// otherwise read every variable of the user's shell in /proc/$PPID/environ. Then Ctrl-C ends a run
// cleanly (the transcript records it), and the exit code is set (exit-codes.ts; docs/cli.md lists
// them). runCli turns every error into a message and a code.
function sealed(): boolean {
  try {
    const outcome = sealSecretEnvironment(process);
    if (outcome.kind === 'unsupported') process.stderr.write(`compact-agent: warning: ${outcome.reason}.\n`);
    return true;
  } catch (error) {
    process.stderr.write(`compact-agent: ${errorMessage(error)}\n`);
    process.exitCode = EXIT.usage;
    return false;
  }
}

if (sealed()) {
  const cancel = new AbortController();
  process.once('SIGINT', () => cancel.abort());
  process.once('SIGTERM', () => cancel.abort());
  void runCli(process.argv.slice(2), {
    stdout: (text) => process.stdout.write(`${text}\n`),
    stderr: (text) => process.stderr.write(`${text}\n`),
    env: process.env,
    signal: cancel.signal
  }).then((code) => {
    process.exitCode = code;
  });
}
