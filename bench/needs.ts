import type { PlannedCall, SeedFile, WorkloadPlan } from './workload.js';

/**
 * What the scripted agent may need again later:
 * - file: a line of a file it read (re-fetchable: read the lines around it again);
 * - command: the output of a command whose state persists (re-fetchable: run it again);
 * - failure: the output of a failed check on a scratch file that was fixed since (the state is gone);
 * - instruction: a constraint of the user's task (it only lives in the conversation);
 * - decision: a decision the agent stated in its own text (it only lives in the conversation).
 */
export type FactKind = 'file' | 'command' | 'failure' | 'instruction' | 'decision';

export const FACT_KINDS: readonly FactKind[] = ['file', 'command', 'failure', 'instruction', 'decision'];

export interface Fact {
  readonly kind: FactKind;
  /** The agent turn whose request first holds it (0 for the task). */
  readonly turn: number;
  /** The exact text that must be in the context (compared JSON-escaped, as the probe does). */
  readonly text: string;
  /** The call that brings it back, when it can be brought back. */
  readonly refetch: PlannedCall | undefined;
}

export interface Need {
  /** The agent turn that needs the fact. */
  readonly turn: number;
  readonly fact: Fact;
}

/** The constraints of the benchmark task: each is an instruction fact the agent needs later. */
export const TASK_CONSTRAINTS: readonly string[] = [
  'Keep the public API of every module unchanged.',
  'Use 2-space indentation in anything you write.',
  'Start every review note with the words "Reviewed in the benchmark session".',
  'Put every scratch probe under scratch/ and keep it passing `node --check`.',
  'Do not touch package.json or any lock file.'
];

/** One need every NEED_EVERY turns; kinds and ages cycle with co-prime lengths so every pair occurs. */
const NEED_EVERY = 10;
/** Target ages in turns: from 10 to several hundred turns back. */
const NEED_AGES: readonly number[] = [10, 30, 60, 120, 250, 400];
const MIN_AGE = 10;

/**
 * The facts of the workload and the turns that need them, derived from the plan (so every strategy
 * meets the same needs at the same turns). Lazy, like the plan: asking for turn t plans up to it.
 */
export class NeedSchedule {
  private readonly facts: Fact[] = [];
  private plannedUpTo = 0;
  private readonly texts: ReadonlyMap<string, string>;

  constructor(
    private readonly plan: WorkloadPlan,
    seed: readonly SeedFile[]
  ) {
    this.texts = new Map(seed.map((file) => [file.path, file.text]));
    for (const constraint of TASK_CONSTRAINTS)
      this.facts.push({ kind: 'instruction', turn: 0, text: constraint, refetch: undefined });
  }

  /** The needs due at agent turn t (at most one). */
  needsAt(t: number): Need[] {
    if (t < MIN_AGE || t % NEED_EVERY !== 5) return [];
    this.planFactsUpTo(t - MIN_AGE);
    const index = Math.floor(t / NEED_EVERY);
    const targetAge = NEED_AGES[index % NEED_AGES.length]!;
    for (let offset = 0; offset < FACT_KINDS.length; offset++) {
      const kind = FACT_KINDS[(index + offset) % FACT_KINDS.length]!;
      const fact = this.factFor(kind, t, targetAge);
      if (fact) return [{ turn: t, fact }];
    }
    return [];
  }

  /** The latest fact of a kind at least `age` turns old, or else the oldest one at least 10 turns old. */
  private factFor(kind: FactKind, t: number, age: number): Fact | undefined {
    const eligible = this.facts.filter((fact) => fact.kind === kind && fact.turn <= t - MIN_AGE);
    const oldEnough = eligible.filter((fact) => fact.turn <= t - age);
    return oldEnough.at(-1) ?? eligible[0];
  }

  private planFactsUpTo(last: number): void {
    for (; this.plannedUpTo <= last; this.plannedUpTo++) {
      const t = this.plannedUpTo;
      const planned = this.plan.turn(t);
      // The results of turn t's calls are in the request of turn t + 1.
      for (const call of planned.calls) {
        const fact = this.factOfCall(call, t + 1);
        if (fact) this.facts.push(fact);
      }
      if (planned.decision)
        this.facts.push({ kind: 'decision', turn: t, text: planned.decision, refetch: undefined });
    }
  }

  private factOfCall(call: PlannedCall, turn: number): Fact | undefined {
    const input = call.input;
    if (call.name === 'read_file' && typeof input.path === 'string') return this.fileFact(input, turn);
    if (call.name !== 'bash' || typeof input.command !== 'string') return undefined;
    const scratch = /^node --check (scratch\/probe-\d+\.js)$/.exec(input.command);
    // The first check of a scratch probe fails at line 3; the probe is fixed on the next turn.
    if (scratch) return { kind: 'failure', turn, text: `${scratch[1]}:3`, refetch: undefined };
    const counted = /^head -n 60 (\S+\.ts) && wc -l \1$/.exec(input.command);
    const text = counted ? this.texts.get(counted[1]!) : undefined;
    if (!counted || text === undefined) return undefined;
    const lineCount = text.split('\n').length - 1;
    return {
      kind: 'command',
      turn,
      text: `${lineCount} ${counted[1]}`,
      refetch: { name: 'bash', input: { command: `wc -l ${counted[1]}` } }
    };
  }

  /**
   * A distinctive line of what read_file returned (as it numbers it). Only .ts files: the workload
   * never edits them, so the line keeps its number when it is read again.
   */
  private fileFact(input: Record<string, unknown>, turn: number): Fact | undefined {
    const file = String(input.path);
    const text = this.texts.get(file);
    if (!file.endsWith('.ts') || text === undefined) return undefined;
    const lines = text.split(/\r?\n/);
    const first = typeof input.offset === 'number' ? input.offset : 1;
    const limit = typeof input.limit === 'number' ? input.limit : 2000;
    const counts = new Map<string, number>();
    for (const line of lines) counts.set(line, (counts.get(line) ?? 0) + 1);
    const candidates: number[] = [];
    for (let n = first; n < Math.min(first + limit, lines.length + 1); n++) {
      const line = lines[n - 1]!;
      if (line.trim().length >= 25 && line.length <= 160 && counts.get(line) === 1) candidates.push(n);
    }
    const n = candidates[Math.floor(candidates.length / 2)];
    if (n === undefined) return undefined;
    return {
      kind: 'file',
      turn,
      text: `${String(n).padStart(6)}\t${lines[n - 1]!}`,
      refetch: { name: 'read_file', input: { path: file, offset: Math.max(1, n - 20), limit: 40 } }
    };
  }
}

/** Whether a fact is in a serialized context (JSON of the system prompt and the messages). */
export function holdsFact(context: string, fact: Fact): boolean {
  return context.includes(JSON.stringify(fact.text).slice(1, -1));
}

export type NeedOutcome = 'present' | 'refetched' | 'lost';

export interface NeedRecord {
  readonly turn: number;
  readonly kind: FactKind;
  /** Turns since the fact first appeared. */
  readonly age: number;
  readonly outcome: NeedOutcome;
}
