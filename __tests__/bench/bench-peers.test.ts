import { rmSync } from 'node:fs';
import { noCompaction } from '../../src/compaction/compactor.js';
import { resolveModelSpec } from '../../src/config/models.js';
import { figuresOf } from '../../bench/figures.js';
import { runStrategy, type RunRecord } from '../../bench/run-strategy.js';
import { ClearToolUses, PLACEHOLDER } from '../../bench/server-side/clear-tool-uses.js';
import { OnDemandCompaction } from '../../bench/server-side/on-demand-compaction.js';
import { serverSide, type ServerTools } from '../../bench/server-side/server-side.js';
import { ThresholdCompaction } from '../../bench/server-side/threshold-compaction.js';
import { STRATEGIES, type Strategy } from '../../bench/strategies/index.js';
import { meanShare, thinkingKeptShare, thinkingTagsIn, thinkingText } from '../../bench/thinking.js';
import { readSeed, stageSeed, WorkloadPlan } from '../../bench/workload.js';
import {
  TokenCounter,
  type ContentBlockParam,
  type MessageParam,
  type ParsedRequest
} from '../../test-support/fake-anthropic/index.js';

/** Tokens as characters: small numbers worked by hand. */
const tools = (summary = 'SUMMARY'): ServerTools & { summarized: ParsedRequest[] } => {
  const summarized: ParsedRequest[] = [];
  const countText = (text: string) => text.length;
  return {
    summarized,
    countText,
    count: (request) =>
      request.messages.reduce(
        (sum, message) =>
          sum +
          (typeof message.content === 'string'
            ? message.content.length
            : message.content.reduce((inner, block) => inner + JSON.stringify(block).length, 0)),
        0
      ),
    summarize: (request) => {
      summarized.push(request);
      return summary;
    }
  };
};

const request = (messages: MessageParam[]): ParsedRequest => ({
  endpoint: 'messages',
  model: 'claude-sonnet-5-5',
  stream: true,
  messages,
  raw: {}
});

/** A conversation of `turns` tool turns, each with a thinking block and a result of `size` characters. */
function conversation(turns: number, size = 500): MessageParam[] {
  const messages: MessageParam[] = [{ role: 'user', content: [{ type: 'text', text: 'the task' }] }];
  for (let turn = 0; turn < turns; turn++) {
    messages.push({
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: thinkingText(turn, []), signature: `sig${turn}` },
        { type: 'tool_use', id: `toolu_${turn}`, name: 'read_file', input: { path: `f${turn}.ts` } }
      ]
    });
    messages.push({
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: `toolu_${turn}`, content: `r${turn} `.padEnd(size, 'x') }]
    });
  }
  return messages;
}

const resultTexts = (messages: readonly MessageParam[]) =>
  messages.flatMap((message) =>
    typeof message.content === 'string'
      ? []
      : message.content.flatMap((block: ContentBlockParam) =>
          block.type === 'tool_result' ? [typeof block.content === 'string' ? block.content : ''] : []
        )
  );

describe('the thinking figure', () => {
  it('counts, from the 11th request on, the share of the last 10 turns of thinking still carried', () => {
    expect(thinkingKeptShare(9, new Set([0, 1, 2]))).toBeUndefined();
    expect(thinkingKeptShare(10, new Set([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]))).toBe(1);
    // Request 12 looks at turns 2..11: 5 of them carried (0 and 1 are too old to count).
    expect(thinkingKeptShare(12, new Set([0, 1, 2, 3, 9, 10, 11]))).toBe(0.5);
    expect(meanShare([1, 0.5])).toBe(0.75);
    expect(meanShare([])).toBe(1);
  });

  it('reads the tags of the thinking blocks of assistant messages only', () => {
    const messages: MessageParam[] = [
      ...conversation(2),
      { role: 'user', content: [{ type: 'text', text: thinkingText(7, []) }] }
    ];
    expect([...thinkingTagsIn(messages)]).toEqual([0, 1]);
  });
});

