import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { withMessageBreakpoints } from '../../src/model/cache-breakpoints.js';
import { placeholderFor } from '../../src/compaction/placeholder.js';
import { call, codeText, result, results, user } from '../support/history-builders.js';
import {
  MemoryStore,
  pipeline,
  STRUCTURED_SUMMARY,
  SUMMARIES_ONLY,
  SummaryModel
} from '../support/compaction-fixtures.js';

const TASK = 'Refactor the parser.\nKeep the public API.';
const before = { kind: 'before_request' } as const;

/** A session of `turns` big reads; each result is about `chars` characters. */
function bigSession(turns: number, chars = 8_000): MessageParam[] {
  const history: MessageParam[] = [user(TASK)];
  for (let i = 0; i < turns; i++) {
    history.push(
      call(`t${i}`, 'read_file', { path: `src/file${i}.ts` }),
      results(result(`t${i}`, codeText(chars, `v${i}`)))
    );
  }
  return history;
}

const texts = (message: MessageParam) =>
  typeof message.content === 'string'
    ? [message.content]
    : message.content.map((b) => ('text' in b ? b.text : b.type));

describe('auto-compaction', () => {
  it('past the threshold: saves a segment, summarizes on the cached prefix, rebuilds task + summary + ledger + tail', async () => {
    const store = new MemoryStore({ 'src/file3.ts': 'export const three = 3;' });
    const { compactor, requests, model } = pipeline(
      { thresholdTokens: 20_000, keepTailTokens: 5_000, steps: SUMMARIES_ONLY },
      new SummaryModel(),
      store
    );
    const history = bigSession(12);
    const result_ = await compactor.compact(history, before, { turn: 12, lastUsage: undefined });

    expect(store.segments).toEqual([history]);
    // The summary request is the normal request plus the instruction in the last user message.
    const [summaryRequest] = (model as SummaryModel).requests;
    const normal = requests.build(history);
    expect(summaryRequest!.system).toEqual(normal.system);
    expect(summaryRequest!.tools).toEqual(normal.tools);
    expect(summaryRequest!.messages.slice(0, -1)).toEqual(withMessageBreakpoints(history).slice(0, -1));
    expect(JSON.stringify(summaryRequest!.messages.at(-1))).toContain('<compaction-request>');

    const next = result_.history;
    expect(texts(next[0]!)[0]).toBe(TASK);
    expect(texts(next[0]!)[1]).toContain(STRUCTURED_SUMMARY);
    expect(texts(next[0]!)[1]).toContain('.transcripts/run/transcript.jsonl');
    expect(texts(next[0]!)[1]).toContain('.transcripts/run/segments/segment-1.json');
    expect(texts(next[0]!)[2]).toContain('- M src/parser.ts');
    expect(texts(next[0]!).join('\n')).toContain('<recent-file path="src/file3.ts"');
    expect(next[1]!.role).toBe('assistant');
    expect(next.at(-1)).toBe(history.at(-1));

    const [event] = result_.events;
    expect(event).toMatchObject({
      layer: 'auto',
      segment_path: '.transcripts/run/segments/segment-1.json',
      summary_tokens: 400,
      summary: STRUCTURED_SUMMARY,
      focus: null
    });
    expect(event!.tokens_after).toBeLessThan(10_000);
    expect(event!.tokens_before).toBeGreaterThan(20_000);
    expect(event!.summary_cost_usd).toBeCloseTo((2000 * 3 + 30_000 * 0.3 + 400 * 15) / 1e6, 9);
    expect(result_.usage).toEqual({
      input: 2000,
      cacheWrite: 0,
      cacheWrite1h: 0,
      cacheRead: 30_000,
      output: 400
    });
  });

  it('does nothing under the threshold, and skips a compaction that would save too little', async () => {
    const { compactor, model } = pipeline({ thresholdTokens: 50_000 });
    const small = bigSession(3);
    const unchanged = await compactor.compact(small, before, { turn: 3, lastUsage: undefined });
    expect(unchanged.history).toBe(small);
    expect(unchanged.events).toEqual([]);

    // Over the threshold, but nearly all of it is the task, which is always kept: no gain.
    const { compactor: second } = pipeline({ thresholdTokens: 5_000 }, model);
    const taskHeavy: MessageParam[] = [
      user(codeText(40_000)),
      call('a', 'glob', { pattern: '*' }),
      results(result('a', 'x'))
    ];
    const skipped = await second.compact(taskHeavy, before, { turn: 1, lastUsage: undefined });
    expect(skipped.history).toBe(taskHeavy);
    expect((model as SummaryModel).requests).toHaveLength(0);
  });

  it('compacts harder when the first rebuild is not well under the threshold', async () => {
    // A tail budget of 18k tokens against a 20k threshold would leave the context near it: the tail is cut.
    const { compactor } = pipeline({
      thresholdTokens: 20_000,
      keepTailTokens: 18_000,
      steps: SUMMARIES_ONLY
    });
    const history = bigSession(12);
    const outcome = await compactor.compact(history, before, { turn: 12, lastUsage: undefined });
    const [event] = outcome.events;
    expect(event!.layer).toBe('auto');
    expect(event!.tokens_after).toBeLessThanOrEqual(10_000);
    // Each turn is ~3k tokens: an 18k budget would have kept 5 turns (10 messages).
    expect(outcome.history.length - 1).toBeLessThan(10);
  });
});

