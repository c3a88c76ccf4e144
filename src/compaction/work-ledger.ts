import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { normalizedPath, toolExchangesFrom, toolResultText, type ToolExchange } from './history.js';

const TEST_COMMAND = /\b(test|tests|jest|vitest|mocha|pytest|go test|cargo test|npm t\b|node --test)\b/;
/** Failed commands kept (oldest dropped): the bench's needs reach 400+ turns back, a failure every ~40. */
const MAX_FAILED_COMMANDS = 30;
/** Lines of a failed command's output kept with it: where it failed is what a later step needs. */
const FAILURE_LINES = 3;
const MAX_RECENT_READS = 20;

export interface CommandOutcome {
  readonly command: string;
  /** The exit code, or 'timeout'. */
  readonly exit: string;
  readonly turn: number;
  /** The last lines of the output, for the latest test run only. */
  readonly tail?: string;
  /** The first lines of the output of a failed command (stderr when there is any): where it failed. */
  readonly head?: string;
}

/**
 * Facts the code can record without the model, kept across compactions: the commands that failed,
 * the latest test run, and the files the tools wrote. Summaries may blur; these do not.
 */
export interface WorkLedger {
  indexedUpTo: number;
  failedCommands: CommandOutcome[];
  latestTest: CommandOutcome | undefined;
  filesWritten: Set<string>;
  /** Paths read with read_file, most recent last, without repeats. */
  recentReads: string[];
}

export function emptyWorkLedger(): WorkLedger {
  return {
    indexedUpTo: 0,
    failedCommands: [],
    latestTest: undefined,
    filesWritten: new Set(),
    recentReads: []
  };
}

/** Records the tool exchanges of history[ledger.indexedUpTo..] (updates the ledger in place). */
export function recordWork(ledger: WorkLedger, history: readonly MessageParam[], turn: number): void {
  for (const { use, result } of toolExchangesFrom(history, ledger.indexedUpTo)) {
    const input = use.input as Record<string, unknown>;
    if (
      (use.name === 'edit_file' || use.name === 'write_file') &&
      !result.is_error &&
      typeof input.path === 'string'
    ) {
      ledger.filesWritten.add(input.path);
    }
    if (use.name === 'read_file' && !result.is_error && typeof input.path === 'string') {
      // One entry per file, however the path was spelled (`./a` and `a`): it is restored once.
      noteRecentRead(ledger, normalizedPath(input.path));
    }
    const outcome = commandOutcomeOf(use, result, turn);
    if (outcome === undefined) continue;
    if (outcome.exit !== '0') {
      ledger.failedCommands.push({
        ...outcome,
        head: firstLines(toolResultText(result), FAILURE_LINES)
      });
      if (ledger.failedCommands.length > MAX_FAILED_COMMANDS) ledger.failedCommands.shift();
    }
    if (looksLikeTestRun(outcome.command))
      ledger.latestTest = { ...outcome, tail: lastLines(toolResultText(result), 6) };
  }
  ledger.indexedUpTo = history.length;
}

/** A bash call's command and exit code, or undefined for any other call. */
function commandOutcomeOf(
  use: ToolExchange['use'],
  result: ToolExchange['result'],
  turn: number
): CommandOutcome | undefined {
  const input = use.input as Record<string, unknown>;
  if (use.name !== 'bash' || typeof input.command !== 'string') return undefined;
  const exit = exitCodeOf(toolResultText(result));
  return exit === undefined ? undefined : { command: input.command.trim(), exit, turn };
}

/**
 * What the ledger keeps of results the API cleared from the context (context editing): the failed
 * commands among them with where they failed, so a failure the model needs later is not lost with
 * its output. Undefined when none of them failed.
 */
export function clearedResultsNote(
  exchanges: readonly ToolExchange[],
  clearedIds: ReadonlySet<string>
): string | undefined {
  const failed = exchanges.flatMap(({ use, result }) => {
    if (!clearedIds.has(use.id)) return [];
    const outcome = commandOutcomeOf(use, result, 0);
    if (outcome === undefined || outcome.exit === '0') return [];
    const head = firstLines(toolResultText(result), FAILURE_LINES);
    return [`- \`${outcome.command}\` → exit ${outcome.exit}${head ? `\n${indent(head)}` : ''}`];
  });
  if (failed.length === 0) return undefined;
  return [
    '<work-ledger-update>',
    'The API cleared older tool results from the context. Recorded by the harness from them:',
    'Commands that failed:',
    ...failed,
    '</work-ledger-update>'
  ].join('\n');
}

/** A bash result's exit code as the bash tool writes it, 'timeout' for a timed-out command, else undefined. */
export function exitCodeOf(resultText: string): string | undefined {
  return (
    /^exit code: (\S+)/.exec(resultText)?.[1] ?? (resultText.startsWith('timed out') ? 'timeout' : undefined)
  );
}

/** Whether a shell command looks like a test run (npm test, jest, pytest, go test, …): a guess by its words. */
export function looksLikeTestRun(command: string): boolean {
  return TEST_COMMAND.test(command);
}

function noteRecentRead(ledger: WorkLedger, path: string): void {
  ledger.recentReads = [...ledger.recentReads.filter((seen) => seen !== path), path].slice(-MAX_RECENT_READS);
}

/** The first lines of a failed command's stderr (or of its stdout when stderr is empty), each capped. */
function firstLines(text: string, count: number): string {
  const { stdout, stderr } = streamsOf(text);
  return (stderr.trim() !== '' ? stderr : stdout)
    .split('\n')
    .filter((line) => line.trim() !== '')
    .slice(0, count)
    .map((line) => (line.length > 200 ? `${line.slice(0, 199)}…` : line))
    .join('\n');
}

function streamsOf(text: string): { stdout: string; stderr: string } {
  const [, afterStdout = text] = text.split('--- stdout ---\n');
  const [stdout = '', stderr = ''] = afterStdout.split('--- stderr ---');
  return { stdout, stderr };
}

/** The last lines of a bash result's stdout (or of its stderr when stdout is empty). */
function lastLines(text: string, count: number): string {
  const { stdout, stderr } = streamsOf(text);
  const source = stdout.trim() !== '' ? stdout : stderr;
  return source
    .split('\n')
    .filter((line) => line.trim() !== '')
    .slice(-count)
    .join('\n');
}

/** The ledger as a text block for the compacted history. `changedFiles` comes from git. */
export function renderWorkLedger(ledger: WorkLedger, changedFiles: readonly string[] | undefined): string {
  const files = changedFiles ?? [...ledger.filesWritten].map((path) => `   ${path}`);
  const lines = ['<work-ledger>', 'Recorded by the harness from the tools, not written by the model.'];
  lines.push(`Files changed${changedFiles ? ' (git status --porcelain)' : ' (by the tools)'}:`);
  lines.push(...(files.length > 0 ? files.map((file) => `- ${file.trim()}`) : ['- none']));
  lines.push('Commands that failed (oldest first):');
  lines.push(
    ...(ledger.failedCommands.length > 0
      ? ledger.failedCommands.map(
          (c) => `- turn ${c.turn}: \`${c.command}\` → exit ${c.exit}${c.head ? `\n${indent(c.head)}` : ''}`
        )
      : ['- none'])
  );
  const test = ledger.latestTest;
  lines.push(
    test
      ? `Latest test run (turn ${test.turn}): \`${test.command}\` → exit ${test.exit}\n${indent(test.tail ?? '')}`
      : 'Latest test run: none yet'
  );
  lines.push('</work-ledger>');
  return lines.join('\n');
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => `    ${line}`)
    .join('\n');
}