describe('clear_tool_uses on the server (defaults: trigger 100k, keep 3)', () => {
  it('clears nothing under the trigger', () => {
    const edit = new ClearToolUses();
    const sent = request(conversation(10));
    expect(edit.apply(sent, tools()).request).toBe(sent);
  });

  it('past the trigger clears every result but the kept tool uses, and keeps every thinking block', () => {
    const edit = new ClearToolUses({ triggerTokens: 3_000, keepToolUses: 3 });
    const view = edit.apply(request(conversation(10)), tools());
    const texts = resultTexts(view.request.messages);
    expect(texts.slice(0, 7)).toEqual(Array(7).fill(PLACEHOLDER));
    expect(texts.slice(7).every((text) => text.length === 500)).toBe(true);
    expect(thinkingTagsIn(view.request.messages).size).toBe(10);
    expect(view.events).toEqual(['server_clear']);
  });

  it('keeps its clears on later requests and clears again only past the trigger (a stable prefix)', () => {
    const edit = new ClearToolUses({ triggerTokens: 8_000, keepToolUses: 3 });
    const helper = tools();
    expect(helper.count(request(conversation(10)))).toBeGreaterThan(8_000);
    expect(edit.apply(request(conversation(10)), helper).events).toEqual(['server_clear']);
    const next = edit.apply(request(conversation(11)), helper);
    expect(helper.count(next.request)).toBeLessThan(8_000);
    // 11 turns: the 7 cleared before stay cleared; the 4th newest is not cleared until the trigger.
    expect(resultTexts(next.request.messages).filter((text) => text === PLACEHOLDER)).toHaveLength(7);
    expect(next.events).toEqual([]);
  });

  it('with clear_at_least, clears only when that much can go', () => {
    const edit = new ClearToolUses({ triggerTokens: 3_000, keepToolUses: 3, clearAtLeastTokens: 10_000 });
    const view = edit.apply(request(conversation(10)), tools());
    expect(resultTexts(view.request.messages)).not.toContain(PLACEHOLDER);
  });
});

describe('compact_20260112 on the server (trigger 150k by default, at least 50k)', () => {
  it('refuses a trigger under the documented minimum', () => {
    expect(() => new ThresholdCompaction({ triggerTokens: 10_000 })).toThrow(/at least 50000 input tokens/);
  });

  it('at the trigger, summarizes the whole request in an extra step and continues from the summary alone', () => {
    const edit = new ThresholdCompaction({ triggerTokens: 50_000 });
    const helper = tools('the summary');
    const small = request(conversation(20));
    expect(edit.apply(small, helper).request).toBe(small);
    const big = request(conversation(120));
    const view = edit.apply(big, helper);
    expect(view.iterations).toEqual([{ prompt: big, summary: 'the summary' }]);
    expect(view.request.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'the summary' }] }
    ]);
    // Next request: the client appended the response and its results; everything before is dropped.
    const later = conversation(121);
    const next = edit.apply(request(later), helper);
    expect(next.request.messages.slice(1)).toEqual(later.slice(big.messages.length));
    expect(next.iterations).toEqual([]);
  });
});

describe('on-demand compaction for our engine (simulated)', () => {
  it('keeps the latest turn after the block, thinking included, and our task and ledger after its results', () => {
    const edit = new OnDemandCompaction({ thresholdTokens: 5_000 });
    const sent = request(conversation(12));
    const view = edit.apply(sent, tools('the summary'), sent);
    const [block, kept, results] = view.request.messages;
    expect(view.request.messages).toHaveLength(3);
    expect(block).toEqual({ role: 'user', content: [{ type: 'text', text: 'the summary' }] });
    expect(kept).toBe(sent.messages.at(-2));
    expect([...thinkingTagsIn(view.request.messages)]).toEqual([11]);
    const texts = (results!.content as ContentBlockParam[]).flatMap((b) =>
      b.type === 'text' ? [b.text] : []
    );
    expect(texts[0]).toBe('the task');
    expect(texts[1]).toMatch(/^<work-ledger>/);
  });
});

describe('on-demand compaction after server-side clearing', () => {
  it('summarizes the history as the client holds it: the compaction request carries no context_management', () => {
    const helper = tools('the summary');
    const side = serverSide(
      new ClearToolUses({ triggerTokens: 3_000, keepToolUses: 2 }),
      new OnDemandCompaction({ thresholdTokens: 2_000 })
    );
    const sent = request(conversation(12));
    const view = side.view(sent, helper);
    expect(view.events).toEqual(['server_clear', 'server_compact']);
    // Uncleared, and without the kept turn: the prefix the previous request sent.
    const previous = request(sent.messages.slice(0, -2));
    expect(helper.summarized).toEqual([previous]);
    expect(view.iterations[0]!.prompt).toEqual(previous);
    // What the model reads next is the cleared, compacted view.
    expect(resultTexts(view.request.messages)).toEqual([resultTexts(sent.messages).at(-1)]);
  });
});

