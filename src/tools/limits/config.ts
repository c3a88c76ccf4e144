import type { BashLimits, CommandPrefix } from './bash-rules.js';
import { splitShellCommand } from './shell-words.js';

/*
 * Modelled on Claude Code's permission rules, which claude-code-action passes through as
 * `--allowedTools "Bash(npm test:*),Edit"` / `--disallowedTools` (https://code.claude.com/docs/en/permissions,
 * "Compound commands" and deny rules, read 2026-11-25): deny wins, a bare tool name removes the tool
 * from the model's context, and each part of a compound command must match on its own. Not mirrored:
 * its tool names (Bash, Read; ours are bash, read_file) and its `Bash(prefix:*)` syntax, which
 * matches text rather than whole words; people who paste it get a hint instead. Its own tracker shows
 * the compound rule failing in practice (anthropics/claude-code#94314, #28784), hence the tests'
 * attack list.
 */

/**
 * Which tools the model is offered, and which bash commands it may run. Read from four inputs
 * (allowed_tools, disallowed_tools, allowed_bash_commands, disallowed_bash_commands) and their CLI
 * flags; all empty means no limits, the run as before.
 */
export interface ToolLimits {
  /** Only these tools are offered (by name, MCP tools as mcp__server__tool); undefined: all. */
  readonly allowedTools: readonly string[] | undefined;
  /** Never offered; wins over allowedTools. */
  readonly disallowedTools: readonly string[];
  /** Undefined when neither bash list is set: commands are then not parsed at all. */
  readonly bash: BashLimits | undefined;
  /** How each list is set, for the messages: `allowed_tools` in a workflow, `--allowed-tools` on the CLI. */
  readonly allowedToolsSetting: string;
  readonly disallowedToolsSetting: string;
}

export const NO_TOOL_LIMITS: ToolLimits = {
  allowedTools: undefined,
  disallowedTools: [],
  bash: undefined,
  allowedToolsSetting: 'allowed_tools',
  disallowedToolsSetting: 'disallowed_tools'
};

/** The built-in tools, by the names the model knows them (tools/index.ts). */
export const BUILT_IN_TOOLS: readonly string[] = [
  'bash',
  'read_file',
  'write_file',
  'edit_file',
  'glob',
  'grep',
  'compact'
];
const MCP_TOOL = /^mcp__[A-Za-z0-9_-]+__[A-Za-z0-9_-]+$/;
/** Claude Code's names, which people copy from claude-code-action's `--allowedTools`. */
const CLAUDE_CODE_NAMES: Readonly<Record<string, string>> = {
  Bash: 'bash',
  Read: 'read_file',
  Write: 'write_file',
  Edit: 'edit_file',
  MultiEdit: 'edit_file',
  Glob: 'glob',
  Grep: 'grep'
};

/**
 * Reads and checks the four inputs; each bad value adds a problem naming its input. Tool lists are
 * split at commas and blanks; bash command lists at commas and newlines (a command has blanks).
 */
export function readToolLimits(
  read: (input: string) => string,
  nameOf: (input: string) => string,
  problems: string[]
): ToolLimits {
  const allowedToolsSetting = nameOf('allowed_tools');
  const disallowedToolsSetting = nameOf('disallowed_tools');
  const allowed = toolNames(read('allowed_tools'), allowedToolsSetting, problems);
  const disallowed = toolNames(read('disallowed_tools'), disallowedToolsSetting, problems);
  const allowedSetting = nameOf('allowed_bash_commands');
  const disallowedSetting = nameOf('disallowed_bash_commands');
  const allowedBash = commandPrefixes(read('allowed_bash_commands'), allowedSetting, problems);
  const disallowedBash = commandPrefixes(read('disallowed_bash_commands'), disallowedSetting, problems);
  const allowedTools = allowed.length > 0 ? allowed : undefined;
  const bashOffered = !disallowed.includes('bash') && (allowedTools?.includes('bash') ?? true);
  if (!bashOffered && (allowedBash.length > 0 || disallowedBash.length > 0)) {
    problems.push(
      `${allowedBash.length > 0 ? allowedSetting : disallowedSetting} is set, but bash is not offered ` +
        `(${disallowed.includes('bash') ? `${disallowedToolsSetting} names it` : `${allowedToolsSetting} does not name it`}). ` +
        'Offer bash, or leave the bash command lists empty.'
    );
  }
  return {
    allowedTools,
    disallowedTools: disallowed,
    bash:
      allowedBash.length > 0 || disallowedBash.length > 0
        ? { allowed: allowedBash, disallowed: disallowedBash, allowedSetting, disallowedSetting }
        : undefined,
    allowedToolsSetting,
    disallowedToolsSetting
  };
}

function toolNames(raw: string, setting: string, problems: string[]): string[] {
  const names = raw
    .split(/[\s,]+/)
    .map((name) => name.trim())
    .filter((name) => name !== '');
  for (const name of names) {
    if (BUILT_IN_TOOLS.includes(name) || MCP_TOOL.test(name)) continue;
    const claudeCode = CLAUDE_CODE_NAMES[name.replace(/\(.*$/s, '')];
    const hint = claudeCode
      ? ` That is Claude Code's name: here the tool is ${claudeCode}` +
        (name.startsWith('Bash(') ? ', and bash commands are limited with allowed_bash_commands' : '') +
        '.'
      : '';
    problems.push(
      `${setting} names "${name}", which is no tool.${hint} The tools are ${BUILT_IN_TOOLS.join(', ')}, ` +
        'and MCP tools by their full name, mcp__<server>__<tool>.'
    );
  }
  return names;
}

/**
 * Each prefix must itself be one plain command (literal words, no operators or expansions): it is
 * compared word by word with each part of a command the model runs.
 */
function commandPrefixes(raw: string, setting: string, problems: string[]): CommandPrefix[] {
  const prefixes: CommandPrefix[] = [];
  for (const text of raw
    .split(/[,\n]/)
    .map((item) => item.trim())
    .filter((item) => item !== '')) {
    if (/(?::\*|\s\*)$/.test(text) || text.startsWith('Bash(')) {
      problems.push(
        `${setting} has "${text}": write the command prefix alone, e.g. npm test (it matches "npm test" ` +
          'followed by anything, not "npm tests"); no Bash(...) or :* as in Claude Code.'
      );
      continue;
    }
    const split = splitShellCommand(text);
    const words = split.ok && split.commands.length === 1 ? split.commands[0]! : undefined;
    if (!words || words.some((word) => !word.literal)) {
      problems.push(
        `${setting} has "${text}", which is not one plain command: a prefix is words only, ` +
          'without ;, &&, |, redirections, $ expansions or globs (list several prefixes separated by commas or newlines).'
      );
      continue;
    }
    prefixes.push({ text, words: words.map((word) => word.text) });
  }
  return prefixes;
}
