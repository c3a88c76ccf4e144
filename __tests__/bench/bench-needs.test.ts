import { rmSync } from 'node:fs';
import { resolveModelSpec } from '../../src/config/models.js';
import { figuresOf } from '../../bench/figures.js';
import { FACT_KINDS, holdsFact, NeedSchedule, type Need } from '../../bench/needs.js';
import { runStrategy, type RunRecord } from '../../bench/run-strategy.js';
import { STRATEGIES } from '../../bench/strategies/index.js';
import { readSeed, stageSeed, WorkloadPlan, type SeedFile } from '../../bench/workload.js';
import { TokenCounter } from '../../test-support/fake-anthropic/index.js';

const prices = resolveModelSpec('claude-sonnet-5-5').prices;
const strategy = (name: string) => STRATEGIES.find((candidate) => candidate.name === name)!;

let stage: string;
let seed: SeedFile[];
beforeAll(() => {
  stage = stageSeed();
  seed = readSeed(stage);
});
afterAll(() => rmSync(stage, { recursive: true, force: true }));

describe('the need schedule', () => {
  it('needs facts of every kind, from 10 to hundreds of turns back, at least once per 20 turns', () => {
    const schedule = new NeedSchedule(new WorkloadPlan(seed), seed);
    const needs: Need[] = [];
    for (let t = 0; t < 1000; t++) needs.push(...schedule.needsAt(t));
    for (let window = 10; window + 20 <= 1000; window += 20)
      expect(needs.some((need) => need.turn >= window && need.turn < window + 20)).toBe(true);
    expect(new Set(needs.map((need) => need.fact.kind))).toEqual(new Set(FACT_KINDS));
    const ages = needs.map((need) => need.turn - need.fact.turn);
    expect(Math.min(...ages)).toBeGreaterThanOrEqual(10);
    expect(ages.filter((age) => age >= 200).length).toBeGreaterThan(10);
    // Only what a tool can fetch again has a re-fetch call; task lines, decisions and fixed failures do not.
    for (const need of needs)
      expect(need.fact.refetch !== undefined).toBe(['file', 'command'].includes(need.fact.kind));
  });

  it('finds a fact only when its exact text is in the context, escaped as JSON', () => {
    const fact = { kind: 'file' as const, turn: 1, text: '    12\tconst a = "b";', refetch: undefined };
    expect(holdsFact(JSON.stringify([{ content: 'x\n    12\tconst a = "b";\ny' }]), fact)).toBe(true);
    expect(holdsFact(JSON.stringify([{ content: '    13\tconst a = "b";' }]), fact)).toBe(false);
  });
});

describe('the need model bites: forgetting costs re-reads, keeping everything costs none', () => {
  const TURNS = 80;
  const runs = new Map<string, RunRecord>();
  beforeAll(async () => {
    const plan = new WorkloadPlan(seed);
    const tokenCounter = new TokenCounter();
    for (const name of ['none', 'reference'])
      runs.set(
        name,
        await runStrategy({
          strategy: strategy(name),
          turns: TURNS,
          seedDir: stage,
          plan,
          seed,
          tokenCounter
        })
      );
  }, 120_000);

  it('keeping everything (none, within its 1M window) meets every need from its context', () => {
    const figures = figuresOf(runs.get('none')!, prices, 1);
    expect(figures.needs).toBeGreaterThanOrEqual(TURNS / 20);
    expect(figures.extra_turns).toBe(0);
    expect(figures.reread_share).toBe(0);
    expect(figures.lost_needs).toBe(0);
    expect(figures.overflows).toBe(0);
  });

  it('the reference (keeps 3 results) re-reads what it cleared, one extra turn each, billed in usd', () => {
    const run = runs.get('reference')!;
    const figures = figuresOf(run, prices, 1);
    expect(figures.extra_turns).toBeGreaterThan(0);
    expect(figures.reread_share).toBeGreaterThan(0);
    expect(figures.needs_by_kind.file.refetched + figures.needs_by_kind.command.refetched).toBe(
      figures.extra_turns
    );
    // The planned turns all ran, and each re-fetch was one more request.
    expect(run.agentTurns).toBe(TURNS);
    expect(run.requests.filter((record) => record.kind === 'agent')).toHaveLength(
      TURNS + figures.extra_turns
    );
  });
});
