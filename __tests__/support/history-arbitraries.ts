/**
 * fast-check arbitraries for random, valid agent histories (MessageParam[]), as the loop builds them:
 * a user task, then assistant turns with 1..4 parallel tool calls (or text only), each answered by a
 * user turn with one tool_result per call, in order. Results are short or long (thousands of
 * characters of real code, read from node_modules/fast-glob/out at test start), sometimes errors,
 * sometimes arrays of text blocks, and paths and commands repeat so results get superseded.
 *
 * The arbitraries generate a compact spec; the messages are built from it, so a counterexample
 * shrinks on the spec and prints as a short outline of the history (see `describeHistory`).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type {
  ContentBlockParam,
  MessageParam,
  TextBlockParam,
  ToolResultBlockParam,
  ToolUseBlockParam
} from '@anthropic-ai/sdk/resources/messages';
import fc from 'fast-check';

// ---------------------------------------------------------------------------------------------
// Real text to build results from: the compiled sources of fast-glob, read once.

interface SourceFile {
  readonly path: string;
  readonly text: string;
}

const OUT_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'node_modules', 'fast-glob', 'out');

function readSources(dir: string): SourceFile[] {
  const files: SourceFile[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...readSources(path));
    else if (entry.name.endsWith('.js') || entry.name.endsWith('.d.ts'))
      files.push({ path: `out/${relative(OUT_DIR, path)}`, text: readFileSync(path, 'utf8') });
  }
  return files.sort((a, b) => a.path.localeCompare(b.path));
}

export const SOURCES: readonly SourceFile[] = readSources(OUT_DIR);
if (SOURCES.length < 10) throw new Error(`expected the fast-glob sources in ${OUT_DIR}`);
/** All sources, one after the other, with a header line each: the text long results are cut from. */
const CORPUS = SOURCES.map((file) => `// ---- ${file.path} ----\n${file.text}`).join('\n');
const CORPUS_LINES = CORPUS.split('\n');

/** `length` characters of the corpus from `offset` (wrapping around), never whitespace only. */
function corpusSlice(offset: number, length: number): string {
  let text = '';
  let start = offset % CORPUS.length;
  while (text.length < length) {
    text += CORPUS.slice(start, start + (length - text.length));
    start = 0;
  }
  return text.trim() === '' ? `// (blank region of the corpus at ${offset})` : text;
}

/** Whole corpus lines starting near `offset`, about `length` characters in total. */
function corpusLines(offset: number, length: number): Array<{ number: number; text: string }> {
  const lines: Array<{ number: number; text: string }> = [];
  let index = offset % CORPUS_LINES.length;
  let chars = 0;
  while (chars < length) {
    const text = CORPUS_LINES[index]!;
    lines.push({ number: index + 1, text });
    chars += text.length + 8;
    index = (index + 1) % CORPUS_LINES.length;
  }
  return lines;
}

// ---------------------------------------------------------------------------------------------
// Pools of inputs: small, so the same file is read again and the same command runs again.

export const TOOL_NAMES = ['read_file', 'bash', 'grep', 'glob', 'edit_file', 'write_file'] as const;
export type ToolName = (typeof TOOL_NAMES)[number];

/** './src/app.ts' and 'src/app.ts' are the same file; 'npm test ' and 'npm test' the same command. */
export const PATHS = [
  'src/app.ts',
  './src/app.ts',
  'src/utils/pattern.ts',
  'src/settings.ts',
  'test/app.test.ts',
  'README.md',
  'package.json',
  'src/deleted.ts'
] as const;
export const COMMANDS = [
  'npm test',
  'git status --porcelain',
  'npx tsc --noEmit',
  'npm run lint',
  'ls -la src',
  'git diff --stat',
  'npm test '
] as const;
export const GREP_PATTERNS = [
  'TODO',
  'export function',
  'isDynamicPattern',
  'new Settings(',
  'import .* from'
];
export const GLOB_PATTERNS = ['src/**/*.ts', '**/*.json', 'test/**/*.test.ts', 'out/**/*.js'];

/** The input a placeholder names the call by (mirrors what a reader expects, not the src table). */
export function keyInputOf(name: string, input: unknown): string | undefined {
  const keys: Record<string, string> = {
    read_file: 'path',
    edit_file: 'path',
    write_file: 'path',
    bash: 'command',
    grep: 'pattern',
    glob: 'pattern'
  };
  const key = keys[name];
  const value = key !== undefined ? (input as Record<string, unknown>)[key] : undefined;
  return typeof value === 'string' ? value : undefined;
}