describe('the turn the model has not seen', () => {
  it('is left out of the summary request (the cached prefix plus the instruction) and kept whole after it', async () => {
    const { compactor, model } = pipeline(
      {
        thresholdTokens: 20_000,
        keepTailTokens: 500,
        restoreRecentFiles: 0,
        steps: SUMMARIES_ONLY
      },
      new SummaryModel(),
      new MemoryStore()
    );
    const sent = bigSession(4);
    const first = await compactor.compact(sent, before, { turn: 4, lastUsage: undefined });
    expect(first.events).toEqual([]);
    const unseen: MessageParam[] = [
      call('t8', 'read_file', { path: 'src/new.ts' }),
      results(result('t8', codeText(12_000, 'fresh')))
    ];
    const history = [...sent, ...unseen];
    const second = await compactor.compact(history, before, { turn: 5, lastUsage: undefined });

    expect(second.events.map((event) => event.layer)).toEqual(['auto']);
    const [summaryRequest] = (model as SummaryModel).requests;
    // Exactly what the last request sent, with the instruction added to its last message.
    expect(summaryRequest!.messages).toHaveLength(sent.length);
    expect(summaryRequest!.messages.slice(0, -1)).toEqual(withMessageBreakpoints(sent).slice(0, -1));
    expect(JSON.stringify(summaryRequest!.messages)).not.toContain('src/new.ts');
    // The new turn is kept whole although it is far over the 500-token tail.
    expect(second.history.slice(-2)).toEqual(unseen);
    expect(second.history).toHaveLength(3);
  });

  it('is summarized with the rest when it is too big to keep whole', async () => {
    const { compactor, model } = pipeline(
      {
        thresholdTokens: 20_000,
        keepTailTokens: 500,
        restoreRecentFiles: 0,
        steps: SUMMARIES_ONLY
      },
      new SummaryModel(),
      new MemoryStore()
    );
    const sent = bigSession(4);
    await compactor.compact(sent, before, { turn: 4, lastUsage: undefined });
    const huge = [
      ...sent,
      call('t4', 'read_file', { path: 'src/huge.ts' }),
      results(result('t4', codeText(36_000, 'huge')))
    ];
    const compacted = await compactor.compact(huge, before, { turn: 5, lastUsage: undefined });
    expect(compacted.events.map((event) => event.layer)).toEqual(['auto']);
    expect(JSON.stringify((model as SummaryModel).requests[0]!.messages)).toContain('src/huge.ts');
  });
});

describe('manual compaction', () => {
  it('summarizes with the focus even under the threshold, and says it was the agent', async () => {
    const model = new SummaryModel();
    const { compactor } = pipeline({}, model);
    const outcome = await compactor.compact(
      bigSession(3),
      { kind: 'manual', focus: 'the API decisions' },
      { turn: 3, lastUsage: undefined }
    );
    expect(JSON.stringify(model.requests[0]!.messages.at(-1))).toContain('the API decisions');
    expect(outcome.events[0]).toMatchObject({
      layer: 'manual',
      focus: 'the API decisions',
      reason: 'the agent called compact'
    });
    expect(texts(outcome.history[0]!)[0]).toBe(TASK);
  });
});

