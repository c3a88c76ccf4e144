import { RE2JS } from 're2js';
import { ToolError } from './tool-error.js';

/** Tests one line of text. */
export interface LineMatcher {
  test(line: string): boolean;
}

/**
 * Compiles a JavaScript regular expression for RE2, whose matching time is linear in the input: a
 * pattern such as `^(a+)+$` cannot stall the event loop the way it does in V8's backtracking engine.
 * The pattern is first checked as JavaScript (so errors read as they always did), then translated
 * (`\uXXXX`, named groups, `[^]`, flags) by re2js. What RE2 cannot do at all is refused with advice.
 */
export function compileLinearRegex(pattern: string, options: { ignoreCase: boolean }): LineMatcher {
  let source: RegExp;
  try {
    source = new RegExp(pattern, options.ignoreCase ? 'i' : '');
  } catch (error) {
    throw new ToolError(`Invalid regular expression /${pattern}/: ${(error as Error).message}`);
  }
  const unsupported = findUnsupportedSyntax(pattern);
  if (unsupported) throw new ToolError(unsupportedMessage(pattern, unsupported));
  try {
    return RE2JS.compile(RE2JS.translateRegExp(source));
  } catch (error) {
    throw new ToolError(
      `Invalid regular expression /${pattern}/ for grep's linear-time engine (RE2 syntax): ` +
        `${(error as Error).message}. Simplify the pattern, or run \`grep -E\` through the bash tool.`
    );
  }
}

type UnsupportedSyntax = 'lookaround' | 'backreference';

/**
 * Finds lookaround and backreferences outside character classes. RE2 rejects most of these, but
 * re2js would silently turn `\k<name>` into the literal `k<name>`, so they are caught here first.
 */
export function findUnsupportedSyntax(pattern: string): UnsupportedSyntax | undefined {
  let inClass = false;
  for (let at = 0; at < pattern.length; at++) {
    const char = pattern[at];
    if (char === '\\') {
      const next = pattern[at + 1] ?? '';
      if (!inClass && (/[1-9]/.test(next) || (next === 'k' && pattern[at + 2] === '<')))
        return 'backreference';
      at++;
    } else if (inClass) {
      if (char === ']') inClass = false;
    } else if (char === '[') {
      inClass = true;
    } else if (char === '(' && /^\(\?(=|!|<=|<!)/.test(pattern.slice(at, at + 4))) {
      return 'lookaround';
    }
  }
  return undefined;
}

function unsupportedMessage(pattern: string, syntax: UnsupportedSyntax): string {
  const what =
    syntax === 'lookaround'
      ? 'lookahead or lookbehind ((?=, (?!, (?<=, (?<!)'
      : 'a backreference (\\1 or \\k<name>)';
  return (
    `The pattern /${pattern}/ uses ${what}, which grep's linear-time engine (RE2) does not support: ` +
    'it keeps a crafted pattern from freezing the run. Search for the plainer part of the pattern and ' +
    'read the matching lines, or run `grep -P` through the bash tool if you need this syntax.'
  );
}
