import type {
  MessageParam,
  ToolResultBlockParam,
  ToolUseBlockParam
} from '@anthropic-ai/sdk/resources/messages';
import { parseTranscript } from '../audit/parse-transcript.js';
import {
  emptyWorkLedger,
  exitCodeOf,
  looksLikeTestRun,
  recordWork,
  type CommandOutcome
} from '../compaction/work-ledger.js';
import type { AuditTurn } from '../audit/run-audit.js';

/** What a finished run's transcript says about its work, for the run that continues it. */
export interface TranscriptWork {
  readonly summary: string;
  readonly stopReason: string | undefined;
  readonly error: string | undefined;
  /** Files the tools wrote (edit_file, write_file), sorted. */
  readonly filesChanged: readonly string[];
  /** Commands that failed, oldest first, each with the first lines of its output. */
  readonly failedCommands: readonly CommandOutcome[];
  /** Every bash command that looked like a test run, in order, with its exit code (the report's tests line). */
  readonly testRuns: readonly CommandOutcome[];
  /**
   * The thread's original task and what people asked, from the structured record the action wrote
   * in run_start (never parsed out of the first message, which quotes what the model wrote).
   */
  readonly task: string | undefined;
  readonly requests: readonly string[];
}

/**
 * Reads the work out of a transcript with the same ledger the compaction keeps (work-ledger.ts), so
 * a failure is recorded the same way whether the next step is a compaction or a follow-up run. Each
 * tool call's result is the full one the agent got: the audit reader takes calls and results only
 * from the agent's own history messages, by their tag, never from a compaction's placeholders.
 */
export function workOfTranscript(text: string): TranscriptWork {
  const audit = parseTranscript(text);
  const ledger = emptyWorkLedger();
  for (const turn of audit.timeline) {
    const answered = turn.toolCalls.filter((call) => call.output !== undefined);
    if (answered.length === 0) continue;
    const uses: ToolUseBlockParam[] = answered.map((call) => ({
      type: 'tool_use',
      id: call.id,
      name: call.name,
      input: call.input
    }));
    const results: ToolResultBlockParam[] = answered.map((call) => ({
      type: 'tool_result',
      tool_use_id: call.id,
      content: call.output ?? '',
      is_error: call.isError
    }));
    const history: MessageParam[] = [
      { role: 'assistant', content: uses },
      { role: 'user', content: results }
    ];
    ledger.indexedUpTo = 0;
    recordWork(ledger, history, turn.turn);
  }
  return {
    summary: audit.summary ?? '',
    stopReason: audit.stopReason,
    error: audit.error,
    filesChanged: [...ledger.filesWritten].sort(),
    failedCommands: ledger.failedCommands,
    testRuns: testRunsOf(audit.timeline),
    task: audit.thread?.originalTask,
    requests: audit.thread?.requests ?? []
  };
}

/** The bash calls that looked like test runs (the ledger's own test), with the exit code each got. */
function testRunsOf(timeline: readonly AuditTurn[]): CommandOutcome[] {
  const runs: CommandOutcome[] = [];
  for (const turn of timeline) {
    for (const call of turn.toolCalls) {
      const command = (call.input as { command?: unknown } | null)?.command;
      if (call.name !== 'bash' || typeof command !== 'string' || call.output === undefined) continue;
      const exit = exitCodeOf(call.output);
      if (exit !== undefined && looksLikeTestRun(command.trim()))
        runs.push({ command: command.trim(), exit, turn: turn.turn });
    }
  }
  return runs;
}
