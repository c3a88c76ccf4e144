import type { MessageParam, ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages';
import {
  clearCandidates,
  clearResults,
  decideMicroClear,
  emptyMicroIndex,
  forgetCleared,
  indexNewResults,
  keptTokensAfterClearPoint,
  WAIT_FOR_CHEAP_CLEAR_UP_TO_FLOORS,
  type MicroSettings
} from '../../src/compaction/micro.js';
import { placeholderFor } from '../../src/compaction/placeholder.js';
import { call, codeText, result, results, user } from '../support/history-builders.js';

const settings: MicroSettings = { keepRecent: 2, clearAtLeast: 1000, minResultTokens: 50, preserveTools: [] };
const estimate = (chars: number) => Math.ceil(chars / 4);

/** Task, then one tool call per turn: [name, input, result text]. */
function session(...turns: Array<[string, Record<string, unknown>, string]>): MessageParam[] {
  const history: MessageParam[] = [user('Refactor the parser.')];
  turns.forEach(([name, input, text], index) => {
    history.push(call(`t${index}`, name, input), results(result(`t${index}`, text)));
  });
  return history;
}

function indexOf(history: MessageParam[], overrides: Partial<MicroSettings> = {}) {
  const index = emptyMicroIndex();
  indexNewResults(index, history, { ...settings, ...overrides }, estimate);
  return index;
}

describe('micro-compaction candidates', () => {
  const big = codeText(2000);

  it('takes results older than keep_recent and big enough, never the newest message', () => {
    const history = session(
      ['read_file', { path: 'a.ts' }, big],
      ['read_file', { path: 'b.ts' }, 'small'],
      ['read_file', { path: 'c.ts' }, big],
      ['read_file', { path: 'd.ts' }, big],
      ['read_file', { path: 'e.ts' }, big]
    );
    const candidates = clearCandidates(indexOf(history), settings, history.length - 1);
    expect(candidates.map((c) => c.toolUseId)).toEqual(['t0', 't2']);
  });

  it('puts superseded results first: a file read again or edited, a command repeated', () => {
    const history = session(
      ['read_file', { path: 'src/a.ts' }, big],
      ['bash', { command: 'npm test' }, `exit code: 1\n${big}`],
      ['read_file', { path: 'src/b.ts' }, big],
      ['edit_file', { path: 'src/b.ts', old_string: 'x', new_string: 'y' }, 'Edited src/b.ts at line 1.'],
      ['bash', { command: 'npm test' }, `exit code: 0\n${big}`],
      ['read_file', { path: './src/a.ts' }, big],
      ['glob', { pattern: '*' }, 'x']
    );
    const keepMost = { ...settings, keepRecent: 6 };
    const candidates = clearCandidates(indexOf(history, keepMost), keepMost, history.length - 1);
    // Only t0 is older than the 6 most recent; t1 (npm test repeated) and t2 (edited later) are stale.
    expect(candidates.map((c) => [c.toolUseId, c.superseded])).toEqual([
      ['t0', true],
      ['t1', true],
      ['t2', true]
    ]);
  });

  it('never takes preserved tools or results that are already placeholders', () => {
    const history = session(
      ['grep', { pattern: 'x' }, big],
      [
        'read_file',
        { path: 'a.ts' },
        `${placeholderFor('read_file', { path: 'a.ts' }, big)}${' '.repeat(400)}`
      ],
      ['bash', { command: 'ls' }, big],
      ['bash', { command: 'pwd' }, big],
      ['bash', { command: 'id' }, big]
    );
    const candidates = clearCandidates(
      indexOf(history, { preserveTools: ['grep'] }),
      settings,
      history.length - 1
    );
    expect(candidates.map((c) => c.toolUseId)).toEqual(['t2']);
  });

  it('indexes incrementally and forgets what was cleared', () => {
    const history = session(['bash', { command: 'a' }, big], ['bash', { command: 'b' }, big]);
    const index = indexOf(history);
    expect(index.pending).toHaveLength(2);
    history.push(call('t9', 'bash', { command: 'c' }), results(result('t9', big)));
    indexNewResults(index, history, settings, estimate);
    expect(index.indexedUpTo).toBe(history.length);
    expect(index.pending.map((r) => r.toolUseId)).toEqual(['t0', 't1', 't9']);
    forgetCleared(index, index.pending.slice(0, 1));
    expect(index.pending.map((r) => r.toolUseId)).toEqual(['t1', 't9']);
  });
});

describe('hysteresis', () => {
  const candidates = (tokens: number[]) =>
    tokens.map((t, i) => ({
      toolUseId: `t${i}`,
      name: 'bash',
      input: {},
      messageIndex: 2 * i + 2,
      blockIndex: 0,
      tokens: t,
      ordinal: i,
      superseded: false
    }));

  it('waits until the clearable tokens reach the floor, then clears', () => {
    expect(decideMicroClear(candidates([400, 500]), settings, 1000, 300_000)).toEqual({ clear: false });
    const decision = decideMicroClear(candidates([400, 500, 200]), settings, 1000, 300_000);
    expect(decision).toEqual({
      clear: true,
      reason: expect.stringContaining('floor of 1000 tokens reached')
    });
  });

  it('past the floor, waits while a kept result would be written again, up to twice the floor', () => {
    const dear = { rewriteTokens: 900, headroomTokens: 50_000 };
    expect(decideMicroClear(candidates([600, 500]), settings, 1000, 300_000, dear)).toEqual({ clear: false });
    expect(decideMicroClear(candidates([600, 500, 800]), settings, 1000, 300_000, dear)).toEqual({
      clear: false
    });
    expect(WAIT_FOR_CHEAP_CLEAR_UP_TO_FLOORS).toBe(2);
    expect(decideMicroClear(candidates([600, 500, 900]), settings, 1000, 300_000, dear)).toEqual({
      clear: true,
      reason: expect.stringContaining('2000 tokens reached (twice the floor) while ~900 kept tokens follow')
    });
    // Nothing kept after the clear point: the floor is enough.
    expect(
      decideMicroClear(candidates([600, 500]), settings, 1000, 300_000, { ...dear, rewriteTokens: 0 })
    ).toEqual({
      clear: true,
      reason: expect.stringContaining('floor of 1000 tokens reached')
    });
    // Past the threshold, a wait would let a summary do a clear's work; short of it, the wait goes on.
    expect(
      decideMicroClear(candidates([600, 500]), settings, 1000, 300_000, { ...dear, headroomTokens: -200 })
    ).toEqual({
      clear: true,
      reason: expect.stringContaining('floor of 1000 tokens reached past the threshold')
    });
    expect(
      decideMicroClear(candidates([600, 500]), settings, 1000, 300_000, { ...dear, headroomTokens: 300 })
    ).toEqual({ clear: false });
    // A cold cache is written whole anyway: no reason to wait.
    expect(decideMicroClear(candidates([600, 500]), settings, 301_000, 300_000, dear)).toEqual({
      clear: true,
      reason: expect.stringContaining('cache cold')
    });
  });

  it('counts as written again only the kept results after the clear point that the model has seen', () => {
    const big = codeText(2000);
    // t0, t1 old; t2 read on the previous turn (kept); t3 just arrived (kept, new on this request anyway).
    const bigLast = session(
      ['read_file', { path: 'a.ts' }, big],
      ['read_file', { path: 'b.ts' }, big],
      ['read_file', { path: 'c.ts' }, big],
      ['read_file', { path: 'd.ts' }, big]
    );
    const newest = bigLast.length - 1;
    const index = indexOf(bigLast);
    const chosen = clearCandidates(index, settings, newest);
    expect(chosen.map((c) => c.toolUseId)).toEqual(['t0', 't1']);
    expect(keptTokensAfterClearPoint(index, chosen, newest)).toBe(estimate(big.length));
    // When the previous turn printed a few lines (below the size worth a placeholder), a clear is cheap.
    const smallLast = session(
      ['read_file', { path: 'a.ts' }, big],
      ['read_file', { path: 'b.ts' }, big],
      ['bash', { command: 'git status --short' }, ' M a.ts'],
      ['read_file', { path: 'd.ts' }, big]
    );
    const smallIndex = indexOf(smallLast);
    const smallChosen = clearCandidates(smallIndex, settings, smallLast.length - 1);
    expect(smallChosen.map((c) => c.toolUseId)).toEqual(['t0', 't1']);
    expect(keptTokensAfterClearPoint(smallIndex, smallChosen, smallLast.length - 1)).toBe(0);
    expect(keptTokensAfterClearPoint(smallIndex, [], smallLast.length - 1)).toBe(0);
  });

  it('clears eagerly when the cache has gone cold', () => {
    const decision = decideMicroClear(candidates([100]), settings, 301_000, 300_000);
    expect(decision).toEqual({ clear: true, reason: expect.stringContaining('cache cold (301 s idle)') });
    expect(decideMicroClear([], settings, 999_999, 300_000)).toEqual({ clear: false });
  });
});

describe('clearing', () => {
  it('replaces results with placeholders that keep tool, key input, size and error flag', () => {
    const history: MessageParam[] = [
      user('Task'),
      {
        role: 'assistant',
        content: [
          { type: 'tool_use', id: 'r', name: 'read_file', input: { path: 'src/app.ts' } },
          { type: 'tool_use', id: 'b', name: 'bash', input: { command: 'npm test' } }
        ]
      },
      results(
        result('r', 'line\n'.repeat(412).trimEnd()),
        result('b', 'exit code: 1\n--- stdout ---\nfail', true)
      ),
      call('n', 'glob', { pattern: '*' }),
      results(result('n', 'a.ts'))
    ];
    const before = structuredClone(history);
    const index = indexOf(history, { keepRecent: 1, minResultTokens: 1 });
    const cleared = clearResults(
      history,
      clearCandidates(index, { ...settings, keepRecent: 1 }, history.length - 1)
    );
    expect(history).toEqual(before);
    expect(cleared[1]).toBe(history[1]);
    expect(cleared[3]).toBe(history[3]);
    expect((cleared[2]!.content as ToolResultBlockParam[]).map((b) => [b.content, b.is_error])).toEqual([
      ['[cleared: read_file src/app.ts, 412 lines; run the tool again if needed]', undefined],
      ['[cleared: bash npm test, exit code 1, 3 lines; run the tool again if needed]', true]
    ]);
  });
});
