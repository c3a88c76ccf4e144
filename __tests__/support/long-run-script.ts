import { cpSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  lastUserText,
  reply,
  text,
  toolResultText,
  toolUse,
  type JsonObject,
  type ParsedRequest,
  type ReplyBlock,
  type Script,
  type ScriptedReply,
  type ToolUseBlockParam,
  unseenToolExchanges
} from '../../test-support/fake-anthropic/index.js';

/**
 * A folder of real code nobody here wrote, staged from installed packages: fast-glob's build,
 * globby, and js-yaml's library (whose loader is big enough to matter). Remove it after seeding.
 */
export function realCodeSeed(): string {
  const stage = mkdtempSync(path.join(tmpdir(), 'compact-agent-seed-'));
  cpSync(path.resolve('node_modules/fast-glob/out'), path.join(stage, 'fast-glob'), { recursive: true });
  const globby = path.resolve('node_modules/globby');
  for (const file of readdirSync(globby).filter((name) => /\.(js|d\.ts|json|md)$/.test(name))) {
    cpSync(path.join(globby, file), path.join(stage, 'globby', file));
  }
  cpSync(path.resolve('node_modules/js-yaml/lib'), path.join(stage, 'js-yaml'), { recursive: true });
  return stage;
}

/** Opens the instruction block the compaction pipeline appends to a summary request. */
export const COMPACTION_REQUEST_TAG = '<compaction-request>';

export interface LongRunOptions {
  /** Agent turns in all, the last one a text-only reply (default 301: 300 tool turns, then the answer). */
  readonly turns?: number;
  /** The agent step (0-based) at which the model calls `compact` (default: the middle of the run). */
  readonly manualCompactAt?: number;
  readonly compactFocus?: string;
  /** Files at least this long (characters, by `wc -c`) are read whole in the reading bursts (default 12,000). */
  readonly bigFileChars?: number;
  /** A reading burst of whole big files starts every this many steps (default 37). */
  readonly burstEvery?: number;
  /**
   * How summaries are written: with the requested headings (default), or as plain prose with none
   * of them, the way many real models answer.
   */
  readonly summaryStyle?: 'sections' | 'prose';
}

/** What the script did, for the test to compare with what the agent and the fake recorded. */
export interface LongRunProgress {
  /** Agent turns answered (summary requests excluded). */
  agentTurns: number;
  /** Summary requests answered, and the focus each one asked for (null without one). */
  summaryRequests: number;
  readonly summaryFocuses: (string | null)[];
  /** Tool calls made, by tool name. */
  readonly toolCalls: Record<string, number>;
  /** Paths the script edited with edit_file. */
  readonly edited: string[];
  /** Whether a spilled result's file was read back. */
  spillReadBack: boolean;
  finished: boolean;
}

export interface LongRunScript extends Script {
  readonly progress: LongRunProgress;
}

const DEFAULT_FOCUS = 'the files edited so far and the failing commands with their exit codes';

/**
 * A scripted model for a long session (hundreds of turns) on a real code base. It maps the
 * repository (glob, `wc -c`), then alternates quiet stretches (windows of files, greps, globs,
 * `wc -l`, `node --check`, `git status`) with bursts that read big files whole, `cat` them and read
 * them again. It writes notes, breaks and fixes a scratch file, edits real files, makes a failing
 * read and failing commands, reads one file too big for the context (spilled) and then the spill
 * file, and calls `compact` with a focus once in the middle.
 *
 * History is rewritten by compaction, so the script never counts messages: its own step counter
 * lives here and advances on agent turns only. A summary request (the last user message holds
 * `<compaction-request>`) is answered with a structured summary and does not advance the step.
 * Whatever the script learns from tool results (file list, sizes, first lines) it keeps in this
 * closure, reading each tool result once, when it first appears.
 */
