import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { rmSync } from 'node:fs';
import { resolveModelSpec } from '../../src/config/models.js';
import { parseBenchArgs } from '../../bench/args.js';
import { costFloor, figuresOf, percentile, refetchCost, retentionOf } from '../../bench/figures.js';
import { contextChartSvg, renderTable } from '../../bench/report.js';
import type { RequestRecord, RunRecord } from '../../bench/run-strategy.js';
import {
  REFERENCE,
  referenceEstimate,
  referenceMicroCompact,
  withStableBreakpoint
} from '../../bench/strategies/reference.js';
import { readSeed, stageSeed, WORKLOAD_RANDOM_SEED, WorkloadPlan } from '../../bench/workload.js';
import { sweepChartSvg } from '../../bench/sweep-chart.js';
import { settingsOfRow } from '../../bench/sweep.js';

const prices = resolveModelSpec('claude-sonnet-4-5').prices; // $3 in, $3.75 write, $0.30 read, $15 out

function agent(fields: Partial<RequestRecord>): RequestRecord {
  return {
    kind: 'agent',
    promptTokens: 0,
    input: 0,
    cacheWrite: 0,
    cacheRead: 0,
    output: 0,
    afterCompaction: false,
    estimate: undefined,
    newTokens: 0,
    refetch: false,
    ...fields
  };
}

function runOf(requests: RequestRecord[], extra: Partial<RunRecord> = {}): RunRecord {
  return {
    strategy: 'default',
    model: 'claude-sonnet-5-5',
    turns: requests.length,
    agentTurns: requests.filter((r) => r.kind === 'agent').length,
    stopReason: 'success',
    requests,
    overflows: 0,
    firstOverflowTurn: undefined,
    compactions: [],
    probes: [],
    needs: [],
    thinkingShares: [],
    thinkingStrippedBlocks: 0,
    thinkingStrippedTokens: 0,
    serverEvents: {},
    ...extra
  };
}

describe('figures, against hand-worked numbers', () => {
  // Turn 1 writes a 10,000-token prefix; turn 2 reads it and writes 2,000 new; a summary reads 12,000
  // and writes 500 of output; turn 3 comes right after that compaction and writes 3,000 anew.
  const requests = [
    agent({ promptTokens: 10_000, cacheWrite: 10_000, output: 100, newTokens: 10_000, estimate: 9_000 }),
    agent({
      promptTokens: 12_000,
      cacheRead: 10_000,
      cacheWrite: 2_000,
      output: 100,
      newTokens: 2_100,
      estimate: 12_600
    }),
    { ...agent({ promptTokens: 12_000, cacheRead: 12_000, output: 500 }), kind: 'summary' as const },
    agent({ promptTokens: 3_000, cacheWrite: 3_000, output: 100, afterCompaction: true, newTokens: 800 })
  ];
  const run = runOf(requests);

  it('bills each token class at its price, and the summary share of it', () => {
    const figures = figuresOf(run, prices, 0.1);
    // writes 15,000 × 3.75 + reads 22,000 × 0.30 + output 800 × 15, per million
    const usd = (15_000 * 3.75 + 22_000 * 0.3 + 800 * 15) / 1e6;
    expect(figures.usd).toBeCloseTo(usd, 10);
    expect(figures.summary_share).toBeCloseTo((12_000 * 0.3 + 500 * 15) / 1e6 / usd, 10);
    expect(figures.floor_ratio).toBeCloseTo(usd / 0.1, 10);
    expect(figures.peak_context).toBe(12_000);
    expect(figures.tokens).toEqual({ input: 0, cache_write: 15_000, cache_read: 22_000, output: 800 });
  });

  it('counts the cache-read share on agent turns no compaction had just changed', () => {
    // Turns 1 and 2 only: 10,000 read of 22,000 sent.
    expect(figuresOf(run, prices, 1).cache_read_share).toBeCloseTo(10_000 / 22_000, 10);
  });

  it('averages the estimator error over the requests that had an estimate', () => {
    // |9,000 - 10,000| / 10,000 = 10%, |12,600 - 12,000| / 12,000 = 5%
    expect(figuresOf(run, prices, 1).estimator_error).toBeCloseTo(0.075, 10);
    expect(figuresOf(runOf([agent({ promptTokens: 5 })]), prices, 1).estimator_error).toBeNull();
  });

  it('prices the floor as every new token written once plus the outputs', () => {
    // (10,000 + 2,100 + 800) × 3.75 + (100 + 100 + 100) × 15, per million; the summary is not part of it.
    expect(costFloor(run, prices)).toBeCloseTo((12_900 * 3.75 + 300 * 15) / 1e6, 10);
  });

  it('probes retention only after compactions, and needs all three facts', () => {
    const event = {
      layer: 'micro' as const,
      reason: '',
      tokens_before: 0,
      tokens_after: 0,
      results_cleared: 1,
      summary_tokens: 0,
      summary_cost_usd: 0,
      duration_ms: 0,
      segment_path: null,
      focus: null
    };
    const probe = {
      task: true,
      filesChanged: 2,
      filesFound: 2,
      latestFailure: 'node --check x.js',
      failureFound: true
    };
    const retention = retentionOf(
      runOf([], {
        compactions: [
          { ...event, turn: 3 },
          { ...event, turn: 5 }
        ],
        probes: [
          { ...probe, turn: 2, task: false }, // not after a compaction: not counted
          { ...probe, turn: 3 },
          { ...probe, turn: 5, filesFound: 1 }
        ]
      })
    );
    expect(retention).toEqual({ share: 0.5, detail: { probed: 2, task: 2, files: 1, failure: 2 } });
  });

  it('takes percentiles by rank', () => {
    expect(percentile([5, 1, 4, 2, 3], 50)).toBe(3);
    expect(
      percentile(
        [...Array(100).keys()].map((n) => n + 1),
        95
      )
    ).toBe(95);
  });
});

