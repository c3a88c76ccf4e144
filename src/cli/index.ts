#!/usr/bin/env node
import { CLI_USAGE, parseCliArguments } from './args.js';
import { runCommand } from './run-command.js';
import { transcriptCommand } from './transcript-command.js';
import { verifyCommand } from './verify-command.js';

/** The CLI entry point: parse, dispatch, set the exit code. Ctrl-C ends the run cleanly. */
async function main(argv: readonly string[]): Promise<number> {
  let args;
  try {
    args = parseCliArguments(argv);
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n\n${CLI_USAGE}\n`);
    return 2;
  }
  if (args.help || args.command === undefined) {
    process.stdout.write(`${CLI_USAGE}\n`);
    return args.help ? 0 : 2;
  }
  if (args.command === 'transcript' && args.positionals[0] === 'verify') {
    return verifyCommand(
      { target: args.positionals[1], head: args.values.get('head') },
      {
        stdout: (text) => process.stdout.write(`${text}\n`),
        stderr: (text) => process.stderr.write(`${text}\n`)
      }
    );
  }
  if (args.command === 'transcript') {
    return transcriptCommand(
      { target: args.positionals[0], json: args.json, html: args.values.get('html') },
      {
        stdout: (text) => process.stdout.write(`${text}\n`),
        stderr: (text) => process.stderr.write(`${text}\n`),
        env: process.env
      }
    );
  }
  if (args.command !== 'run') {
    process.stderr.write(`Unknown command "${args.command}".\n\n${CLI_USAGE}\n`);
    return 2;
  }
  const cancel = new AbortController();
  process.once('SIGINT', () => cancel.abort());
  process.once('SIGTERM', () => cancel.abort());
  return runCommand(args.values, {
    stdout: (text) => process.stdout.write(`${text}\n`),
    stderr: (text) => process.stderr.write(`${text}\n`),
    env: process.env,
    signal: cancel.signal
  });
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`compact-agent failed: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exitCode = 1;
  }
);
