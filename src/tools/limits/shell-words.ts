/**
 * A deliberately small, conservative reading of a bash command line, for the bash limits only.
 *
 * It splits a command into its simple commands at the list and pipe operators (`;`, `&&`, `||`,
 * `|`, `|&`, `&`, newlines) and each simple command into words with quotes and backslashes
 * removed. Whatever could run a command this reading does not see, or change what a word turns out
 * to be at run time, is refused instead of guessed at: command and process substitution (`$(…)`,
 * backticks, `<(…)`), arithmetic and complex parameter expansion (`$((…))`, `${x@P}`), ANSI-C
 * quoting (`$'…'`), subshells and groups (`( … )`, `{ …; }`), compound commands (if, for, while,
 * case, functions), here-documents, and redirection to or from any file but /dev/null.
 *
 * Continued lines are joined first, as bash joins them (line-continuations.ts), so a
 * backslash-newline cannot hide `$(` from this reading (`$\⏎(touch x)` is `$(touch x)` to bash).
 *
 * Why not a parser from npm: shell-quote (the most used) does not model command substitution or
 * backticks as such, and bash-parser (0.5.0, 2017) is unmaintained. sh-syntax (mvdan/sh as WASM,
 * 0.7.0) returns only the positions of each command, not what it is; tree-sitter-bash recovers from
 * errors rather than refusing, and reads a backslash-newline as space between tokens. A parser that
 * understands more of bash would let more through, while this reading only has to be right about
 * what it accepts: __tests__/tools/limits/bash-differential.test.ts compares it with bash itself.
 */

import { joinContinuedLines } from './line-continuations.js';

export interface ShellWord {
  /** The word with quotes and backslashes removed (`'np'm` is `npm`); expansions are left as written. */
  readonly text: string;
  /**
   * True when the shell will see exactly `text`: no unquoted `$NAME` expansion, glob (`*`, `?`,
   * `[`), brace (`{`, `}`) or leading tilde. Only literal words match a rule.
   */
  readonly literal: boolean;
}

export type SimpleCommand = readonly ShellWord[];

export type ShellSplit =
  | { readonly ok: true; readonly commands: readonly SimpleCommand[] }
  | { readonly ok: false; readonly reason: string };

/** Words that open or close compound commands: their bodies are not simple commands we can judge. */
const RESERVED = new Set([
  'if',
  'then',
  'else',
  'elif',
  'fi',
  'do',
  'done',
  'case',
  'esac',
  'while',
  'until',
  'for',
  'select',
  'function',
  'time',
  'coproc',
  '!',
  '[[',
  ']]',
  '{',
  '}'
]);

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const BLANK = new Set([' ', '\t']);

class Refused extends Error {}

/** Splits `command` into simple commands, or says what it could not judge. */
export function splitShellCommand(command: string): ShellSplit {
  try {
    return { ok: true, commands: new Reader(joinContinuedLines(command)).read() };
  } catch (error) {
    if (error instanceof Refused) return { ok: false, reason: error.message };
    throw error;
  }
}

class Reader {
  private index = 0;
  private readonly commands: SimpleCommand[] = [];
  private words: ShellWord[] = [];
  private text = '';
  private literal = true;
  /** Whether a word has started (an empty quoted word `''` is still a word). */
  private inWord = false;

  constructor(private readonly source: string) {}

  read(): SimpleCommand[] {
    const s = this.source;
    while (this.index < s.length) {
      const char = s[this.index]!;
      if (BLANK.has(char)) {
        this.endWord();
        this.index++;
      } else if (char === '\n' || char === ';') {
        if (char === ';' && s[this.index + 1] === ';') throw new Refused('`;;` (case syntax)');
        this.endCommand();
        this.index++;
      } else if (char === '&') {
        if (s[this.index + 1] === '>') {
          this.redirection();
        } else {
          this.endCommand();
          this.index += s[this.index + 1] === '&' ? 2 : 1;
        }
      } else if (char === '|') {
        this.endCommand();
        this.index += s[this.index + 1] === '|' || s[this.index + 1] === '&' ? 2 : 1;
      } else if (char === '<' || char === '>') {
        this.redirection();
      } else if (char === '(' || char === ')') {
        throw new Refused('a subshell or group in parentheses');
      } else if (char === '#' && !this.inWord) {
        // A comment: bash ignores the rest of the line, so do we (the next line is still read).
        while (this.index < s.length && s[this.index] !== '\n') this.index++;
      } else {
        this.wordPart();
      }
    }
    this.endCommand();
    return this.commands;
  }

  private wordPart(): void {
    const s = this.source;
    const char = s[this.index]!;
    this.inWord = true;
    if (char === '\\') {
      const next = s[this.index + 1];
      if (next === undefined) throw new Refused('a backslash at the end of the command');
      // Continued lines were joined before: one left here is where this reading and bash could disagree.
      if (next === '\n') throw new Refused('a backslash-newline where bash would not join the lines');
      this.text += next;
      this.index += 2;
    } else if (char === "'") {
      const end = s.indexOf("'", this.index + 1);
      if (end === -1) throw new Refused('an unterminated single quote');
      this.text += s.slice(this.index + 1, end);
      this.index = end + 1;
    } else if (char === '"') {
      this.doubleQuoted();
    } else if (char === '`') {
      throw new Refused('command substitution with backticks');
    } else if (char === '$') {
      this.expansion();
    } else {
      if ('*?[{}'.includes(char) || (char === '~' && this.text === '')) this.literal = false;
      this.text += char;
      this.index++;
    }
  }