describe('the reference design, as the seed writes it', () => {
  const exchange = (id: string, name: string, result: string): MessageParam[] => [
    { role: 'assistant', content: [{ type: 'tool_use', id, name, input: {} }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: result }] }
  ];
  const long = 'x'.repeat(REFERENCE.minClearedChars + 1);
  const history: MessageParam[] = [
    { role: 'user', content: 'task' },
    ...exchange('a', 'read_file', long),
    ...exchange('b', 'bash', 'short'),
    ...exchange('c', 'grep', long),
    ...exchange('d', 'bash', long),
    ...exchange('e', 'read_file', long),
    ...exchange('f', 'glob', long)
  ];

  it('replaces every result but the last 3 that is over 100 characters, every turn', () => {
    const { history: next, cleared } = referenceMicroCompact(history);
    expect(cleared).toEqual(['a', 'c']); // 'b' is short; d, e, f are the last 3
    expect(JSON.stringify(next[2])).toContain('[Previous: used read_file]');
    expect(JSON.stringify(next[6])).toContain('[Previous: used grep]');
    expect(next[8]).toBe(history[8]);
    expect(JSON.stringify(history[2])).toContain(long); // the input is not changed
    expect(referenceMicroCompact(next).cleared).toEqual([]);
  });

  it('is cached at its best: a breakpoint on the last user message before the 3 results it keeps', () => {
    const request = { model: 'm', maxTokens: 10, system: [], tools: [], messages: history };
    const marked = withStableBreakpoint(request).messages;
    // Results sit in messages 2, 4, 6, 8, 10, 12; the kept ones are 8, 10, 12; the prefix ends at 6.
    const withBreakpoints = marked.flatMap((message, index) =>
      JSON.stringify(message).includes('cache_control') ? [index] : []
    );
    expect(withBreakpoints).toEqual([6]);
    expect(history[6]).not.toHaveProperty('content.0.cache_control'); // the history itself is not changed
    // Too few results for a stable prefix: nothing to mark.
    const short = { ...request, messages: history.slice(0, 5) };
    expect(withStableBreakpoint(short)).toBe(short);
  });

  it('estimates tokens as the characters of the messages over 4', () => {
    expect(referenceEstimate(history)).toBe(Math.floor(JSON.stringify(history).length / 4));
  });
});

