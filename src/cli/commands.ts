import { AUDIT_COMMAND } from './audit-command.js';
import type { CliCommand } from './command.js';
import { FANOUT_COMMAND } from './fanout-command.js';
import { INIT_COMMAND } from './init-command.js';
import { REVIEW_COMMAND } from './review-command.js';
import { RUN_COMMAND } from './run-command.js';
import { TRANSCRIPT_COMMAND } from './transcript-command.js';
import { VERIFY_COMMAND } from './verify-command.js';

/** Every command of the CLI. A new command or subcommand is one more entry here. */
export const CLI_COMMANDS: readonly CliCommand[] = [
  RUN_COMMAND,
  REVIEW_COMMAND,
  TRANSCRIPT_COMMAND,
  VERIFY_COMMAND,
  AUDIT_COMMAND,
  INIT_COMMAND,
  FANOUT_COMMAND
];