const TASKS = [
  'Fix the failing test in test/app.test.ts: `expected 3, received 2`. Do not change the test.',
  'Add a --dry-run flag to the CLI that prints what would change without writing files.',
  'The build fails with TS2345 in src/settings.ts. Make `npx tsc --noEmit` pass and keep the public API.',
  'Rename `isDynamicPattern` to `hasGlobMagic` everywhere, update the docs, run the tests.',
  'Investigate why the glob "src/**/*.ts" misses files in hidden directories and fix it.\n\nAcceptance: npm test passes.',
  'Écris un résumé des changements dans CHANGELOG.md — en français, s’il te plaît. 🚀'
];
const TASK_EXTRAS = [
  'Context: the CI log is in ci.log.',
  'The repository uses npm, not yarn.',
  '<issue number="42">Globs with braces are slow.</issue>'
];
const ASSISTANT_TEXTS = [
  'Let me look at the failing test first.',
  "I'll read the file and run the tests.",
  'The error points at the pattern utilities; checking them.',
  'Running the type checker to see the remaining errors.',
  'Now I will apply the fix.',
  'Searching for the other call sites.'
];
const CONTINUE_TEXTS = [
  'Please continue.',
  'Continue from where you stopped; the output was cut at its length limit.',
  'Keep going, and run the tests when you are done.'
];
const FINAL_ASSISTANT_TEXTS = [
  'I have made the change. Should I also update the documentation?',
  'The tests pass now. Summary: the pattern check ignored hidden directories.'
];

// ---------------------------------------------------------------------------------------------
// The spec: what fast-check generates and shrinks.

export type Size = 'short' | 'long' | 'huge';

export interface CallSpec {
  readonly tool: ToolName;
  /** Index into the tool's input pool. */
  readonly key: number;
  readonly isError: boolean;
  readonly size: Size;
  /** A plain string, or an array of 1..3 text blocks. */
  readonly blocks: number;
  readonly offset: number;
  readonly length: number;
}

export type TurnSpec =
  | { readonly kind: 'tools'; readonly text: string | undefined; readonly calls: readonly CallSpec[] }
  | { readonly kind: 'text'; readonly text: string; readonly reply: string; readonly replyAsBlocks: boolean };

export interface HistorySpec {
  readonly task: string;
  readonly taskAsBlocks: boolean;
  readonly taskExtra: string | undefined;
  readonly turns: readonly TurnSpec[];
}

export interface GeneratedHistory {
  readonly spec: HistorySpec;
  readonly messages: MessageParam[];
  /** The task text, as the first text block of the first message carries it. */
  readonly task: string;
}

const LONG_MIN = 1_500;
const LONG_MAX = 9_000;
const HUGE_MIN = 50_500;
const HUGE_MAX = 65_000;

const callArbitrary: fc.Arbitrary<CallSpec> = fc.record({
  tool: fc.constantFrom(...TOOL_NAMES),
  key: fc.nat({ max: 7 }),
  isError: fc.oneof(
    { weight: 4, arbitrary: fc.constant(false) },
    { weight: 1, arbitrary: fc.constant(true) }
  ),
  size: fc.oneof(
    { weight: 12, arbitrary: fc.constant<Size>('short') },
    { weight: 9, arbitrary: fc.constant<Size>('long') },
    { weight: 1, arbitrary: fc.constant<Size>('huge') }
  ),
  blocks: fc.oneof(
    { weight: 3, arbitrary: fc.constant(0) },
    { weight: 1, arbitrary: fc.integer({ min: 1, max: 3 }) }
  ),
  offset: fc.nat({ max: 1_000_000 }),
  length: fc.nat({ max: 1_000_000 })
});

const turnArbitrary: fc.Arbitrary<TurnSpec> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('tools' as const),
      text: fc.option(fc.constantFrom(...ASSISTANT_TEXTS), { nil: undefined }),
      calls: fc.array(callArbitrary, { minLength: 1, maxLength: 4 })
    })
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('text' as const),
      text: fc.constantFrom(...ASSISTANT_TEXTS, ...FINAL_ASSISTANT_TEXTS),
      reply: fc.constantFrom(...CONTINUE_TEXTS),
      replyAsBlocks: fc.boolean()
    })
  }
);