describe('the workload', () => {
  let stage: string;
  beforeAll(() => {
    stage = stageSeed();
  });
  afterAll(() => rmSync(stage, { recursive: true, force: true }));

  it('is real code from node_modules, and the same plan every time, whatever the run length', () => {
    const seed = readSeed(stage);
    expect(seed.length).toBeGreaterThan(200);
    expect(seed.some((file) => file.path.startsWith('sdk/') && file.text.includes('Anthropic'))).toBe(true);
    const a = new WorkloadPlan(seed);
    const b = new WorkloadPlan(seed);
    const first = Array.from({ length: 300 }, (_, t) => a.turn(t));
    expect(Array.from({ length: 300 }, (_, t) => b.turn(t))).toEqual(first);
    expect(a.turn(120)).toBe(first[120]);
    // Another plan of the same mix (bench/plans.ts): the published one is the default seed.
    const published = new WorkloadPlan(seed, WORKLOAD_RANDOM_SEED);
    expect(Array.from({ length: 300 }, (_, t) => published.turn(t))).toEqual(first);
    const other = new WorkloadPlan(seed, 2);
    const otherTurns = Array.from({ length: 300 }, (_, t) => other.turn(t));
    expect(otherTurns).not.toEqual(first);
    expect(
      otherTurns.flatMap((turn) => turn.calls).filter((call) => call.name === 'read_file').length
    ).toBeGreaterThan(80);
    const calls = first.flatMap((turn) => turn.calls);
    const count = (name: string) => calls.filter((call) => call.name === name).length;
    expect(count('read_file')).toBeGreaterThan(80);
    expect(count('grep')).toBeGreaterThan(20);
    expect(count('bash')).toBeGreaterThan(40);
    expect(count('edit_file')).toBeGreaterThanOrEqual(10);
    // Every edit quotes text that is in the file it edits.
    for (const call of calls.filter(
      (c) => c.name === 'edit_file' && !String(c.input.path).startsWith('scratch/')
    )) {
      const file = seed.find((f) => f.path === call.input.path)!;
      expect(file.text).toContain(String(call.input.old_string));
    }
  });
});

describe('npm run bench arguments and output', () => {
  it('takes sizes and strategies, and refuses what it does not know', () => {
    expect(parseBenchArgs(['--json', '--sizes', '30,60', '--strategies', 'default,reference'])).toEqual({
      json: true,
      sizes: [30, 60],
      strategies: ['default', 'reference'],
      chart: undefined
    });
    expect(parseBenchArgs([]).sizes).toEqual([100, 300, 1000]);
    expect(() => parseBenchArgs(['--sizes', '100,abc'])).toThrow(/--sizes takes whole numbers/);
    expect(() => parseBenchArgs(['--strategies', 'default,magic'])).toThrow(
      /unknown strategies magic; known: none, reference/
    );
  });

  it('draws one line per strategy, escaped, scaled to the largest context', () => {
    const svg = contextChartSvg(
      [
        { name: 'none', points: [1000, 90_000, 180_000] },
        { name: 'a<b', points: [1000, 20_000, 30_000] }
      ],
      'Context & turns'
    );
    expect(svg.match(/<polyline/g)).toHaveLength(2);
    expect(svg).toContain('Context &amp; turns');
    expect(svg).toContain('a&lt;b');
    expect(svg).toContain('>200k<'); // the axis tops out at the next 50k above 180k
  });

  it('prints a row per strategy and size, with the overflow turn of a strategy that overflowed', () => {
    const figures = figuresOf(
      runOf([agent({ promptTokens: 10, cacheWrite: 10 })], { firstOverflowTurn: 7 }),
      prices,
      1
    );
    const table = renderTable({ none: { '100': figures } });
    expect(table.split('\n')).toHaveLength(3);
    expect(table).toContain('100 (overflow at 7)');
  });
});

