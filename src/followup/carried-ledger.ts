import type { CommandOutcome } from '../compaction/work-ledger.js';
import { CARRIED_LIMITS } from './carried-state.js';

/** What the carried ledger is made of: how the run ended, what was published, and its work. */
export interface LedgerParts {
  readonly stopReason: string;
  readonly error: string | undefined;
  /** The publishing lines ("Changes pushed to …" and the diff stat), from the action. */
  readonly published: readonly string[];
  readonly filesChanged: readonly string[];
  readonly failedCommands: readonly CommandOutcome[];
}

const PUBLISHED_BUDGET = 1_000;
const FILES_BUDGET = 600;
const FILES_HEADING = 'Files changed by the tools:';
const FAILURES_HEADING = 'Commands that failed (oldest first):';
const COMMAND_CHARS = 200;

/**
 * The ledger a follow-up carries, within CARRIED_LIMITS.ledger: each part has its own share, so a long
 * diff stat cannot push out the failures. The failures keep the newest that fit, each with the first
 * lines of its output (where it failed), and say how many older ones were left out.
 */
export function renderCarriedLedger(parts: LedgerParts): string {
  const head = [
    `Stop reason: ${parts.stopReason}`,
    ...(parts.error ? [`Error: ${cut(parts.error, 300)}`] : [])
  ];
  const published = fittedPublished(parts.published);
  const files =
    parts.filesChanged.length > 0
      ? [
          FILES_HEADING,
          ...fit(
            parts.filesChanged.map((file) => `- ${cut(file, 200)}`),
            FILES_BUDGET,
            'more files'
          )
        ]
      : [];
  const used = [...head, ...published, ...files].join('\n').length;
  const failures = failureLines(parts.failedCommands, CARRIED_LIMITS.ledger - used - 2);
  return [...head, ...published, ...files, ...failures].filter((line) => line.trim() !== '').join('\n');
}

/**
 * The publishing lines within their share of the ledger. The carried state keeps them as a field of
 * their own (`published`): a run that rebuilds the ledger from a transcript takes them from there,
 * since a transcript cannot know what was pushed, and the ledger's prose is never parsed back.
 */
export function fittedPublished(lines: readonly string[]): string[] {
  return fit(lines, PUBLISHED_BUDGET, 'more lines of the diff stat');
}

function failureLines(commands: readonly CommandOutcome[], budget: number): string[] {
  if (commands.length === 0) return [];
  const kept: string[] = [];
  let used = FAILURES_HEADING.length + 60;
  for (const command of [...commands].reverse()) {
    const entry = [
      `- turn ${command.turn}: \`${cut(command.command.replace(/\s+/g, ' '), COMMAND_CHARS)}\` → exit ${command.exit}`,
      ...(command.head ? command.head.split('\n').map((line) => `    ${cut(line, COMMAND_CHARS)}`) : [])
    ].join('\n');
    if (used + entry.length + 1 > budget) break;
    kept.unshift(entry);
    used += entry.length + 1;
  }
  const left = commands.length - kept.length;
  return [FAILURES_HEADING, ...(left > 0 ? [`- (${left} earlier failures left out)`] : []), ...kept];
}

function fit(lines: readonly string[], budget: number, what: string): string[] {
  const kept: string[] = [];
  let used = 0;
  for (const line of lines) {
    if (used + line.length + 1 > budget) {
      kept.push(`(${lines.length - kept.length} ${what} left out)`);
      break;
    }
    kept.push(line);
    used += line.length + 1;
  }
  return kept;
}

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