const taskArbitrary: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...TASKS) },
  {
    weight: 2,
    arbitrary: fc
      .string({ minLength: 1, maxLength: 80, unit: 'grapheme' })
      .filter((text) => text.trim() !== '')
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.nat({ max: 1_000_000 }), fc.integer({ min: 500, max: 3_000 }))
      .map(([offset, length]) => `Port this module to TypeScript:\n\n${corpusSlice(offset, length)}`)
  }
);

export interface HistoryOptions {
  readonly maxTurns?: number;
}

/** Random valid histories; every one ends with a user message (the points the loop compacts at). */
export function historyArbitrary(options: HistoryOptions = {}): fc.Arbitrary<GeneratedHistory> {
  return fc
    .record({
      task: taskArbitrary,
      taskAsBlocks: fc.boolean(),
      taskExtra: fc.option(fc.constantFrom(...TASK_EXTRAS), { nil: undefined }),
      turns: fc.array(turnArbitrary, { maxLength: options.maxTurns ?? 16, size: 'max' }),
      endsWithText: fc.oneof(
        { weight: 3, arbitrary: fc.constant(false) },
        { weight: 1, arbitrary: fc.constant(true) }
      )
    })
    .map(({ endsWithText, ...spec }): HistorySpec => {
      if (!endsWithText) return spec;
      const ending: TurnSpec = {
        kind: 'text',
        text: FINAL_ASSISTANT_TEXTS[0]!,
        reply: 'Yes, update the README too, then stop.',
        replyAsBlocks: false
      };
      return { ...spec, turns: [...spec.turns, ending] };
    })
    .map(buildHistory);
}

// ---------------------------------------------------------------------------------------------
// Building the messages.

export function buildHistory(spec: HistorySpec): GeneratedHistory {
  let nextId = 1;
  const first: MessageParam = spec.taskAsBlocks
    ? {
        role: 'user',
        content: [
          { type: 'text', text: spec.task },
          ...(spec.taskExtra ? [{ type: 'text' as const, text: spec.taskExtra }] : [])
        ]
      }
    : { role: 'user', content: spec.task };
  const messages: MessageParam[] = [first];
  for (const turn of spec.turns) {
    if (turn.kind === 'text') {
      messages.push({ role: 'assistant', content: [{ type: 'text', text: turn.text }] });
      messages.push({
        role: 'user',
        content: turn.replyAsBlocks ? [{ type: 'text', text: turn.reply }] : turn.reply
      });
      continue;
    }
    const uses: ToolUseBlockParam[] = turn.calls.map((call) => ({
      type: 'tool_use',
      id: `toolu_${nextId++}`,
      name: call.tool,
      input: inputFor(call)
    }));
    messages.push({
      role: 'assistant',
      content: [...(turn.text ? [{ type: 'text' as const, text: turn.text }] : []), ...uses]
    });
    messages.push({
      role: 'user',
      content: turn.calls.map((call, index) => resultFor(call, uses[index]!))
    });
  }
  const task = spec.task;
  const generated: GeneratedHistory & fc.WithToStringMethod = {
    spec,
    messages,
    task,
    [fc.toStringMethod]: () => describeHistory(messages)
  };
  return generated;
}

function inputFor(call: CallSpec): Record<string, unknown> {
  const path = PATHS[call.key % PATHS.length]!;
  switch (call.tool) {
    case 'read_file':
      return { path };
    case 'bash':
      return { command: COMMANDS[call.key % COMMANDS.length]! };
    case 'grep':
      return { pattern: GREP_PATTERNS[call.key % GREP_PATTERNS.length]! };
    case 'glob':
      return { pattern: GLOB_PATTERNS[call.key % GLOB_PATTERNS.length]! };
    case 'edit_file': {
      const old = corpusLines(call.offset, 40)[0]!.text.trim() || 'return false;';
      return { path, old_string: old, new_string: `${old} // fixed` };
    }
    case 'write_file':
      return { path, content: corpusSlice(call.offset, 50 + (call.length % 1_500)) };
  }
}

function resultLength(call: CallSpec): number {
  if (call.size === 'huge') return HUGE_MIN + (call.length % (HUGE_MAX - HUGE_MIN));
  if (call.size === 'long') return LONG_MIN + (call.length % (LONG_MAX - LONG_MIN));
  return 20 + (call.length % 180);
}

