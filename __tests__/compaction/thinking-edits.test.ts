import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { countThinkingBlocks } from '../../src/model/thinking.js';
import { codeText, result, results, user } from '../support/history-builders.js';
import { MemoryStore, pipeline, SummaryModel } from '../support/compaction-fixtures.js';

/**
 * On models with preserved thinking, every layer that changes earlier history must leave no thinking
 * block whose prefix changed (the API answers 400). These check the history each layer hands back,
 * and what the summary request itself carries; the end-to-end check against the strict fake is in
 * __tests__/integration/thinking-compaction.test.ts.
 */
const before = { kind: 'before_request' } as const;

function thinkingSession(turns: number, chars: number): MessageParam[] {
  const history: MessageParam[] = [user([{ type: 'text', text: 'Refactor the parser.' }])];
  for (let i = 0; i < turns; i++) {
    history.push(
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: `I should read file ${i}.`, signature: `sig-${i}` },
          { type: 'tool_use', id: `t${i}`, name: 'read_file', input: { path: `src/file${i}.ts` } }
        ]
      },
      results(result(`t${i}`, codeText(chars, `v${i}`)))
    );
  }
  return history;
}

/** The index of the first message that differs from `original` (by content), or the length. */
function firstChange(original: readonly MessageParam[], next: readonly MessageParam[]): number {
  const index = next.findIndex((message, i) => JSON.stringify(message) !== JSON.stringify(original[i]));
  return index === -1 ? next.length : index;
}

describe('thinking blocks and compaction edits (Sonnet 5.5)', () => {
  it('micro: keeps the thinking before the first cleared result and removes every block after it', async () => {
    const { compactor } = pipeline({
      microKeepRecent: 2,
      microClearAtLeast: 6_000,
      thresholdTokens: 900_000
    });
    // Every result is big, so the batch waits past the floor for a cheap moment, up to twice the floor.
    const history = thinkingSession(8, 6_000);
    const out = await compactor.compact(history, before, { turn: 8, lastUsage: undefined });
    expect(out.events.map((event) => event.layer)).toEqual(['micro']);
    const edit = firstChange(history, out.history);
    expect(out.editedFrom).toBe(edit);
    expect(countThinkingBlocks(out.history.slice(0, edit))).toBe(countThinkingBlocks(history.slice(0, edit)));
    expect(countThinkingBlocks(out.history.slice(edit))).toBe(0);
    expect(out.thinkingBlocksDropped).toBe(countThinkingBlocks(history.slice(edit)));
    // Every tool_use still has its result right after it.
    expect(out.history.filter((m) => m.role === 'assistant')).toHaveLength(8);
  });

  it('auto: the summary request replays the thinking as it was, the rebuilt history has none after the edit', async () => {
    const model = new SummaryModel();
    const { compactor } = pipeline(
      { thresholdTokens: 20_000, microKeepRecent: 50 },
      model,
      new MemoryStore()
    );
    const history = thinkingSession(8, 8_000);
    const out = await compactor.compact(history, before, { turn: 8, lastUsage: undefined });
    expect(out.events.map((event) => event.layer)).toEqual(['auto']);
    // Nothing before the summary request was edited: its thinking is the model's own, in order.
    expect(countThinkingBlocks(model.requests[0]!.messages)).toBe(8);
    expect(out.editedFrom).toBe(0);
    expect(countThinkingBlocks(out.history)).toBe(0);
  });

  it('manual and fallback: no thinking survives a rebuild', async () => {
    const manual = pipeline({ thresholdTokens: 900_000, microKeepRecent: 50 });
    const kept = await manual.compactor.compact(
      thinkingSession(4, 2_000),
      { kind: 'manual', focus: 'the parser' },
      {
        turn: 4,
        lastUsage: undefined
      }
    );
    expect(kept.events.map((event) => event.layer)).toEqual(['manual']);
    expect(countThinkingBlocks(kept.history)).toBe(0);
    const failing = pipeline({ thresholdTokens: 20_000, microKeepRecent: 50 }, new SummaryModel('fail'));
    const fell = await failing.compactor.compact(thinkingSession(8, 8_000), before, {
      turn: 8,
      lastUsage: undefined
    });
    expect(fell.events.map((event) => event.layer)).toEqual(['fallback']);
    expect(countThinkingBlocks(fell.history)).toBe(0);
  });

  it('spill: an oversized new result changes only the newest message; earlier thinking stays', async () => {
    const { compactor } = pipeline({ thresholdTokens: 900_000, microKeepRecent: 50 });
    const history = thinkingSession(3, 1_000);
    history.push(
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'dump it', signature: 's' },
          { type: 'tool_use', id: 'big', name: 'bash', input: { command: 'cat x' } }
        ]
      },
      results(result('big', codeText(80_000)))
    );
    const out = await compactor.compact(history, before, { turn: 4, lastUsage: undefined });
    expect(out.events.map((event) => event.layer)).toEqual(['spill']);
    expect(out.editedFrom).toBe(history.length - 1);
    expect(countThinkingBlocks(out.history)).toBe(4);
  });

  it('overflow: a summary request that cannot carry the whole history strips the thinking of what it keeps', async () => {
    const model = new SummaryModel();
    const { compactor } = pipeline(
      { contextWindow: 60_000, thresholdTokens: 40_000, microKeepRecent: 50 },
      model
    );
    const out = await compactor.compact(
      thinkingSession(14, 12_000),
      { kind: 'overflow', actualTokens: 70_000, maximumTokens: undefined },
      { turn: 14, lastUsage: undefined }
    );
    expect(out.events.map((event) => event.layer)).toEqual(['auto']);
    const sent = model.requests[0]!.messages;
    expect(sent.length).toBeLessThan(29);
    expect(countThinkingBlocks(sent)).toBe(0);
  });
});
