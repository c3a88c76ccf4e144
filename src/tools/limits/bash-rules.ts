import path from 'node:path';
import { commandName, isAssignment, splitShellCommand, type SimpleCommand } from './shell-words.js';

/** One rule: a command prefix, matched word by word (`npm test` matches `npm test -- x`, not `npm tests`). */
export interface CommandPrefix {
  /** As the person wrote it, for messages. */
  readonly text: string;
  readonly words: readonly string[];
}

export interface BashLimits {
  /** Empty: any command not disallowed. Otherwise every simple command must start with one of these. */
  readonly allowed: readonly CommandPrefix[];
  readonly disallowed: readonly CommandPrefix[];
  /** How the person who starts a run sets each list (`allowed_bash_commands`, `--allowed-bash-commands`). */
  readonly allowedSetting: string;
  readonly disallowedSetting: string;
}

export type BashVerdict =
  | { readonly allowed: true }
  | {
      readonly allowed: false;
      /** Which rule said no: `disallowed_bash_commands: git push`, `allowed_bash_commands`, or `unreadable`. */
      readonly rule: string;
      /** The first words of the part that was denied, for the report (never the whole command). */
      readonly head: string;
      /** For the model: what was denied, by which rule, what is allowed, and who can change it. */
      readonly message: string;
    };

/**
 * Programs that run the rest of their arguments as a command: for the deny list, a disallowed
 * prefix anywhere among their arguments counts (`sudo -u x git push`, `xargs git push`).
 */
const WRAPPERS = new Set([
  'env',
  'command',
  'builtin',
  'exec',
  'nohup',
  'nice',
  'timeout',
  'sudo',
  'doas',
  'xargs',
  'stdbuf',
  'setsid',
  'chroot',
  'unbuffer',
  'watch',
  'flock',
  'ionice',
  'taskset',
  'strace',
  'ltrace',
  'find'
]);
/** Shells whose `-c` script, and `eval`'s arguments, are read and judged against the deny list too. */
const SHELLS = new Set(['bash', 'sh', 'dash', 'zsh', 'ksh', 'mksh', 'ash', 'busybox']);
const MAX_NESTING = 4;
const HEAD_WORDS = 2;
const HEAD_CHARS = 60;

/**
 * Whether the bash tool may run `command`. Deny wins over allow; a command is allowed only if every
 * simple command in it is; a command this reading cannot judge (shell-words.ts) is denied.
 */
export function judgeBashCommand(command: string, limits: BashLimits): BashVerdict {
  const split = splitShellCommand(command);
  if (!split.ok) return unreadable(command, split.reason, limits);
  for (const words of split.commands) {
    const denied = disallowedBy(words, limits, 0);
    if (denied) return denied;
  }
  if (limits.allowed.length === 0) return { allowed: true };
  for (const words of split.commands) {
    if (!limits.allowed.some((prefix) => startsWith(words, prefix))) return notAllowed(words, limits);
  }
  return { allowed: true };
}

/** Allow rules match literally, from the first word (assignments included: `CI=1 npm test` is its own rule). */
function startsWith(words: SimpleCommand, prefix: CommandPrefix): boolean {
  return (
    words.length >= prefix.words.length &&
    prefix.words.every((expected, index) => words[index]!.literal && words[index]!.text === expected)
  );
}

/**
 * Deny rules match in doubt: from the command's name (after assignments), by its base name too
 * (`/usr/bin/git push`), with a word that is not literal (`git $X`) counting as a match.
 */
