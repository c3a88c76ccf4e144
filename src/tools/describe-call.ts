const KEY_INPUT: Readonly<Record<string, string>> = {
  bash: 'command',
  read_file: 'path',
  write_file: 'path',
  edit_file: 'path',
  glob: 'pattern',
  grep: 'pattern',
  compact: 'focus'
};

/**
 * A tool call in a few words: its name and its key input, e.g. `read_file src/app.ts`. Used for
 * progress lines, reports and the placeholders that replace cleared results.
 */
export function describeToolCall(name: string, input: unknown, maxLength = 80): string {
  const key = KEY_INPUT[name];
  const value = key !== undefined && isRecord(input) ? input[key] : undefined;
  if (typeof value !== 'string' || value === '') return name;
  const oneLine = value.replace(/\s+/g, ' ').trim();
  const shown = oneLine.length > maxLength ? `${oneLine.slice(0, maxLength - 1)}…` : oneLine;
  return `${name} ${shown}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
