import { cpSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { mulberry32 } from '../test-support/seeded-random.js';

/** One tool call of the workload, as the scripted model will send it. */
export interface PlannedCall {
  readonly name: string;
  readonly input: Record<string, unknown>;
}

/** One agent turn: a line of reasoning and the calls it makes. */
export interface PlannedTurn {
  readonly text: string;
  readonly calls: readonly PlannedCall[];
  /** A decision the agent states in its text (also part of `text`): a fact it needs later. */
  readonly decision?: string;
}

/** A file of the seed, with its text (edits are planned against it). */
export interface SeedFile {
  readonly path: string;
  readonly text: string;
}

/** Packages whose sources make the code base the workload explores: real code nobody here wrote. */
const SEED_SOURCES: ReadonlyArray<{ readonly from: string; readonly to: string }> = [
  { from: 'node_modules/@anthropic-ai/sdk/src', to: 'sdk' },
  { from: 'node_modules/js-yaml/lib', to: 'js-yaml' },
  { from: 'node_modules/fast-glob/out', to: 'fast-glob' },
  { from: 'node_modules/@actions/core/lib', to: 'actions-core' }
];

const SOURCE_FILE = /\.(?:js|ts|mjs|json|md)$/;
const SKIPPED = /\.(?:d\.ts|d\.mts|map)$/;

/** Copies the seed packages' sources into a fresh folder; returns it (remove it after use). */
export function stageSeed(root = process.cwd()): string {
  const stage = mkdtempSync(path.join(tmpdir(), 'compact-agent-bench-seed-'));
  for (const source of SEED_SOURCES) {
    cpSync(path.join(root, source.from), path.join(stage, source.to), {
      recursive: true,
      filter: (file) => statSync(file).isDirectory() || (SOURCE_FILE.test(file) && !SKIPPED.test(file))
    });
  }
  return stage;
}

/** Every file of a staged seed, sorted by path, so the plan is the same on every machine. */
export function readSeed(stage: string): SeedFile[] {
  const files: SeedFile[] = [];
  const walk = (folder: string) => {
    for (const name of readdirSync(folder).sort()) {
      const absolute = path.join(folder, name);
      if (statSync(absolute).isDirectory()) walk(absolute);
      else files.push({ path: path.relative(stage, absolute), text: readFileSync(absolute, 'utf8') });
    }
  };
  walk(stage);
  return files;
}

const GREP_PATTERNS = [
  'export (async )?function \\w+',
  'class \\w+',
  'throw new \\w+Error',
  'await this\\._client',
  'import .* from',
  'TODO|FIXME',
  'options\\.\\w+',
  'Symbol\\.',
  'return new \\w+',
  'headers\\['
];

/** The same line of reasoning a model writes before its calls, varied so turns are not identical. */
function reasoning(turn: number, what: string): string {
  const openers = [
    'Next I will',
    'To understand how this part works, I will',
    'Following up on the last result, I will',
    'Before changing anything, I will',
    'To confirm my reading of the code, I will'
  ];
  return `${openers[turn % openers.length]} ${what}. (turn ${turn})`;
}

/** How often the agent states a decision in its text (a fact it needs later). */
const DECISION_EVERY = 15;

const DECISIONS = [
  (file: string) => `review ${file} before the modules that import it`,
  (file: string) => `leave the exports of ${file} exactly as they are`,
  (file: string) => `note retries and timeouts first when reviewing ${file}`,
  (file: string) => `skip generated code in ${file} and review only the hand-written parts`
];

/** A turn whose text also states a decision, e.g. "Decision D23: leave the exports of x.ts ...". */
function withDecision(turn: PlannedTurn, t: number, file: string): PlannedTurn {
  const decision = `Decision D${t}: ${DECISIONS[t % DECISIONS.length]!(file)}`;
  return { ...turn, text: `${turn.text} ${decision}.`, decision };
}

/**
 * The workload: a scripted agent session over the seed, planned in advance, so every strategy replays
 * the very same calls. The plan of turn t does not depend on how many turns the run has, so a shorter
 * run is a prefix of a longer one.
 *
 * The mix follows what agent sessions do: most turns read (whole files, windows), grep or run a short
 * command; a working set of files is revisited (which supersedes earlier reads); every ~25 turns a file
 * is edited after reading its head, then checked; every ~40 turns a scratch file is written broken, a
 * command fails on it, and it is fixed. Tool results are ~85% of the tokens, as measured elsewhere.
 */
/** The plan every published figure uses. */
export const WORKLOAD_RANDOM_SEED = 20261122;

export class WorkloadPlan {
  private readonly turns: PlannedTurn[] = [];
  private readonly next: () => number;
  private readonly files: readonly SeedFile[];
  private readonly js: readonly SeedFile[];
  private workingSet: SeedFile[] = [];
  private readonly edited = new Set<string>();
  /** Follow-up turns already decided (the edit after its read, the check after the edit). */
  private readonly queue: PlannedTurn[] = [];

  /** `randomSeed` picks another plan of the same mix (the bench's robustness runs); the default is the published one. */
  constructor(seed: readonly SeedFile[], randomSeed = WORKLOAD_RANDOM_SEED) {
    this.next = mulberry32(randomSeed);
    this.files = seed.filter((file) => /\.(?:js|ts)$/.test(file.path) && file.text.length > 200);
    this.js = this.files.filter((file) => file.path.endsWith('.js') && file.text.length < 40_000);
    if (this.files.length < 20 || this.js.length < 5) throw new Error('the seed has too few source files');
  }

  /** The plan of turn t (0-based). */
  turn(t: number): PlannedTurn {
    while (this.turns.length <= t) this.turns.push(this.plan(this.turns.length));
    return this.turns[t]!;
  }

  private plan(t: number): PlannedTurn {
    if (t === 0) {
      return {
        text: 'I will map the repository first: its files and their sizes.',
        calls: [
          { name: 'glob', input: { pattern: 'sdk/resources/**/*.ts' } },
          {
            name: 'bash',
            input: { command: 'git ls-files | wc -l && du -sh sdk js-yaml fast-glob actions-core' }
          }
        ]
      };
    }
    const queued = this.queue.shift();
    if (queued) return queued;
    if (t % 50 === 0 || this.workingSet.length === 0) this.refreshWorkingSet();
    if (t % 40 === 17) return this.brokenScratch(t);
    if (t % 25 === 12) return this.planEdit(t);
    const turn = this.explore(t);
    return t % DECISION_EVERY === 8 ? withDecision(turn, t, this.pick(this.workingSet).path) : turn;
  }

  private refreshWorkingSet(): void {
    const size = 6;
    this.workingSet = Array.from({ length: size }, () => this.pick(this.files));
  }

  private pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.next() * list.length)]!;
  }

  private explore(t: number): PlannedTurn {
    const roll = this.next();
    const file = roll < 0.45 ? this.pick(this.workingSet) : this.pick(this.files);
    const lines = file.text.split('\n').length;
    if (roll < 0.3) {
      return {
        text: reasoning(t, `read ${file.path} whole`),
        calls: [{ name: 'read_file', input: { path: file.path } }]
      };
    }
    if (roll < 0.48) {
      const offset = 1 + Math.floor(this.next() * Math.max(1, lines - 80));
      const limit = 40 + Math.floor(this.next() * 120);
      return {
        text: reasoning(t, `read lines ${offset}-${offset + limit} of ${file.path}`),
        calls: [{ name: 'read_file', input: { path: file.path, offset, limit } }]
      };
    }
    if (roll < 0.63) {
      const pattern = this.pick(GREP_PATTERNS);
      const folder = path.dirname(file.path);
      return {
        text: reasoning(t, `search ${folder} for /${pattern}/`),
        calls: [{ name: 'grep', input: { pattern, path: folder } }]
      };
    }
    if (roll < 0.7) {
      const folder = path.dirname(file.path);
      return {
        text: reasoning(t, `list the files under ${folder}`),
        calls: [{ name: 'glob', input: { pattern: `${folder}/**/*` } }]
      };
    }
    if (roll < 0.8) {
      return {
        text: reasoning(t, `look at the start of ${file.path} and count its lines`),
        calls: [{ name: 'bash', input: { command: `head -n 60 ${file.path} && wc -l ${file.path}` } }]
      };
    }
    if (roll < 0.88) {
      const js = this.pick(this.js);
      return {
        text: reasoning(t, `check the syntax of ${js.path}`),
        calls: [{ name: 'bash', input: { command: `node --check ${js.path} && echo syntax-ok` } }]
      };
    }
    if (roll < 0.94) {
      return {
        text: reasoning(t, 'see what changed so far'),
        calls: [
          { name: 'bash', input: { command: 'git status --short' } },
          { name: 'bash', input: { command: 'git diff --stat' } }
        ]
      };
    }
    // Two reads at once, as models do when they compare files.
    const other = this.pick(this.workingSet);
    return {
      text: reasoning(t, `compare ${file.path} with ${other.path}`),
      calls: [
        { name: 'read_file', input: { path: file.path } },
        { name: 'read_file', input: { path: other.path, offset: 1, limit: 120 } }
      ]
    };
  }

  /** Reads a file's head, then edits it next turn (quoting the lines read), then checks the result. */
  private planEdit(t: number): PlannedTurn {
    const candidates = this.js.filter(
      (file) => !this.edited.has(file.path) && file.text.split('\n').length > 3
    );
    const file = candidates[Math.floor(this.next() * candidates.length)];
    if (!file) return this.explore(t);
    this.edited.add(file.path);
    const head = file.text.split('\n').slice(0, 2).join('\n');
    this.queue.push(
      {
        text: reasoning(t + 1, `add a review note to ${file.path}`),
        calls: [
          {
            name: 'edit_file',
            input: {
              path: file.path,
              old_string: head,
              new_string: `${head}\n// Reviewed in the benchmark session (turn ${t + 1}).`
            }
          }
        ]
      },
      {
        text: reasoning(t + 2, `check ${file.path} still parses`),
        calls: [{ name: 'bash', input: { command: `node --check ${file.path} && git diff --stat` } }]
      }
    );
    return {
      text: reasoning(t, `read the head of ${file.path} before editing it`),
      calls: [{ name: 'read_file', input: { path: file.path, limit: 6 } }]
    };
  }

  /** Writes a broken scratch file; the check fails now, and passes after the fix two turns later. */
  private brokenScratch(t: number): PlannedTurn {
    const file = `scratch/probe-${t}.js`;
    this.queue.push(
      {
        text: reasoning(t + 1, `check ${file}`),
        calls: [{ name: 'bash', input: { command: `node --check ${file}` } }]
      },
      {
        text: reasoning(t + 2, `fix the syntax error in ${file}`),
        calls: [
          {
            name: 'edit_file',
            input: { path: file, old_string: '  ok: true,\n;', new_string: '  ok: true\n};' }
          }
        ]
      },
      {
        text: reasoning(t + 3, `check ${file} again`),
        calls: [{ name: 'bash', input: { command: `node --check ${file} && echo syntax-ok` } }]
      }
    );
    return {
      text: reasoning(t, `write a scratch probe ${file}`),
      calls: [
        {
          name: 'write_file',
          input: { path: file, content: `const probe = {\n  ok: true,\n;\nexport default probe;\n` }
        }
      ]
    };
  }
}
