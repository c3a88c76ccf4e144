import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { MessageParam, ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages';
import {
  DUPLICATE_PREFIX,
  earlierIdOf,
  findDuplicateResults,
  replaceDuplicates
} from '../../src/compaction/duplicates.js';
import { clearCandidates, emptyMicroIndex, indexNewResults } from '../../src/compaction/micro.js';
import { placeholderFor } from '../../src/compaction/placeholder.js';
import { createDefaultTools } from '../../src/tools/index.js';
import { call, result, results, user } from '../support/history-builders.js';
import { createTempRepo, type TempRepo } from '../support/temp-repo.js';
import { toolContext } from '../support/tool-context.js';

// A real source file, read through the real read_file tool: the window and the whole read carry the
// same numbered lines only if the tool's format makes them so.
const source = readFileSync(path.join(process.cwd(), 'node_modules/js-yaml/lib/loader.js'), 'utf8');
const tools = createDefaultTools();
let repo: TempRepo;
beforeEach(() => {
  repo = createTempRepo();
  repo.write('lib/loader.js', source);
});
afterEach(() => repo.remove());

async function read(input: Record<string, unknown>): Promise<string> {
  const outcome = await tools.execute({ id: 'toolu_x', name: 'read_file', input }, toolContext(repo.root));
  expect(outcome.isError).toBe(false);
  return outcome.content;
}

/** Task, then one tool call per turn: [name, input, result text]. */
function session(...turns: Array<[string, Record<string, unknown>, string]>): MessageParam[] {
  const history: MessageParam[] = [user('Review the loader.')];
  turns.forEach(([name, input, text], index) => {
    history.push(call(`t${index}`, name, input), results(result(`t${index}`, text)));
  });
  return history;
}
const textOf = (message: MessageParam) => (message.content as ToolResultBlockParam[])[0]!.content as string;

describe('a read whose lines a live read of the same file already shows', () => {
  it('points a window at the whole read that shows the same numbered lines', async () => {
    const whole = await read({ path: 'lib/loader.js', limit: 5000 });
    const window = await read({ path: './lib/loader.js', offset: 120, limit: 40 });
    expect(window).toMatch(/\[lines 120-159 of \d+; use offset and limit to read more\]$/);
    const history = session(
      ['read_file', { path: 'lib/loader.js', limit: 5000 }, whole],
      ['grep', { pattern: 'throwError', path: 'lib' }, 'lib/loader.js:10: function throwError'],
      ['read_file', { path: './lib/loader.js', offset: 120, limit: 40 }, window]
    );
    const found = findDuplicateResults(history, 5, 100);
    expect(found).toEqual([
      expect.objectContaining({
        toolUseId: 't2',
        earlierToolUseId: 't0',
        kind: 'lines',
        chars: window.length
      })
    ]);
    const next = replaceDuplicates(history, found);
    expect(textOf(next[6]!).startsWith(DUPLICATE_PREFIX)).toBe(true);
    expect(textOf(next[6]!)).toContain('only lines shown, unchanged and with the same numbers');
    // Micro reads the pointer like a repeat note: the whole read counts as recent and is not stale.
    expect(earlierIdOf(textOf(next[6]!))).toBe('t0');
    const index = emptyMicroIndex();
    const keepTwo = { keepRecent: 2, clearAtLeast: 1, minResultTokens: 50, preserveTools: [] };
    indexNewResults(index, next, keepTwo, (chars) => Math.ceil(chars / 4));
    expect(clearCandidates(index, keepTwo, next.length).map((c) => c.toolUseId)).not.toContain('t0');
  });

  it('points a narrower window at a wider one, but not a window that reaches past it', async () => {
    const wide = await read({ path: 'lib/loader.js', offset: 100, limit: 100 });
    const inside = await read({ path: 'lib/loader.js', offset: 150, limit: 30 });
    const across = await read({ path: 'lib/loader.js', offset: 180, limit: 40 });
    const history = session(
      ['read_file', { path: 'lib/loader.js', offset: 100, limit: 100 }, wide],
      ['read_file', { path: 'lib/loader.js', offset: 150, limit: 30 }, inside],
      ['read_file', { path: 'lib/loader.js', offset: 180, limit: 40 }, across]
    );
    expect(
      findDuplicateResults(history, 0, 100).map((d) => [d.toolUseId, d.earlierToolUseId, d.kind])
    ).toEqual([['t1', 't0', 'lines']]);
  });

  it('matches whole lines with their numbers only: the same text at other line numbers is no match', async () => {
    const window = await read({ path: 'lib/loader.js', offset: 200, limit: 30 });
    repo.write('lib/loader.js', `// one line added at the top\n${source}`);
    const shifted = await read({ path: 'lib/loader.js', offset: 201, limit: 30 });
    // The same source lines, one number further down.
    expect(shifted.split('\n')[0]!.split('\t')[1]).toBe(window.split('\n')[0]!.split('\t')[1]);
    const history = session(
      ['read_file', { path: 'lib/loader.js', offset: 200, limit: 30 }, window],
      ['read_file', { path: 'lib/loader.js', offset: 201, limit: 30 }, shifted]
    );
    expect(findDuplicateResults(history, 0, 100)).toEqual([]);
  });

  it('does not point at a read of another file, a cleared read, or a read the agent has since edited', async () => {
    const whole = await read({ path: 'lib/loader.js', limit: 5000 });
    const window = await read({ path: 'lib/loader.js', offset: 120, limit: 40 });
    repo.write('lib/copy.js', source);
    const otherFile = session(
      ['read_file', { path: 'lib/copy.js', limit: 5000 }, whole],
      ['read_file', { path: 'lib/loader.js', offset: 120, limit: 40 }, window]
    );
    expect(findDuplicateResults(otherFile, 0, 100)).toEqual([]);

    const cleared = session(
      [
        'read_file',
        { path: 'lib/loader.js', limit: 5000 },
        placeholderFor('read_file', { path: 'lib/loader.js' }, whole)
      ],
      ['read_file', { path: 'lib/loader.js', offset: 120, limit: 40 }, window]
    );
    expect(findDuplicateResults(cleared, 0, 100)).toEqual([]);

    const edited = session(
      ['read_file', { path: 'lib/loader.js', limit: 5000 }, whole],
      ['edit_file', { path: './lib/loader.js', old_string: 'a', new_string: 'b' }, 'Edited lib/loader.js.'],
      ['read_file', { path: 'lib/loader.js', offset: 120, limit: 40 }, window]
    );
    expect(findDuplicateResults(edited, 0, 100)).toEqual([]);
  });

  it('never points a whole read, or a window of a file that changed length, at an earlier window', async () => {
    repo.write('data/table.txt', Array.from({ length: 300 }, (_, i) => `row ${i + 1}`).join('\n'));
    const firstTen = await read({ path: 'data/table.txt', offset: 1, limit: 10 });
    repo.write('data/table.txt', Array.from({ length: 10 }, (_, i) => `row ${i + 1}`).join('\n'));
    const wholeNow = await read({ path: 'data/table.txt' });
    expect(firstTen).toContain('[lines 1-10 of 300;');
    expect(firstTen.startsWith(wholeNow)).toBe(true);
    const truncated = session(
      ['read_file', { path: 'data/table.txt', offset: 1, limit: 10 }, firstTen],
      ['read_file', { path: 'data/table.txt' }, wholeNow]
    );
    // The whole read says the file now ends at line 10: a pointer at "lines 1-10 of 300" would hide it.
    expect(findDuplicateResults(truncated, 0, 10)).toEqual([]);

    repo.write('data/table.txt', Array.from({ length: 301 }, (_, i) => `row ${i + 1}`).join('\n'));
    const grown = await read({ path: 'data/table.txt', offset: 1, limit: 10 });
    const longer = session(
      ['read_file', { path: 'data/table.txt', offset: 1, limit: 10 }, firstTen],
      ['read_file', { path: 'data/table.txt', offset: 1, limit: 10 }, grown]
    );
    expect(findDuplicateResults(longer, 0, 10)).toEqual([]);
  });

  it('points only at the latest read of the file: an earlier one may be stale', async () => {
    const before = await read({ path: 'lib/loader.js', limit: 5000 });
    const lines = source.split('\n');
    lines[29] = '// line 30 changed by a command (sed -i), not by edit_file';
    repo.write('lib/loader.js', lines.join('\n'));
    const after = await read({ path: 'lib/loader.js', limit: 5000 });
    const head = await read({ path: 'lib/loader.js', offset: 1, limit: 20 });
    const history = session(
      ['read_file', { path: 'lib/loader.js', limit: 5000 }, before],
      ['bash', { command: "sed -i '30s/.*/changed/' lib/loader.js" }, 'exit code: 0'],
      ['read_file', { path: 'lib/loader.js', limit: 5000 }, after],
      ['read_file', { path: 'lib/loader.js', offset: 1, limit: 20 }, head]
    );
    expect(findDuplicateResults(history, 0, 100).map((d) => [d.toolUseId, d.earlierToolUseId])).toEqual([
      ['t3', 't2']
    ]);
  });

  it('keeps pointing at the current read after a read that showed nothing new', async () => {
    const whole = await read({ path: 'lib/loader.js', limit: 5000 });
    const first = await read({ path: 'lib/loader.js', offset: 40, limit: 20 });
    const second = await read({ path: 'lib/loader.js', offset: 300, limit: 30 });
    // The first window went out whole (sent before this pass): it agrees with the whole read.
    const history = session(
      ['read_file', { path: 'lib/loader.js', limit: 5000 }, whole],
      ['read_file', { path: 'lib/loader.js', offset: 40, limit: 20 }, first],
      ['read_file', { path: 'lib/loader.js', offset: 300, limit: 30 }, second]
    );
    expect(findDuplicateResults(history, 5, 100).map((d) => [d.toolUseId, d.earlierToolUseId])).toEqual([
      ['t2', 't0']
    ]);
  });
});
