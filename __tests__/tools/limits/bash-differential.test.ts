import {
  commandName,
  isAssignment,
  splitShellCommand,
  type SimpleCommand
} from '../../../src/tools/limits/shell-words.js';
import { mulberry32 } from '../../../test-support/seeded-random.js';
import { startBashTracer, type BashTracer } from '../../support/bash-trace.js';

/**
 * What the bash limits believe will run, against what bash runs. For every command of the corpus,
 * either the checker refuses it (under any allow or deny list), or every simple command bash
 * executed is one the checker saw: same name, same literal words up to the checker's first word
 * that is only known at run time. A command the checker saw that bash did not run is fine.
 */

const NAMES = ['git', 'npm', 'touch', 'curl', 'rm', 'ls', 'cat', 'node', 'grep'];

const HAND_PICKED = [
  // The finding: a backslash-newline between `$` and what it opens.
  'git status --short "$\\\n(touch x)"',
  'git status --short $\\\n(touch x)',
  'git status "$\\\n{X:-$(touch x)}"',
  'git status $\\\n{X:-`touch x`}',
  'git status "$\\\n((1+2))"',
  'git status $\\\n(\\\n(1+2))',
  'git status $\\\n\\\n(touch x)',
  'git status --short "$\\\n{X:-$\\\n(touch x)}"',
  'git status --short "$\\\n((a[$\\\n(touch x)]))"',
  'git status "$\\\n\\\n(touch x)"',
  'git status \\\n; touch x',
  'git status;\\\ntouch x',
  'git status &\\\n& touch x',
  'git status |\\\n| touch x',
  'git status <\\\n(touch x)',
  'git status >\\\n(touch x)',
  "git status $\\\n'\\x41'",
  'git status `\\\ntouch x`',
  'git st\\\natus',
  'g\\\nit status',
  'git status \\\n  --short',
  'git status "a\\\nb"',
  "git status 'a\\\nb'",
  "git status 'a\\\n$(touch x)'",
  'git status \\\\\ntouch x',
  'git status "\\\\\n$(touch x)"',
  // Comments: a continuation inside one does not continue it; one before it can start it.
  'git status # note \\\ntouch x',
  'git status #\\\ntouch x',
  'git status \\\n# note\ntouch x',
  'git status a\\\n#b touch x',
  'git status $#\\\ntouch x',
  'git status ${#}',
  // Nested quotes.
  'git status "it\'s" \'say "hi"\'',
  'git status "a\\"b" \'c\'"d"',
  'git status "$(echo \')\')"',
  'git status "`touch x`"',
  // Here-documents, quoted and not.
  'cat <<EOF\n$(touch x)\nEOF',
  "cat <<'EOF'\n$(touch x)\\\nEOF\ntouch y",
  'cat <<EOF\nline\\\nEOF\ntouch y\nEOF',
  'cat <<<"$(touch x)"',
  // ANSI-C and locale quoting.
  "git status $'a\\'b' ; touch x",
  'git status $"a"',
  // Brace, arithmetic and parameter expansion.
  'git status {a,b}',
  'git {status,push}',
  '{touch,x}',
  'git status $((1+2))',
  'git status ${X}',
  'git status ${X:-$(touch x)}',
  'git status $X$(touch x)',
  // Process and command substitution in all forms.
  'git status <(touch x)',
  'git status >(touch x)',
  'cat < <(touch x)',
  'git status $(touch x)',
  'git status `touch x`',
  'git status "$(touch x)"',
  'git status $( (touch x) )',
  'git status $(<x)',
  // Groups and compound commands.
  '(touch x)',
  '{ touch x; }',
  'if true; then touch x; fi',
  'for f in a; do touch x; done',
  'f() { touch x; }; f',
  // Assignments and redirections.
  'X=1 git status',
  'X=$(touch x) git status',
  'git status 2>&1',
  'git status > /dev/null 2>&1',
  'git status >/dev/\\\nnull',
  'git status 2>\\\n&1'
];

/** Pieces of bash syntax; a generated command strings a few together, then gets continuations put anywhere. */
const PIECES = [
  ...NAMES,
  'status',
  '--short',
  'test',
  'x',
  ' ',
  ' ',
  ' ',
  ';',
  '&&',
  '||',
  '|',
  '&',
  '\n',
  '"',
  "'",
  '\\',
  '$',
  '(',
  ')',
  '{',
  '}',
  '#',
  '`',
  '<',
  '>',
  '2>&1',
  '>/dev/null',
  '$(touch x)',
  '`touch x`',
  '$((1+2))',
  '${X}',
  '${X:-$(touch x)}',
  '$X',
  '<(touch x)',
  "$'a\\'b'",
  '"a b"',
  "'a b'",
  '{a,b}',
  '# c',
  'X=1',
  '<<EOF\ntouch x\nEOF\n',
  "<<'EOF'\ntouch x\nEOF\n"
];