  private doubleQuoted(): void {
    const s = this.source;
    this.index++;
    for (;;) {
      const char = s[this.index];
      if (char === undefined) throw new Refused('an unterminated double quote');
      if (char === '"') {
        this.index++;
        return;
      }
      if (char === '`') throw new Refused('command substitution with backticks');
      if (char === '$') {
        this.expansion();
      } else if (char === '\\' && s[this.index + 1] === '\n') {
        throw new Refused('a backslash-newline where bash would not join the lines');
      } else if (char === '\\' && '$`"\\'.includes(s[this.index + 1] ?? '')) {
        this.text += s[this.index + 1];
        this.index += 2;
      } else {
        this.text += char;
        this.index++;
      }
    }
  }

  /** `$NAME`, `${NAME}` and the special parameters are kept as written; anything else is refused. */
  private expansion(): void {
    const s = this.source;
    const next = s[this.index + 1];
    if (next === '(') {
      throw new Refused(
        s[this.index + 2] === '(' ? 'arithmetic expansion $((…))' : 'command substitution $(…)'
      );
    }
    if (next === "'" || next === '"') throw new Refused('ANSI-C or locale quoting ($\'…\', $"…")');
    if (next === '{') {
      const end = s.indexOf('}', this.index + 2);
      const inside = end === -1 ? '' : s.slice(this.index + 2, end);
      if (!NAME.test(inside)) throw new Refused('a parameter expansion other than ${NAME}');
      this.append(s.slice(this.index, end + 1));
      this.index = end + 1;
      return;
    }
    const name = /^[A-Za-z_][A-Za-z0-9_]*|^[0-9?#@*$!-]/.exec(s.slice(this.index + 1))?.[0];
    if (name === undefined) {
      // A lone `$` (before a blank, a quote or the end) is a literal dollar sign.
      this.text += '$';
      this.index++;
      return;
    }
    this.append(`$${name}`);
    this.index += 1 + name.length;
  }

  private append(expansion: string): void {
    this.text += expansion;
    this.literal = false;
  }

  /**
   * Redirections that only move the command's own streams are allowed (`2>&1`, `>&2`, `> /dev/null`);
   * one to or from a file is refused: it would write or read a file the other limits may forbid.
   */
  private redirection(): void {
    const s = this.source;
    // `2>` : the digits before the operator are its file descriptor, not a word.
    if (this.inWord && /^[0-9]+$/.test(this.text) && this.literal) this.discardWord();
    else this.endWord();
    const operator = /^(?:&>>|&>|>>|>\||>&|<&|<<|<>|<|>)/.exec(s.slice(this.index))![0];
    if (operator === '<<') throw new Refused('a here-document or here-string (<<)');
    if (s[this.index + operator.length] === '(' && (operator === '<' || operator === '>')) {
      throw new Refused('process substitution <(…) or >(…)');
    }
    this.index += operator.length;
    while (BLANK.has(s[this.index] ?? '')) this.index++;
    // The target is read as a word of its own, then taken back out of the command.
    const before = this.words.length;
    this.readTargetWord();
    const target = this.words.splice(before)[0];
    if (target === undefined) throw new Refused(`a redirection (${operator}) without a target`);
    const duplicate = operator === '>&' || operator === '<&';
    if (duplicate && target.literal && /^(?:[0-9]+|-)$/.test(target.text)) return;
    if (!duplicate && target.literal && target.text === '/dev/null') return;
    throw new Refused(
      `a redirection to or from a file (${operator} ${target.text}); only 2>&1-style and /dev/null ones are allowed`
    );
  }

  private readTargetWord(): void {
    const s = this.source;
    while (this.index < s.length && !BLANK.has(s[this.index]!) && !'\n;&|<>()'.includes(s[this.index]!)) {
      this.wordPart();
    }
    this.endWord();
  }

  private discardWord(): void {
    this.text = '';
    this.literal = true;
    this.inWord = false;
  }

  private endWord(): void {
    if (!this.inWord) return;
    this.words.push({ text: this.text, literal: this.literal });
    this.discardWord();
  }

  private endCommand(): void {
    this.endWord();
    if (this.words.length === 0) return;
    const name = commandName(this.words);
    // Quoted or not (`{` is not a literal word, `'if'` is a command named if): refused either way.
    if (name !== undefined && RESERVED.has(name.text)) {
      throw new Refused(`compound shell syntax (${name.text})`);
    }
    this.commands.push(this.words);
    this.words = [];
  }
}

/** `X=1 Y=2 npm test`: the assignments that come before a simple command's name. */
export function isAssignment(word: ShellWord): boolean {
  const equals = word.text.indexOf('=');
  return equals > 0 && /^[A-Za-z_][A-Za-z0-9_]*\+?$/.test(word.text.slice(0, equals));
}

/** The word bash runs as the command: the first that is not an assignment. */
export function commandName(words: SimpleCommand): ShellWord | undefined {
  return words.find((word) => !isAssignment(word));
}
