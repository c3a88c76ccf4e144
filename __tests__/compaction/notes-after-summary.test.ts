import type { MessageParam, ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages';
import {
  earlierIdOf,
  findDuplicateResults,
  replaceDuplicates,
  withoutDanglingNotes
} from '../../src/compaction/duplicates.js';
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
      new RegExp(`^\\${CLEARED_PREFIX}read_file src/big\\.ts.*400 lines; run the tool again if needed\\]$`)
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
});
