/**
 * The spellings @actions/core's getBooleanInput accepts (YAML 1.2 Core Schema booleans). Anything
 * else is a mistake reported before the run, never a quiet false: `ture` means someone wanted it on.
 */
const TRUE_SPELLINGS: readonly string[] = ['true', 'True', 'TRUE'];
const FALSE_SPELLINGS: readonly string[] = ['false', 'False', 'FALSE'];

/**
 * One on/off input: `fallback` when empty, true or false when spelled as getBooleanInput accepts,
 * otherwise a problem naming the input (as `shownName`, e.g. `--use-bedrock` on the command line)
 * and undefined.
 */
export function parseBooleanInput(
  raw: string,
  shownName: string,
  fallback: boolean,
  problems: string[]
): boolean | undefined {
  const value = raw.trim();
  if (value === '') return fallback;
  if (TRUE_SPELLINGS.includes(value)) return true;
  if (FALSE_SPELLINGS.includes(value)) return false;
  problems.push(
    `${shownName}: "${value}" is not true or false. Write ${spellings(TRUE_SPELLINGS)} to turn it on, ` +
      `${spellings(FALSE_SPELLINGS)} to turn it off, or leave it empty for the default (${fallback}).`
  );
  return undefined;
}

/** `true (or True, TRUE)`. */
function spellings([plain, ...others]: readonly string[]): string {
  return `${plain} (or ${others.join(', ')})`;
}