describe('failures', () => {
  it('retries a failed summary, falls back without the model, and opens the breaker after 3 failed compactions', async () => {
    const model = new SummaryModel('fail');
    const { compactor } = pipeline({ thresholdTokens: 20_000, keepTailTokens: 3_000 }, model);
    let history = bigSession(12);
    const layers: string[] = [];
    for (let round = 0; round < 4; round++) {
      const outcome = await compactor.compact(
        history,
        { kind: 'manual', focus: undefined },
        { turn: round, lastUsage: undefined }
      );
      history = [
        ...outcome.history,
        call(`n${round}`, 'bash', { command: 'ls' }),
        results(result(`n${round}`, codeText(200)))
      ];
      layers.push(...outcome.events.map((event) => event.layer));
      expect(texts(outcome.history[0]!)[0]).toBe(TASK);
      expect(texts(outcome.history[0]!)[1]).toContain('dropped without a summary');
    }
    expect(layers).toEqual(['fallback', 'fallback', 'fallback', 'fallback']);
    // Two tries in each of the first three compactions; none once the breaker is open.
    expect(model.requests).toHaveLength(6);
  });

  it('half-opens the breaker after its cool-down: one try, and a success closes it', async () => {
    let failing = true;
    let calls = 0;
    const model = new SummaryModel('summarize');
    const flaky = {
      complete: (request: Parameters<SummaryModel['complete']>[0]) => {
        calls++;
        return failing ? Promise.reject(new Error('529 overloaded')) : model.complete(request);
      }
    };
    const { compactor } = pipeline({ thresholdTokens: 20_000, keepTailTokens: 3_000 }, flaky);
    const manual = { kind: 'manual', focus: undefined } as const;
    const at = async (turn: number) => {
      const outcome = await compactor.compact(bigSession(12), manual, { turn, lastUsage: undefined });
      return outcome.events[0]!;
    };
    for (const turn of [1, 2, 3]) expect((await at(turn)).layer).toBe('fallback');
    const open = await at(5);
    expect(open.reason).toMatch(/circuit breaker open after 3 failed summaries \(tries again in 8 turns\)/);
    expect(calls).toBe(6);
    // Still failing at the half-open try (turn 13): one call, not two, then open again for a cool-down.
    expect((await at(13)).layer).toBe('fallback');
    expect(calls).toBe(7);
    expect((await at(14)).reason).toMatch(/tries again in 9 turns/);
    failing = false;
    expect((await at(23)).layer).toBe('manual');
    expect((await at(24)).layer).toBe('manual');
    expect(calls).toBe(9);
  });

  it('stops calling the model past max_compactions', async () => {
    const model = new SummaryModel();
    const { compactor } = pipeline({ maxCompactions: 1 }, model);
    const first = await compactor.compact(
      bigSession(4),
      { kind: 'manual', focus: undefined },
      { turn: 1, lastUsage: undefined }
    );
    const second = await compactor.compact(
      [...first.history, call('z', 'bash', { command: 'ls' }), results(result('z', 'ok'))],
      { kind: 'manual', focus: undefined },
      { turn: 2, lastUsage: undefined }
    );
    expect(model.requests).toHaveLength(1);
    expect(second.events[0]).toMatchObject({
      layer: 'fallback',
      reason: expect.stringContaining('max_compactions (1) reached')
    });
  });

  it('never sends a summary request larger than the window: the oldest turns are left out of it', async () => {
    const model = new SummaryModel();
    const { compactor } = pipeline(
      { contextWindow: 30_000, thresholdTokens: 15_000, keepTailTokens: 2_000 },
      model
    );
    const history = bigSession(20);
    await compactor.compact(
      history,
      { kind: 'overflow', actualTokens: 45_000, maximumTokens: 30_000 },
      { turn: 20, lastUsage: undefined }
    );
    const sent = model.requests[0]!;
    expect(JSON.stringify(sent).length / 2.5).toBeLessThan(30_000);
    expect(sent.messages.length).toBeLessThan(history.length);
    expect(texts(sent.messages[0]!)[0]).toBe(TASK);
  });
});

