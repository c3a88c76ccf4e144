import { sandboxLine } from './sandbox-audit.js';
import type { RunAudit } from './run-audit.js';

/** The summary a reviewer reads first, as the JSON `--json` prints. */
export function auditSummary(audit: RunAudit) {
  return {
    run_id: audit.runId ?? null,
    task: audit.task ?? null,
    model: audit.model ?? null,
    stop_reason: audit.stopReason ?? null,
    error: audit.error ?? null,
    turns: audit.turns,
    duration_ms: audit.durationMs ?? null,
    usage: audit.usage,
    cost_usd: audit.costUsd,
    compactions: audit.compactions.map((event) => ({
      turn: event.turn,
      layer: event.layer,
      reason: event.reason,
      tokens_before: event.tokens_before,
      tokens_after: event.tokens_after,
      focus: event.focus
    })),
    tools: audit.toolStats,
    files_changed: audit.filesChanged,
    sandbox: audit.sandbox
      ? {
          state: audit.sandbox.state,
          network: audit.sandbox.network,
          reason: audit.sandbox.reason ?? null,
          refused: audit.sandbox.refused.map((entry) => ({
            host: entry.host,
            port: entry.port,
            calls: entry.calls,
            reason: entry.reason,
            first_turn: entry.firstTurn
          }))
        }
      : null,
    incomplete: audit.incomplete,
    skipped_lines: audit.skippedLines
  };
}

/** The same summary for a terminal. */
export function renderTerminalSummary(audit: RunAudit, source: string): string {
  const n = (value: number) => value.toLocaleString('en-US');
  const u = audit.usage;
  const lines = [
    `Transcript: ${source}`,
    `Run ${audit.runId ?? '?'} · ${audit.model ?? '?'} · ${audit.stopReason ?? 'no end recorded'} · ${audit.turns} turns · ${
      audit.durationMs === undefined ? '?' : `${(audit.durationMs / 1000).toFixed(1)} s`
    }`,
    `Task: ${firstLines(audit.task ?? '(not recorded)', 3)}`,
    ...(audit.error ? [`Error: ${audit.error}`] : []),
    `Tokens: uncached input ${n(u.input)} · cache write ${n(u.cache_write)} · cache read ${n(u.cache_read)} · output ${n(u.output)} · cost $${audit.costUsd.toFixed(4)}`,
    '',
    `Compactions (${audit.compactions.length}):`,
    ...(audit.compactions.length === 0
      ? ['  none']
      : audit.compactions.map(
          (event) =>
            `  turn ${String(event.turn).padStart(4)}  ${event.layer.padEnd(8)} ${n(event.tokens_before).padStart(9)} → ${n(
              event.tokens_after
            ).padEnd(9)}${event.focus ? ` focus: ${event.focus}` : ''}`
        )),
    '',
    `Tools: ${audit.toolStats.map((tool) => `${tool.name} ${tool.calls}${tool.failures ? ` (${tool.failures} failed)` : ''}`).join(', ') || 'none'}`,
    `Files changed: ${audit.filesChanged.join(', ') || 'none'}`,
    sandboxLine(audit.sandbox)
  ];
  if (audit.incomplete)
    lines.push(
      '',
      'Incomplete: the transcript has no run_end line (the run crashed, was killed, or the file is cut).'
    );
  if (audit.skippedLines.length > 0) {
    lines.push(
      '',
      `Skipped ${audit.skippedLines.length} of ${audit.lineCount} lines:`,
      ...audit.skippedLines.slice(0, 20).map((skip) => `  line ${skip.line}: ${skip.reason}`),
      ...(audit.skippedLines.length > 20 ? [`  … and ${audit.skippedLines.length - 20} more`] : [])
    );
  }
  return lines.join('\n');
}

function firstLines(text: string, count: number): string {
  const lines = text.split('\n');
  return lines.slice(0, count).join('\n      ') + (lines.length > count ? ' …' : '');
}
