import type { ProgressUpdate } from '../agent/loop.js';

/** One line per change of activity on stderr, so stdout stays for the final summary. */
export function progressPrinter(write: (line: string) => void): (update: ProgressUpdate) => void {
  let previous = '';
  return (update) => {
    const line =
      `[turn ${update.turn}] ${formatTokens(update.contextTokens)} context tokens · ` +
      `$${update.costUsd.toFixed(4)} · ${update.activity}`;
    if (line === previous) return;
    previous = line;
    write(line);
  };
}

export function formatTokens(tokens: number): string {
  return tokens >= 1000 ? `${(tokens / 1000).toFixed(1)}k` : String(tokens);
}