function disallowedBy(
  words: SimpleCommand,
  limits: BashLimits,
  depth: number
): Extract<BashVerdict, { allowed: false }> | undefined {
  if (limits.disallowed.length === 0) return undefined;
  const start = words.findIndex((word) => !isAssignment(word));
  if (start === -1) return undefined;
  const name = words[start]!;
  if (!name.literal) {
    return denial(
      'unreadable',
      words,
      `the command's name \`${name.text}\` is only known when it runs, so ${limits.disallowedSetting} cannot be checked. ` +
        'Write the command by its name.',
      limits
    );
  }
  const program = path.posix.basename(name.text);
  const starts = WRAPPERS.has(program)
    ? words.map((_, index) => index).filter((index) => index >= start)
    : [start];
  for (const at of starts) {
    const rule = limits.disallowed.find((prefix) => mayStartWith(words.slice(at), prefix));
    if (rule) {
      return denial(
        `${limits.disallowedSetting}: ${rule.text}`,
        words.slice(at),
        `it matches \`${rule.text}\` in ${limits.disallowedSetting}, which the person who started this run set. ` +
          'Do not retry it or a variant of it (another spelling, a wrapper, a script): reach the goal another way, ' +
          'or say in your summary which step needs it.',
        limits
      );
    }
  }
  const script = nestedScript(words.slice(start), program);
  if (script === undefined) return undefined;
  if (depth >= MAX_NESTING)
    return denial('unreadable', words, 'its commands are nested too deep to check.', limits);
  const split = splitShellCommand(script);
  if (!split.ok) return denial('unreadable', words, `its inner script uses ${split.reason}.`, limits);
  for (const inner of split.commands) {
    const denied = disallowedBy(inner, limits, depth + 1);
    if (denied) return denied;
  }
  return undefined;
}

function mayStartWith(words: SimpleCommand, prefix: CommandPrefix): boolean {
  if (words.length < prefix.words.length) return false;
  return prefix.words.every((expected, index) => {
    const word = words[index]!;
    if (!word.literal) return true;
    return word.text === expected || (index === 0 && path.posix.basename(word.text) === expected);
  });
}

/** The script `bash -c '…'` or `eval …` runs; undefined for any other command. */
function nestedScript(words: SimpleCommand, program: string): string | undefined {
  if (program === 'eval')
    return words
      .slice(1)
      .map((word) => word.text)
      .join(' ');
  if (!SHELLS.has(program)) return undefined;
  const flag = words.findIndex((word, index) => index > 0 && /^-[a-zA-Z]*c[a-zA-Z]*$/.test(word.text));
  if (flag === -1) return undefined;
  return words.slice(flag + 1).find((word) => !word.text.startsWith('-'))?.text ?? '';
}

function notAllowed(words: SimpleCommand, limits: BashLimits): Extract<BashVerdict, { allowed: false }> {
  return denial(
    limits.allowedSetting,
    words,
    `it does not start with a command in ${limits.allowedSetting}. ` +
      'Every part of a command joined with ;, &&, ||, |, & or a newline must be allowed on its own ' +
      '(variables set before a command, as in `CI=1 npm test`, are part of it).',
    limits
  );
}

function unreadable(command: string, reason: string, limits: BashLimits): BashVerdict {
  const words = command
    .trim()
    .split(/\s+/)
    .map((text) => ({ text, literal: true }));
  return denial(
    'unreadable',
    words,
    `the bash limits cannot check a command that uses ${reason}. ` +
      'Write plain commands joined with ;, &&, ||, | or & — without $(…), backticks, subshells, ' +
      'if/for/while/case, here-documents or redirection to files (2>&1 and /dev/null are fine).',
    limits
  );
}

function denial(
  rule: string,
  words: SimpleCommand,
  why: string,
  limits: BashLimits
): Extract<BashVerdict, { allowed: false }> {
  const shown = words.map((word) => word.text).join(' ');
  const allowed =
    limits.allowed.length > 0
      ? ` Allowed commands (a command must start with one): ${limits.allowed.map((prefix) => `\`${prefix.text}\``).join(', ')}.`
      : '';
  const disallowed =
    limits.disallowed.length > 0
      ? ` Disallowed: ${limits.disallowed.map((prefix) => `\`${prefix.text}\``).join(', ')}.`
      : '';
  return {
    allowed: false,
    rule,
    head: commandHead(words),
    message:
      `Denied by the run's bash limits, nothing was run: \`${clip(shown, 200)}\`: ${why}${allowed}${disallowed} ` +
      `These limits are set by whoever started the run (${limits.allowedSetting}, ${limits.disallowedSetting}); ` +
      'you cannot change them.'
  };
}

/** The command's first words (`git push`), short: the report lists denials by it. */
function commandHead(words: SimpleCommand): string {
  const start = Math.max(
    0,
    words.findIndex((word) => word === commandName(words))
  );
  return clip(
    words
      .slice(start, start + HEAD_WORDS)
      .map((word) => word.text)
      .join(' '),
    HEAD_CHARS
  );
}

function clip(text: string, max: number): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length > max ? `${oneLine.slice(0, max - 1)}…` : oneLine;
}