describe('micro and spill inside the pipeline', () => {
  it('clears in one batch once the floor is reached, and spills a huge new result', async () => {
    const store = new MemoryStore();
    const { compactor } = pipeline(
      { microKeepRecent: 2, microClearAtLeast: 6_000, thresholdTokens: 90_000 },
      new SummaryModel(),
      store
    );
    const history = bigSession(2, 6_000);
    const quiet = await compactor.compact(history, before, { turn: 2, lastUsage: undefined });
    expect(quiet.events).toEqual([]);
    history.push(call('t2', 'read_file', { path: 'a' }), results(result('t2', codeText(6_000))));
    // The previous turn printed a few lines, so no kept result lies after the clear point: a cheap moment.
    history.push(call('t3', 'bash', { command: 'git status --short' }), results(result('t3', ' M a')));
    history.push(call('big', 'bash', { command: 'cat dump.json' }), results(result('big', codeText(80_000))));
    const cleared = await compactor.compact(history, before, { turn: 5, lastUsage: undefined });
    expect(cleared.events.map((event) => [event.layer, event.results_cleared])).toEqual([
      ['spill', 1],
      ['micro', 3]
    ]);
    expect(store.spilled.get('big')).toHaveLength(80_000);
    expect(cleared.events[1]!.tool_use_ids).toEqual(['t0', 't1', 't2']);
    expect(cleared.events[1]!.tokens_after).toBeLessThan(cleared.events[1]!.tokens_before);
  });
});

describe('micro waiting for a cheap moment', () => {
  it('waits while the kept result would be rewritten, but never lets a summary do a clear', async () => {
    // Every turn reads a big file, so a kept result always follows the clear point: a dear moment.
    const model = new SummaryModel();
    const far = pipeline({ microKeepRecent: 2, microClearAtLeast: 5_000, thresholdTokens: 60_000 }, model);
    const waited = await far.compactor.compact(bigSession(5, 6_000), before, {
      turn: 5,
      lastUsage: undefined
    });
    // Three candidates (about 7k tokens) are past the floor but under twice it: far from the threshold, wait.
    expect(waited.events).toEqual([]);

    const near = pipeline({ microKeepRecent: 2, microClearAtLeast: 5_000, thresholdTokens: 12_000 }, model);
    const cleared = await near.compactor.compact(bigSession(5, 6_000), before, {
      turn: 5,
      lastUsage: undefined
    });
    // The same history past the threshold: clear now, which brings it under, and no summary is asked for.
    expect(cleared.events.map((event) => event.layer)).toEqual(['micro']);
    expect(cleared.events[0]!.reason).toContain('past the threshold');
    expect(cleared.events[0]!.tokens_before).toBeGreaterThan(12_000);
    expect(cleared.events[0]!.tokens_after).toBeLessThan(12_000);
    expect(model.requests).toHaveLength(0);
  });
});

describe('repeat notes inside the pipeline', () => {
  it('clears a note in the same micro edit as the copy it points at (property seed 2140408966)', async () => {
    const { compactor } = pipeline({ microKeepRecent: 2, microClearAtLeast: 3_000, thresholdTokens: 90_000 });
    const listing = codeText(8_735, 'g');
    let history: MessageParam[] = [user(TASK)];
    const turn = async (id: string, name: string, input: Record<string, unknown>, text: string) => {
      history = [...history, call(id, name, input), results(result(id, text))];
      const compacted = await compactor.compact(history, before, {
        turn: history.length,
        lastUsage: undefined
      });
      history = compacted.history;
      return compacted.events;
    };
    await turn('toolu_1', 'glob', { pattern: '**/*' }, listing);
    await turn('toolu_2', 'read_file', { path: 'src/b.ts' }, codeText(6_000, 'b'));
    const repeat = await turn('toolu_3', 'glob', { pattern: '**/*' }, listing);
    expect(repeat.map((event) => event.tool_use_ids)).toEqual([['toolu_3']]);
    // Below the floor: toolu_2 alone is not worth a batch.
    expect(await turn('toolu_4', 'read_file', { path: 'src/c.ts' }, codeText(6_000, 'c'))).toEqual([]);
    const events = await turn('toolu_5', 'read_file', { path: 'src/d.ts' }, codeText(6_000, 'd'));

    expect(events.map((event) => [event.layer, event.tool_use_ids])).toEqual([
      ['micro', ['toolu_1', 'toolu_2', 'toolu_3']]
    ]);
    const glob = placeholderFor('glob', { pattern: '**/*' }, listing);
    expect(resultText(history, 'toolu_1')).toBe(glob);
    expect(resultText(history, 'toolu_3')).toBe(glob);
  });
});

function resultText(history: readonly MessageParam[], toolUseId: string): unknown {
  for (const message of history)
    if (typeof message.content !== 'string')
      for (const block of message.content)
        if (block.type === 'tool_result' && block.tool_use_id === toolUseId) return block.content;
  return undefined;
}