describe('on-demand compaction keeping more turns', () => {
  it('keeps the last N assistant turns unchanged, thinking included', () => {
    const edit = new OnDemandCompaction({ thresholdTokens: 5_000, keepTurns: 4 });
    const sent = request(conversation(12));
    const view = edit.apply(sent, tools('the summary'), sent);
    expect(view.request.messages.slice(1, -1)).toEqual(sent.messages.slice(-8, -1));
    expect([...thinkingTagsIn(view.request.messages)]).toEqual([8, 9, 10, 11]);
  });
});

describe('server-side strategies in a real run (the SDK against the fake, thinking checked)', () => {
  let stage: string;
  const runs = new Map<string, RunRecord>();
  const prices = resolveModelSpec('claude-sonnet-5-5').prices;
  const testStrategies: Strategy[] = [
    {
      name: 'test-clear',
      description: 'clear_tool_uses with a small trigger',
      build: () => noCompaction,
      serverSide: () => serverSide(new ClearToolUses({ triggerTokens: 12_000, keepToolUses: 3 }))
    },
    {
      name: 'test-threshold',
      description: 'compact_20260112 at its minimum trigger',
      build: () => noCompaction,
      serverSide: () => serverSide(new ThresholdCompaction({ triggerTokens: 50_000 }))
    },
    STRATEGIES.find((strategy) => strategy.name === 'default-client-micro')!,
    STRATEGIES.find((strategy) => strategy.name === 'default')!
  ];
  beforeAll(async () => {
    stage = stageSeed();
    const plan = new WorkloadPlan(readSeed(stage));
    const tokenCounter = new TokenCounter();
    for (const strategy of testStrategies)
      runs.set(strategy.name, await runStrategy({ strategy, turns: 40, seedDir: stage, plan, tokenCounter }));
  }, 180_000);
  afterAll(() => rmSync(stage, { recursive: true, force: true }));

  it('server-side clearing keeps every thinking block valid and in view, and bills the cleared request', () => {
    const run = runs.get('test-clear')!;
    expect(run.stopReason).toBe('success');
    const figures = figuresOf(run, prices, 1);
    expect(figures.compactions_by_layer.server_clear).toBeGreaterThan(0);
    expect(figures.thinking_kept_share).toBe(1);
    expect(figures.thinking_stripped_tokens).toBe(0);
    // The model reads less than the client sent: the whole history, every turn's new tokens.
    const sent = run.requests.reduce((sum, record) => sum + record.newTokens, 0);
    expect(figures.peak_context).toBeLessThan(sent / 2);
  });

  it('threshold compaction bills its summary step and drops the thinking it summarized', () => {
    const run = runs.get('test-threshold')!;
    expect(run.stopReason).toBe('success');
    const figures = figuresOf(run, prices, 1);
    expect(figures.compactions_by_layer.server_compact).toBe(1);
    const summaries = run.requests.filter((record) => record.kind === 'summary');
    expect(summaries).toHaveLength(1);
    expect(summaries[0]!.promptTokens).toBeGreaterThanOrEqual(50_000);
    expect(summaries[0]!.output).toBeGreaterThan(0);
    expect(figures.summary_share).toBeGreaterThan(0);
    expect(figures.thinking_kept_share).toBeLessThan(1);
    expect(figures.thinking_kept_share).toBeGreaterThan(0.5);
  });

  it('our client-side micro strips the thinking after each clear, and says how much', () => {
    const figures = figuresOf(runs.get('default-client-micro')!, prices, 1);
    expect(figures.thinking_kept_share).toBeLessThan(0.9);
    expect(figures.thinking_stripped_blocks).toBeGreaterThan(0);
    expect(figures.thinking_stripped_tokens).toBeGreaterThan(figures.thinking_stripped_blocks * 30);
  });

  it('the shipped default asks the API to clear: the fake clears, and no thinking is stripped or lost', () => {
    const run = runs.get('default')!;
    expect(run.stopReason).toBe('success');
    const figures = figuresOf(run, prices, 1);
    expect(figures.compactions_by_layer.micro ?? 0).toBeGreaterThan(0);
    expect(figures.thinking_stripped_blocks).toBe(0);
    expect(figures.thinking_kept_share).toBeGreaterThanOrEqual(0.9);
    expect(figures.lost_needs).toBe(0);
  });
});