function generated(count: number, seed: number): string[] {
  const random = mulberry32(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const commands: string[] = [];
  while (commands.length < count) {
    let command = `${pick(NAMES)} `;
    const pieces = 1 + Math.floor(random() * 8);
    for (let index = 0; index < pieces; index++) command += pick(PIECES);
    const continuations = Math.floor(random() * 4);
    for (let index = 0; index < continuations; index++) {
      const at = Math.floor(random() * (command.length + 1));
      const pair = random() < 0.8 ? '\\\n' : '\\\\\n';
      command = command.slice(0, at) + pair + command.slice(at);
    }
    commands.push(command);
  }
  return commands;
}

/** Refused under any allow or deny list: unreadable, or a command whose name is only known at run time. */
function refusedByChecker(commands: readonly SimpleCommand[] | undefined): boolean {
  if (commands === undefined) return true;
  return commands.some((words) => {
    const name = commandName(words);
    return name !== undefined && !name.literal;
  });
}

function sawIt(commands: readonly SimpleCommand[], ran: readonly string[]): boolean {
  return commands.some((words) => {
    const named = words.slice(
      Math.max(
        0,
        words.findIndex((word) => !isAssignment(word))
      )
    );
    if (named.length === 0 || isAssignment(named[0]!)) return false;
    for (const [index, word] of named.entries()) {
      if (!word.literal) return true;
      if (ran[index] !== word.text) return false;
    }
    return named.length === ran.length;
  });
}

let bash: BashTracer;
beforeAll(() => {
  bash = startBashTracer(NAMES);
});
afterAll(() => bash.close());

describe('the bash limits read a command as bash runs it', () => {
  const corpus = [...HAND_PICKED, ...generated(600, 33)];

  it('sees every simple command bash executes, or refuses the command', () => {
    const missed: { command: string; ran: string[] }[] = [];
    let judged = 0;
    let judgedWithContinuation = 0;
    let ranSomething = 0;
    for (const command of corpus) {
      const split = splitShellCommand(command);
      const commands = split.ok ? split.commands : undefined;
      if (refusedByChecker(commands)) continue;
      judged++;
      if (command.includes('\\\n')) judgedWithContinuation++;
      const ran = bash.trace(command);
      if (ran.length > 0) ranSomething++;
      for (const words of ran) {
        if (!sawIt(commands!, words)) missed.push({ command, ran: words });
      }
    }
    expect(missed).toEqual([]);
    // Not vacuous: many commands were judged, with continuations, and bash ran them.
    expect(judged).toBeGreaterThan(120);
    expect(judgedWithContinuation).toBeGreaterThan(60);
    expect(ranSomething).toBeGreaterThan(120);
  });

  it('sees through a continued line where bash joins it', () => {
    const ran = bash.trace('git st\\\natus \\\n  --short');
    expect(ran).toEqual([['git', 'status', '--short']]);
    const split = splitShellCommand('git st\\\natus \\\n  --short');
    expect(split.ok && split.commands.map((words) => words.map((word) => word.text))).toEqual([
      ['git', 'status', '--short']
    ]);
  });

  it.each([
    'git status --short "$\\\n(touch x)"',
    'git status "$\\\n{X:-$(touch x)}"',
    'git status "$\\\n((1+2))"',
    'git status $\\\n\\\n(touch x)'
  ])('refuses %j, where bash opens an expansion across the continued line', (command) => {
    expect(splitShellCommand(command).ok).toBe(false);
  });

  it('keeps a continuation inside single quotes and comments, as bash does', () => {
    const quoted = splitShellCommand("git status 'a\\\nb'");
    expect(quoted.ok && quoted.commands[0]!.map((word) => word.text)).toEqual(['git', 'status', 'a\\\nb']);
    const comment = splitShellCommand('git status # note \\\ntouch x');
    expect(comment.ok && comment.commands.map((words) => words[0]!.text)).toEqual(['git', 'touch']);
    expect(bash.trace('git status # note \\\ntouch x')).toEqual([
      ['git', 'status'],
      ['touch', 'x']
    ]);
  });
});