function resultText(call: CallSpec, use: ToolUseBlockParam): string {
  const input = use.input as Record<string, string>;
  const length = resultLength(call);
  const short = call.size === 'short';
  switch (call.tool) {
    case 'read_file': {
      if (call.isError) return `ENOENT: no such file or directory, open '${input.path}'`;
      const lines = corpusLines(call.offset, short ? 60 : length);
      return lines.map((line) => `${String(line.number).padStart(6)}\t${line.text}`).join('\n');
    }
    case 'bash': {
      const stdout = short ? (call.isError ? '' : 'ok') : corpusSlice(call.offset, length);
      const stderr = call.isError ? 'npm ERR! Test failed.  See above for more details.' : '';
      return [`exit code: ${call.isError ? 1 : 0}`, '--- stdout ---', stdout, '--- stderr ---', stderr].join(
        '\n'
      );
    }
    case 'grep': {
      if (call.isError) return `Invalid regular expression: /${input.pattern}(/: Unterminated group`;
      const lines = corpusLines(call.offset, short ? 80 : length);
      return lines.map((line) => `out/index.js:${line.number}:${line.text}`).join('\n');
    }
    case 'glob': {
      if (call.isError) return `Invalid glob pattern: ${input.pattern}`;
      const target = short ? 60 : length;
      const paths: string[] = [];
      for (let round = 0, chars = 0; chars < target; round++)
        for (const file of SOURCES) {
          if (chars >= target) break;
          const path = round === 0 ? file.path : `packages/p${round}/${file.path}`;
          paths.push(path);
          chars += path.length + 1;
        }
      return paths.join('\n');
    }
    case 'edit_file':
      return call.isError
        ? `old_string was not found in ${input.path}; read the file again and copy the text exactly.`
        : `Edited ${input.path}: replaced 1 occurrence.`;
    case 'write_file':
      return call.isError
        ? `EACCES: permission denied, open '${input.path}'`
        : `Wrote ${(input.content ?? '').length} characters to ${input.path}.`;
  }
}

function resultFor(call: CallSpec, use: ToolUseBlockParam): ToolResultBlockParam {
  const text = resultText(call, use);
  return {
    type: 'tool_result',
    tool_use_id: use.id,
    content: call.blocks === 0 ? text : splitIntoBlocks(text, call.blocks),
    ...(call.isError ? { is_error: true } : {})
  };
}

/** Up to `count` text blocks, cut at line ends; never an empty or whitespace-only block. */
function splitIntoBlocks(text: string, count: number): TextBlockParam[] {
  const lines = text.split('\n');
  const per = Math.ceil(lines.length / count);
  const blocks: TextBlockParam[] = [];
  for (let start = 0; start < lines.length; start += per) {
    const piece = lines.slice(start, start + per).join('\n');
    if (piece.trim() !== '') blocks.push({ type: 'text', text: piece });
  }
  return blocks.length > 0 ? blocks : [{ type: 'text', text: '(no output)' }];
}

// ---------------------------------------------------------------------------------------------
// Printing: one line per message, so counterexamples stay readable.

function blocksOf(message: MessageParam): readonly ContentBlockParam[] {
  return typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
}

function quote(text: string, max = 60): string {
  const oneLine = text.replace(/\s+/g, ' ');
  return JSON.stringify(oneLine.length > max ? `${oneLine.slice(0, max - 1)}…` : oneLine);
}

export function resultContentText(block: ToolResultBlockParam): string {
  if (block.content === undefined) return '';
  if (typeof block.content === 'string') return block.content;
  return block.content.map((part) => (part.type === 'text' ? part.text : JSON.stringify(part))).join('\n');
}

/** A short outline of a history: roles, calls with their key input, result sizes and flags. */
export function describeHistory(messages: readonly MessageParam[]): string {
  const lines = messages.map((message, index) => {
    const form = typeof message.content === 'string' ? 'string ' : '';
    const parts = blocksOf(message).map((block) => {
      switch (block.type) {
        case 'text':
          return `text ${quote(block.text)}`;
        case 'tool_use':
          return `${block.id} ${block.name}(${quote(keyInputOf(block.name, block.input) ?? '', 40)})`;
        case 'tool_result': {
          const text = resultContentText(block);
          const shape = typeof block.content === 'string' ? 'str' : `${block.content?.length ?? 0} blocks`;
          const flags = `${block.is_error ? ' is_error' : ''}${block.cache_control ? ' cache_control' : ''}`;
          return `result ${block.tool_use_id} [${shape}, ${text.length} chars${flags}] ${quote(text, 40)}`;
        }
        default:
          return block.type;
      }
    });
    return `  ${index} ${message.role}: ${form}${parts.join(' | ')}`;
  });
  return `history of ${messages.length} messages:\n${lines.join('\n')}`;
}
