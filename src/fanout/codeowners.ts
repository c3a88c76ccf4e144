import { FanoutInputError } from './fanout-error.js';

/**
 * A CODEOWNERS file read as GitHub reads it ("About code owners",
 * https://docs.github.com/en/repositories/managing-your-repositorys-settings-and-features/customizing-your-repository/about-code-owners,
 * read 2026-11-28):
 * - each line is a pattern followed by owners (`@user`, `@org/team`, or an email address); `#`
 *   starts a comment, on its own line or after the owners;
 * - patterns follow most gitignore rules, except that escaping a leading `#` with `\`, negating
 *   with `!` and character ranges `[ ]` do not work, and "if any line ... contains invalid
 *   syntax, the file will not be detected": such a line is an error here too, not a silent skip;
 * - "the last matching pattern takes the most precedence", and a pattern with no owners leaves
 *   what it matches without owners (`/apps/github` after `/apps/ @octocat`);
 * - `docs/*` matches a file right in the `docs` folder but not one in a folder below it, while
 *   `apps/`, `/build/logs/` and `**\/logs` own everything below the folder they match;
 * - paths are case sensitive.
 */
export interface CodeownersRule {
  /** The line it came from (1-based), for messages. */
  readonly line: number;
  readonly pattern: string;
  /** As written; empty means "no owners" for what it matches. */
  readonly owners: readonly string[];
  readonly matcher: RegExp;
}

export interface Codeowners {
  /** Where it was read (`.github/CODEOWNERS`), for messages. */
  readonly source: string;
  readonly rules: readonly CodeownersRule[];
}

/** A GitHub login (alphanumerics and single hyphens), a team `@org/team-slug`, or an email address. */
const USER_OR_TEAM = /^@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\/[A-Za-z0-9._-]+)?$/;
const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

export function parseCodeowners(text: string, source: string): Codeowners {
  const rules: CodeownersRule[] = [];
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = index + 1;
    const tokens = tokenize(raw);
    if (tokens.length === 0) return;
    const [pattern, ...owners] = tokens;
    const problem = patternProblem(pattern!) ?? owners.map(ownerProblem).find(Boolean);
    if (problem !== undefined)
      throw new FanoutInputError(
        `${source}, line ${line} (${raw.trim().slice(0, 120)}): ${problem}. GitHub does not use a CODEOWNERS ` +
          'file with an invalid line either; fix the line (see "About code owners" in GitHub\'s docs).'
      );
    rules.push({ line, pattern: pattern!, owners, matcher: patternMatcher(pattern!) });
  });
  return { source, rules };
}

/**
 * The owners of a path (`/`-separated, relative to the root): the last matching rule's, or none.
 * A folder is asked about as a folder, so that `apps/` (folders only) owns the folder `apps` too.
 */
export function ownersOf(codeowners: Codeowners, path: string, isFolder: boolean): readonly string[] {
  const subject = isFolder ? `${path}/` : path;
  for (let index = codeowners.rules.length - 1; index >= 0; index--) {
    const rule = codeowners.rules[index]!;
    if (rule.matcher.test(subject)) return rule.owners;
  }
  return [];
}

/** Blank-separated words up to a `#` that starts a word; `\ ` keeps a blank inside a pattern. */
function tokenize(line: string): string[] {
  const tokens: string[] = [];
  let current = '';
  let inWord = false;
  for (let index = 0; index < line.length; index++) {
    const char = line[index]!;
    if (char === '\\' && line[index + 1] === ' ') {
      current += '\\ ';
      inWord = true;
      index++;
    } else if (char === ' ' || char === '\t') {
      if (inWord) tokens.push(current);
      current = '';
      inWord = false;
    } else if (char === '#' && !inWord) break;
    else {
      current += char;
      inWord = true;
    }
  }
  if (inWord) tokens.push(current);
  return tokens;
}

function patternProblem(pattern: string): string | undefined {
  if (pattern.startsWith('!')) return 'a pattern cannot be negated with `!` in a CODEOWNERS file';
  if (pattern.startsWith('\\#')) return 'a leading `#` cannot be escaped with `\\` in a CODEOWNERS file';
  if (/[[\]]/.test(pattern)) return 'character ranges `[ ]` do not work in a CODEOWNERS file';
  if (/^\/+$/.test(pattern)) return 'the pattern names no path';
  return undefined;
}

/** Whether `owner` is written as CODEOWNERS takes one: `@username`, `@org/team-name` or an email address. */
export function isOwnerName(owner: string): boolean {
  return USER_OR_TEAM.test(owner) || EMAIL.test(owner);
}

function ownerProblem(owner: string): string | undefined {
  if (isOwnerName(owner)) return undefined;
  return `"${owner.slice(0, 80)}" is not an owner: write @username, @org/team-name or an email address`;
}

/**
 * The pattern as an anchored regular expression over a path (a folder's with a trailing `/`):
 * - a pattern with a `/` before its end is relative to the root, otherwise it matches at any depth;
 * - a trailing `/` matches folders only, and so everything below them;
 * - `*` and `?` stay within one path segment, `**` as a whole segment spans any number of them;
 * - a match also owns everything below it, except after a last segment that is a lone `*`
 *   (`docs/*` is the folder's direct entries only, as GitHub's own example says).
 */
function patternMatcher(pattern: string): RegExp {
  const folderOnly = pattern.endsWith('/');
  const body = pattern.replace(/\/+$/, '');
  const anchored = body.includes('/');
  const segments = body.replace(/^\/+/, '').split('/');
  let source = '';
  segments.forEach((segment, index) => {
    const last = index === segments.length - 1;
    if (segment === '**') source += last ? (index === 0 ? '.*' : '.+') : '(?:.*/)?';
    else source += segmentSource(segment) + (last ? '' : '/');
  });
  const lastSegment = segments[segments.length - 1];
  // A trailing `**` already reaches below its folder; a folder-only pattern matches inside the folder.
  const below =
    lastSegment === '**' ? '' : folderOnly ? '/.*' : anchored && lastSegment === '*' ? '/?' : '(?:/.*)?';
  return new RegExp(`^${anchored ? '' : '(?:.*/)?'}${source}${below}$`);
}

function segmentSource(segment: string): string {
  let out = '';
  for (let index = 0; index < segment.length; index++) {
    const char = segment[index]!;
    if (char === '\\' && index + 1 < segment.length) out += escapeRegExp(segment[++index]!);
    else if (char === '*') out += '[^/]*';
    else if (char === '?') out += '[^/]';
    else out += escapeRegExp(char);
  }
  return out;
}

function escapeRegExp(char: string): string {
  return /[.*+?^${}()|[\]\\/]/.test(char) ? `\\${char}` : char;
}
