import type { CliCommand } from './command.js';
import { CLI_VERSION } from './version.js';

/** `compact-agent help`: the commands, the environment and the exit codes. */
export function generalHelp(commands: readonly CliCommand[]): string {
  const width = Math.max(...commands.map((command) => command.name.length)) + 2;
  const lines = commands.map((command) => `  ${command.name.padEnd(width)}${command.summary}`);
  return `compact-agent ${CLI_VERSION}: a long, headless Claude coding agent that forgets strategically.

Usage: compact-agent <command> [flags]

Commands:
${lines.join('\n')}
  ${'help'.padEnd(width)}this help; compact-agent help <command> (or <command> --help) for one command

Flags of every command: -h/--help, -V/--version, --debug (stack trace of an unexpected error).
Environment: ANTHROPIC_API_KEY (required by run and review, unless --use-bedrock or --use-vertex), ANTHROPIC_BASE_URL
(a gateway or a fake server); on Bedrock the AWS credential chain and AWS_REGION, on Vertex AI
Application Default Credentials, ANTHROPIC_VERTEX_PROJECT_ID and CLOUD_ML_REGION.

Examples:
  compact-agent run --repo ../my-project --prompt "Make the failing test pass"
  compact-agent review --repo ../my-project --base main
  compact-agent transcript ../my-project/.transcripts --html report.html

Exit codes: 0 success, 1 the run ended without success, 2 usage error (a command, flag or value is
wrong; nothing was started), 3 a file could not be used (not a transcript, unwritable report),
4 unexpected internal error.`;
}
