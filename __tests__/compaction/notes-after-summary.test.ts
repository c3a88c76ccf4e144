import type { MessageParam, ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages';
import {
  earlierIdOf,
  findDuplicateResults,
  isPartialRepeatNote,
  replaceDuplicates,
  withoutDanglingNotes
} from '../../src/compaction/duplicates.js';
import {
  clearCandidates,
  clearResults,
  emptyMicroIndex,
  indexNewResults
} from '../../src/compaction/micro.js';
import { CLEARED_PREFIX } from '../../src/compaction/placeholder.js';
import { toolExchangesFrom, toolResultText } from '../../src/compaction/history.js';
import { call, codeText, result, results, user } from '../support/history-builders.js';
import { MemoryStore, pipeline, SummaryModel } from '../support/compaction-fixtures.js';

const before = { kind: 'before_request' } as const;

/** A file of `total` lines as read_file shows lines first..last of it. */
function numbered(total: number, first = 1, last = total): string {
  const lines = Array.from(
    { length: last - first + 1 },
    (_, i) =>
      `${String(first + i).padStart(6)}\tconst value${first + i} = compute(${first + i}); // a line of the parser`
  );
  if (first > 1 || last < total)
    lines.push(`[lines ${first}-${last} of ${total}; use offset and limit to read more]`);
  return lines.join('\n');
}

/** The notes of `history` whose earlier result is not in `history`. */
function danglingNotes(history: readonly MessageParam[]): string[] {
  const exchanges = toolExchangesFrom(history, 0);
  const ids = new Set(exchanges.map((exchange) => exchange.use.id));
  return exchanges
    .map((exchange) => earlierIdOf(toolResultText(exchange.result)))
    .filter((target): target is string => target !== undefined && !ids.has(target));
}

describe('notes and summaries', () => {
  it('turns a note the kept tail carries into a placeholder when its earlier result is dropped', () => {
    const history: MessageParam[] = [
      user('Review the parser.'),
      call('whole', 'read_file', { path: 'src/big.ts' }),
      results(result('whole', numbered(400))),
      call('head', 'bash', { command: 'git log -1' }),
      results(result('head', 'commit abc')),
      call('window', 'read_file', { path: 'src/big.ts', offset: 100, limit: 40 }),
      results(result('window', numbered(400, 100, 139)))
    ];
    const noted = replaceDuplicates(history, findDuplicateResults(history, 5, 100));
    expect(earlierIdOf(toolResultText((noted[6]!.content as ToolResultBlockParam[])[0]!))).toBe('whole');
    const tail = noted.slice(3);
    expect(danglingNotes(tail)).toEqual(['whole']);
    const fixed = withoutDanglingNotes(tail, noted);
    expect(danglingNotes(fixed)).toEqual([]);
    expect(toolResultText((fixed[3]!.content as ToolResultBlockParam[])[0]!)).toMatch(
      // A window's note stood for a part of the whole read: the placeholder claims no size.
      new RegExp(`^\\${CLEARED_PREFIX}read_file src/big\\.ts; run the tool again if needed\\]$`)
    );
    // The messages without a dangling note are the same objects (nothing else changes).
    expect(fixed[0]).toBe(tail[0]);
    expect(fixed[1]).toBe(tail[1]);
    // A note whose earlier result is kept too stays a note.
    expect(withoutDanglingNotes(noted.slice(1), noted)).toEqual(noted.slice(1));
  });

  it('after a manual compaction, no note points at a summarized result, and the file is restored', async () => {
    const store = new MemoryStore({ 'src/big.ts': 'export const restored = true;' });
    const { compactor } = pipeline(
      { thresholdTokens: 90_000, microKeepRecent: 50, keepTailTokens: 1_500, restoreRecentFiles: 5 },
      new SummaryModel(),
      store
    );
    let history: MessageParam[] = [user('Review the parser.')];
    const turn = async (id: string, name: string, input: Record<string, unknown>, text: string) => {
      history = [...history, call(id, name, input), results(result(id, text))];
      history = (await compactor.compact(history, before, { turn: history.length, lastUsage: undefined }))
        .history;
    };
    await turn('whole', 'read_file', { path: 'src/big.ts' }, numbered(400));
    for (let i = 0; i < 4; i++)
      await turn(`other${i}`, 'read_file', { path: `src/o${i}.ts` }, codeText(6_000, `o${i}`));
    await turn(
      'window',
      'read_file',
      { path: 'src/big.ts', offset: 100, limit: 40 },
      numbered(400, 100, 139)
    );
    expect(danglingNotes(history)).toEqual([]);
    expect(toolResultText((history.at(-1)!.content as ToolResultBlockParam[])[0]!)).toContain(
      'tool_use whole'
    );

    const compacted = await compactor.compact(
      history,
      { kind: 'manual', focus: undefined },
      { turn: history.length, lastUsage: undefined }
    );
    expect(compacted.events.map((event) => event.layer)).toEqual(['manual']);
    const rebuilt = compacted.history;
    expect(JSON.stringify(rebuilt)).toContain('"tool_use_id":"window"');
    expect(JSON.stringify(rebuilt)).not.toContain('"tool_use_id":"whole"');
    expect(danglingNotes(rebuilt)).toEqual([]);
    // The file the dropped read showed is re-read from disk into the rebuilt history.
    expect(JSON.stringify(rebuilt[0])).toContain('<recent-file path=\\"src/big.ts\\"');
  });

  it('reads the id a note points at from its fixed ending, not from words the model put in the call', () => {
    const spoof = 'for tool_use (\\S+), which is still above';
    const listing = codeText(2_000, 'g');
    const history: MessageParam[] = [
      user('Review the parser.'),
      call('g0', 'grep', { pattern: spoof, path: 'src' }),
      results(result('g0', listing)),
      call('g1', 'grep', { pattern: spoof, path: 'src' }),
      results(result('g1', listing))
    ];
    const noted = replaceDuplicates(history, findDuplicateResults(history, 3, 100));
    expect(earlierIdOf(toolResultText((noted[4]!.content as ToolResultBlockParam[])[0]!))).toBe('g0');
    const index = emptyMicroIndex();
    const settings = { keepRecent: 1, clearAtLeast: 1, minResultTokens: 50, preserveTools: [] };
    indexNewResults(
      index,
      [...noted, call('b', 'bash', { command: 'ls' }), results(result('b', codeText(800)))],
      settings,
      (chars) => Math.ceil(chars / 4)
    );
    // The note is cleared with the result it points at: it never outlives it.
    expect(clearCandidates(index, settings, noted.length + 1).map((c) => c.toolUseId)).toEqual(['g0', 'g1']);
  });

  it('claims no size for a cleared note of a partial repeat: its own lines were never kept', () => {
    const history: MessageParam[] = [
      user('Review the parser.'),
      call('whole', 'read_file', { path: 'src/big.ts' }),
      results(result('whole', numbered(300))),
      call('window', 'read_file', { path: 'src/big.ts', offset: 20, limit: 40 }),
      results(result('window', numbered(300, 20, 59)))
    ];
    const noted = replaceDuplicates(history, findDuplicateResults(history, 3, 100));
    expect(isPartialRepeatNote(toolResultText((noted[4]!.content as ToolResultBlockParam[])[0]!))).toBe(true);
    // Dropped by a summary: the placeholder names the call, not the 300 lines of the whole read.
    const fixed = withoutDanglingNotes(noted.slice(3), noted);
    expect(toolResultText((fixed[1]!.content as ToolResultBlockParam[])[0]!)).toBe(
      '[cleared: read_file src/big.ts; run the tool again if needed]'
    );
    // Cleared by micro with the read it points at: the same.
    const index = emptyMicroIndex();
    const settings = { keepRecent: 0, clearAtLeast: 1, minResultTokens: 50, preserveTools: [] };
    indexNewResults(index, noted, settings, (chars) => Math.ceil(chars / 4));
    const cleared = clearResults(noted, clearCandidates(index, settings, noted.length));
    expect(toolResultText((cleared[4]!.content as ToolResultBlockParam[])[0]!)).not.toMatch(/lines/);
    expect(toolResultText((cleared[2]!.content as ToolResultBlockParam[])[0]!)).toMatch(/300 lines/);
  });
});
