#!/usr/bin/env node
import { runCli } from './main.js';

// The CLI's entry point: Ctrl-C ends a run cleanly (the transcript records it), then the exit code
// is set (exit-codes.ts; the README lists them). runCli turns every error into a message and a code.
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
