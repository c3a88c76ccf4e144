/** How the page writes numbers, money, times and durations (en-US, whatever the machine's locale). */

export function formatInt(value: number): string {
  return Math.round(value).toLocaleString('en-US');
}

/** 1.2k, 40k, 1M: the chart's axis labels. */
export function formatTokensShort(value: number): string {
  if (value >= 1_000_000) return `${+(value / 1_000_000).toFixed(2)}M`;
  if (value >= 1_000) return `${+(value / 1_000).toFixed(1)}k`;
  return String(value);
}

export function formatUsd(value: number): string {
  return `$${value.toFixed(value >= 10 ? 2 : value >= 0.1 ? 3 : 4)}`;
}

/** `2025-05-03T02:14:07.412Z` as `2025-05-03 02:14:07 UTC`; anything else as it is. */
export function formatTime(iso: string): string {
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})(?:\.\d+)?Z$/.exec(iso);
  return match ? `${match[1]} ${match[2]} UTC` : iso;
}

export function formatDuration(ms: number): string {
  if (ms < 1_000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1_000).toFixed(1)} s`;
  const seconds = Math.round(ms / 1_000);
  const hours = Math.floor(seconds / 3_600);
  const minutes = Math.floor((seconds % 3_600) / 60);
  const rest = seconds % 60;
  return hours > 0 ? `${hours} h ${String(minutes).padStart(2, '0')} min` : `${minutes} min ${rest} s`;
}
