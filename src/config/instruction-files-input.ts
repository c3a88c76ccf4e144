/** At most this many names: each is looked for in every folder the run reads instructions from. */
export const MAX_INSTRUCTION_FILE_NAMES = 10;

/** The word that switches the instruction files off (an empty input takes the default list). */
export const NO_INSTRUCTION_FILES = 'none';

/**
 * The `instruction_files` input (`--instruction-files`): file names, or paths below a folder
 * (`.github/copilot-instructions.md`), separated by commas or whitespace, each looked for in the
 * root and the folders the run works in, in this order. Empty: `fallback` (the default list);
 * `none`: no instruction files. A bad entry is a problem naming the input, and the list is [].
 */
export function parseInstructionFiles(
  raw: string,
  shown: string,
  fallback: string,
  problems: string[]
): readonly string[] {
  const value = raw.trim() || fallback;
  const names = value.split(/[\s,]+/).filter((name) => name !== '');
  if (names.length === 1 && names[0]!.toLowerCase() === NO_INSTRUCTION_FILES) return [];
  const bad = names.flatMap((name) => {
    const problem = nameProblem(name);
    return problem === undefined ? [] : [`"${name}" ${problem}`];
  });
  if (names.length > MAX_INSTRUCTION_FILE_NAMES)
    bad.push(`it names ${names.length} files, and at most ${MAX_INSTRUCTION_FILE_NAMES} are read`);
  if (bad.length === 0) return [...new Set(names)];
  problems.push(
    `${shown} must list instruction files by their path from a folder, separated by commas ` +
      `(e.g. AGENTS.md,CLAUDE.md,.github/copilot-instructions.md), or be ${NO_INSTRUCTION_FILES} to read none; ` +
      `got "${raw.trim()}": ${bad.join('; ')}.`
  );
  return [];
}

function nameProblem(name: string): string | undefined {
  if (name.toLowerCase() === NO_INSTRUCTION_FILES) return `cannot be combined with other names`;
  if (!/^[A-Za-z0-9._@/-]+$/.test(name))
    return "may hold only letters, digits, '.', '_', '-', '@' and '/' (no patterns, spaces or backslashes)";
  if (name.startsWith('/')) return 'is an absolute path; give it from the folder it is in';
  if (name.endsWith('/')) return 'names a folder, not a file';
  const parts = name.split('/');
  if (parts.some((part) => part === '' || part === '.' || part === '..'))
    return "has an empty, '.' or '..' part";
  if (parts.some((part) => part === '.git')) return 'is inside .git';
  return undefined;
}