describe('the cost of re-fetch turns', () => {
  it('charges a re-fetch turn its reads, its own new tokens and its output, not a rewrite a compaction caused', () => {
    const records = [
      agent({ promptTokens: 10_000, cacheWrite: 10_000, newTokens: 10_000 }),
      // A compaction just before it rewrote 8,000 tokens; 500 of them are the turn's own.
      agent({
        promptTokens: 12_000,
        cacheRead: 4_000,
        cacheWrite: 8_000,
        output: 40,
        newTokens: 500,
        refetch: true
      })
    ];
    expect(refetchCost(records, prices)).toBeCloseTo((500 * 3.75 + 11_500 * 0.3 + 40 * 15) / 1e6, 10);
    const figures = figuresOf(runOf(records), prices, 1);
    expect(figures.extra_turns).toBe(1);
    expect(figures.reread_share).toBeCloseTo(refetchCost(records, prices) / figures.usd, 10);
  });
});

describe('the sweep chart', () => {
  it('draws each series in both panels, hollow where needs were lost, on a log threshold axis', () => {
    const svg = sweepChartSvg(
      [
        {
          name: 'a',
          points: [
            { threshold: 30_000, costRatio: 0.7, rereadShare: 0.01, lostNeeds: 4 },
            { threshold: 300_000, costRatio: 1.5, rereadShare: 0.005, lostNeeds: 0 }
          ]
        },
        { name: 'b<c', points: [{ threshold: 100_000, costRatio: 1, rereadShare: 0.02, lostNeeds: 0 }] }
      ],
      'Sweep'
    );
    expect(svg.match(/<polyline/g)).toHaveLength(4);
    expect(svg.match(/fill="white" stroke=/g)).toHaveLength(2); // the lost point, in each panel
    expect(svg).toContain('>4 lost<');
    expect(svg).toContain('b&lt;c');
    // Log axis: the gaps between ticks are in the ratio of the logs of the thresholds' ratios.
    const xOf = (label: string) =>
      Number(new RegExp(`x="([\\d.]+)" y="\\d+" text-anchor="middle">${label}<`).exec(svg)![1]);
    const ratio = (xOf('100k') - xOf('30k')) / (xOf('300k') - xOf('100k'));
    expect(ratio).toBeCloseTo(Math.log(100 / 30) / Math.log(3), 2);
  });
});

describe("the sweep's rows name the settings each run used", () => {
  const sonnet = resolveModelSpec('claude-sonnet-5-5');
  const haiku = resolveModelSpec('claude-haiku-4-5');

  it('gives the default baseline the rule for its model, as production derives it', () => {
    // Sonnet 5.5: cache reads 0.05x, so 15,000 × √2 rounded down to 5,000; Haiku 4.5: six times its
    // 4,096-token cache minimum rounded up to 5,000. The floor is 3/10 of the threshold.
    expect(settingsOfRow('default', null, 'default', sonnet)).toEqual({
      threshold: 20_000,
      microFloor: 6_000
    });
    expect(settingsOfRow('default', null, 'default', haiku)).toEqual({
      threshold: 25_000,
      microFloor: 7_500
    });
  });

  it('gives a threshold point its floor: 3/10 as shipped, or half with --micro half', () => {
    expect(settingsOfRow('t30k', 30_000, 'default', sonnet)).toEqual({
      threshold: 30_000,
      microFloor: 9_000
    });
    expect(settingsOfRow('t30k', 30_000, 'half', sonnet)).toEqual({ threshold: 30_000, microFloor: 15_000 });
  });

  it('gives the reference and `none` no threshold of ours', () => {
    expect(settingsOfRow('reference', null, 'default', sonnet)).toEqual({
      threshold: null,
      microFloor: null
    });
    expect(settingsOfRow('none', null, 'half', haiku)).toEqual({ threshold: null, microFloor: null });
  });
});