export function longRunScript(options: LongRunOptions = {}): LongRunScript {
  const turns = options.turns ?? 301;
  const last = turns - 1;
  const manualAt = options.manualCompactAt ?? Math.floor(turns / 2);
  const focus = options.compactFocus ?? DEFAULT_FOCUS;
  const bigFileChars = options.bigFileChars ?? 12_000;
  const burstEvery = options.burstEvery ?? 37;

  const progress: LongRunProgress = {
    agentTurns: 0,
    summaryRequests: 0,
    summaryFocuses: [],
    toolCalls: {},
    edited: [],
    spillReadBack: false,
    finished: false
  };

  // What the model knows, learned from tool results.
  let files: string[] = [];
  const sizes = new Map<string, number>();
  const headLines = new Map<string, string>();
  const filesRead = new Set<string>();
  const errors: string[] = [];
  const seenResults = new Set<string>();
  let spillPath: string | undefined;
  let step = 0;
  /**
   * Follow-ups (the edit after its read, the check after the edit, the spill file after the spill),
   * decided when their turn comes, from what the earlier step returned. They run before the regular plan.
   */
  const queue: (() => ReplyBlock[])[] = [];

  const jsFiles = () => files.filter((file) => file.endsWith('.js'));
  const bigFiles = () =>
    [...sizes]
      .filter(([file, size]) => size >= bigFileChars && size < 45_000 && file.endsWith('.js'))
      .map(([file]) => file)
      .sort();
  const hugeFile = () => [...sizes].filter(([, size]) => size > 50_000).map(([file]) => file)[0];
  const smallFiles = () => jsFiles().filter((file) => (sizes.get(file) ?? 0) < bigFileChars);
  const pick = (list: readonly string[], k: number) => list[(k * 7) % Math.max(list.length, 1)];
  const small = (k: number) => pick(smallFiles(), k) ?? pick(jsFiles(), k) ?? 'index.js';
  const big = (k: number) => bigFiles()[k % Math.max(bigFiles().length, 1)] ?? small(k);

  /** Learns from every tool result not seen yet, paired with its call in the assistant message before it. */
  const observe = (request: ParsedRequest) => {
    for (const { call, result } of unseenToolExchanges(request, seenResults))
      learn(call, toolResultText(result), result.is_error === true);
  };

  const learn = (call: ToolUseBlockParam, result: string, isError: boolean) => {
    const input = call.input as Record<string, unknown>;
    const path = typeof input.path === 'string' ? input.path : undefined;
    if (isError) {
      const command = typeof input.command === 'string' ? ` \`${input.command}\`` : '';
      errors.push(`${call.name}${command}${path ? ` ${path}` : ''}: ${result.split('\n')[0]}`);
    }
    if (call.name === 'glob' && !isError && files.length === 0) {
      files = result.split('\n').filter((line) => /^[\w./@-]+$/.test(line));
    }
    if (call.name === 'bash' && typeof input.command === 'string' && input.command.includes('wc -c')) {
      for (const match of result.matchAll(/^\s*(\d+)\s+(\S+)$/gm)) {
        if (match[2] !== 'total') sizes.set(match[2]!, Number(match[1]));
      }
    }
    if (call.name === 'read_file' && path && !isError) {
      filesRead.add(path);
      const spilled = /is in (\S+):\s*$/m.exec(result);
      if (spilled) spillPath = spilled[1];
      const lines = result.split('\n').slice(0, 2);
      if (input.offset === undefined && lines.length === 2 && lines.every((line) => /^\s*\d+\t/.test(line))) {
        headLines.set(path, lines.map((line) => line.replace(/^\s*\d+\t/, '')).join('\n'));
      }
    }
  };

  const call = (name: string, input: JsonObject): ReplyBlock => {
    progress.toolCalls[name] = (progress.toolCalls[name] ?? 0) + 1;
    return toolUse(name, input);
  };
  const read = (path: string, window?: { offset?: number; limit?: number }) =>
    call('read_file', { path, ...window });
  const bash = (command: string) => call('bash', { command });

  const notEditedYet = (k: number) => {
    for (let j = 0; j < smallFiles().length; j++)
      if (!progress.edited.includes(small(k + j))) return small(k + j);
    return small(k);
  };
  /** Reads the head of a file, then edits it in the next step (a model never edits blind). */
  const planEdit = (file: string): ReplyBlock[] => {
    queue.push(
      () => editHead(file),
      () => [bash(`node --check ${file} && echo syntax-ok`), bash('git diff --stat')]
    );
    return [read(file, { limit: 5 })];
  };
  /** Adds a line after the first two, quoting them as read: empty when the read result never arrived. */
  const editHead = (file: string): ReplyBlock[] => {
    const head = headLines.get(file);
    if (head === undefined) return [];
    headLines.delete(file);
    progress.edited.push(file);
    return [
      call('edit_file', {
        path: file,
        old_string: head,
        new_string: `${head}\n// Reviewed during the long run (step ${step}).`
      })
    ];
  };

  const special = (s: number): ReplyBlock[] | undefined => {
    const at = (fraction: number) => Math.round(last * fraction);
    switch (s) {
      case 1:
        return [
          call('grep', { pattern: 'module\\.exports|^export ', glob: '**/*.js' }),
          bash('git log --oneline | head -3')
        ];
      case 3:
        return [read('src/does-not-exist.js')];
      case 5:
        return [
          call('write_file', {
            path: 'NOTES.md',
            content: `# Notes\n\n${jsFiles().length} JavaScript files; ${bigFiles().length} of them over ${bigFileChars} characters.\n`
          })
        ];
      case 7:
        return [
          call('write_file', { path: 'scratch/probe.js', content: 'const probe = {\n  ok: true,\n;\n' })
        ];
      case 8:
        return [bash('node --check scratch/probe.js')];
      case 9:
        return [
          call('edit_file', {
            path: 'scratch/probe.js',
            old_string: '  ok: true,\n;',
            new_string: '  ok: true\n};'
          })
        ];
      case 10:
        return [bash('node --check scratch/probe.js && echo syntax-ok')];
      case manualAt:
        return [call('compact', { focus })];
      case at(0.3):
      case at(0.62):
      case at(0.85):
        return planEdit(notEditedYet(s));
      case at(0.35):
      case at(0.9):
        return [bash('git diff --exit-code --stat')];
      case at(0.45): {
        const huge = hugeFile();
        if (!huge) return undefined;
        // Too big for the context: the result is spilled to a file, which the model then reads a part of.
        queue.push(() => {
          if (!spillPath) return [];
          progress.spillReadBack = true;
          return [read(spillPath, { offset: 1, limit: 40 })];
        });
        return [read(huge)];
      }
      case at(0.95):
        return [
          call('write_file', {
            path: 'NOTES.md',
            content: [
              '# Notes',
              '',
              `${jsFiles().length} JavaScript files explored; ${filesRead.size} read.`,
              `Edited: ${progress.edited.join(', ') || 'none'}.`,
              `Errors met: ${errors.length}.`,
              ''
            ].join('\n')
          }),
          bash('git status --short')
        ];
      default:
        return undefined;
    }
  };

  const burst = (b: number, round: number): ReplyBlock[] => {
    const k = round * 3;
    switch (b) {
      case 0:
        return [read(big(k)), read(big(k + 1))];
      case 1:
        return [read(big(k + 2))];
      case 2:
        return [bash(`cat ${big(k + 3)}`)];
      case 3:
        return [read(big(k))];
      default:
        return [call('grep', { pattern: '^export |module\\.exports', path: big(k + 1) })];
    }
  };

  const quiet = (s: number): ReplyBlock[] => {
    const blocks: ReplyBlock[] = [];
    const kinds = s % 11 === 0 ? [s % 8, (s + 3) % 8] : [s % 8];
    for (const kind of kinds) {
      switch (kind) {
        case 0:
          blocks.push(read(small(s), { offset: 1, limit: 30 + (s % 40) }));
          break;
        case 1:
          blocks.push(
            call('grep', {
              pattern: ['require\\(', 'function \\w+', 'class \\w+', 'async '][s % 4]!,
              path: small(s)
            })
          );
          break;
        case 2:
          blocks.push(bash(`wc -l ${small(s)}`));
          break;
        case 3:
          blocks.push(bash(`node --check ${small(s)} && echo syntax-ok`));
          break;
        case 4:
          blocks.push(read(small(s + 1)));
          break;
        case 5:
          blocks.push(bash('git status --short'));
          break;
        case 6:
          blocks.push(
            call('glob', { pattern: ['**/*.d.ts', '**/utils/*.js', '**/type/*.js', '*/*.js'][s % 4]! })
          );
          break;
        default:
          blocks.push(read(big(s), { offset: 1 + (s % 5) * 40, limit: 60 }));
      }
    }
    return blocks;
  };

  const agentTurn = (request: ParsedRequest): ScriptedReply => {
    observe(request);
    const s = step;
    if (s === 0) {
      return reply(
        text('Mapping the repository first.'),
        call('glob', { pattern: '**/*.js' }),
        bash('git ls-files | xargs wc -c | sort -n')
      );
    }
    if (jsFiles().length === 0) {
      progress.finished = true;
      return reply(text('The glob found no JavaScript files; nothing to explore.'));
    }
    if (s >= last) {
      progress.finished = true;
      return reply(
        text(
          `Done after ${turns} turns: explored ${jsFiles().length} JavaScript files (${filesRead.size} read), ` +
            `edited ${progress.edited.length + 1} files, and recorded the findings in NOTES.md.`
        )
      );
    }
    let blocks = special(s);
    let why = 'planned step';
    if (blocks === undefined && queue.length > 0) {
      blocks = queue.shift()!();
      why = 'follow-up';
    }
    const sinceBurst = (s - 12) % burstEvery;
    if ((blocks === undefined || blocks.length === 0) && s >= 12 && sinceBurst < 5) {
      blocks = burst(sinceBurst, Math.floor((s - 12) / burstEvery));
      why = 'reading big files whole';
    }
    if (blocks === undefined || blocks.length === 0) {
      blocks = quiet(s);
      why = 'looking around';
    }
    return reply(text(`Step ${s} (${why}).`), ...blocks);
  };

  const summaryTurn = (request: ParsedRequest): ScriptedReply => {
    observe(request);
    const asked = /keep in detail what the agent asked to keep: (.*)$/m.exec(lastUserText(request))?.[1];
    progress.summaryFocuses.push(asked ?? null);
    const recentReads = [...filesRead].slice(-10);
    const sections = [
      '## Task and intent',
      'Explore the repository, read its code, check its syntax, and keep notes in NOTES.md.',
      '## Decisions',
      '- Read big files whole in bursts, and small files in windows between them.',
      '- Edit only the head of files (a review comment), and check the syntax after each edit.',
      '## Files and code',
      `- ${jsFiles().length} JavaScript files known; ${bigFiles().length} big: ${bigFiles().join(', ')}.`,
      `- Recently read: ${recentReads.join(', ') || 'none'}.`,
      `- Edited: scratch/probe.js${progress.edited.map((file) => `, ${file}`).join('')}.`,
      '## Errors and fixes',
      ...(errors.length > 0 ? errors.slice(-6).map((error) => `- ${error}`) : ['- none']),
      '## Current state',
      `Step ${step} of ${turns}; NOTES.md written; scratch/probe.js fixed and passing node --check.`,
      '## Pending work',
      '- Keep exploring the remaining files; re-check edited files; update NOTES.md at the end.',
      '## Next step',
      `Continue with step ${step}.`,
      ...(asked
        ? ['## Focus', `${asked}: ${progress.edited.join(', ') || 'no edits yet'}; ${errors.length} errors.`]
        : [])
    ];
    progress.summaryRequests++;
    if (options.summaryStyle === 'prose') {
      const prose = [
        `So far I have been exploring the repository and keeping notes in NOTES.md (step ${step} of ${turns}).`,
        `I know ${jsFiles().length} JavaScript files, ${bigFiles().length} of them big, and recently read`,
        `${recentReads.join(', ') || 'nothing yet'}. I edited scratch/probe.js${progress.edited.map((file) => `, ${file}`).join('')}`,
        `and checked each edit with node --check. Errors met: ${errors.slice(-3).join('; ') || 'none'}.`,
        asked ? `As asked, in detail: ${asked}: ${progress.edited.join(', ') || 'no edits yet'}.` : '',
        `I will carry on from step ${step}.`
      ];
      return reply(text(prose.filter((line) => line !== '').join(' ')));
    }
    return reply(text(sections.join('\n')));
  };

  const script: Script = (request) => {
    if (lastUserText(request).includes(COMPACTION_REQUEST_TAG)) return summaryTurn(request);
    const answer = agentTurn(request);
    step++;
    progress.agentTurns++;
    return answer;
  };
  return Object.assign(script, { progress });
}
