import { readdirSync, readFileSync } from 'node:fs';
import { ToolRegistry } from '../../src/tools/registry.js';
import { EMPTY_DIFF, parsePatch, type FileDiff } from '../../src/review/diff-lines.js';
import { FindingsCollector } from '../../src/review/findings-collector.js';
import { recordFindingTool, resolveThreadTool } from '../../src/review/findings-tool.js';
import type { ResolutionCandidate } from '../../src/review/fixed-threads.js';
import { createTempRepo, type TempRepo } from '../support/temp-repo.js';
import { toolContext } from '../support/tool-context.js';
import { MS_PATH, msHead, msPatch } from './fixtures.js';

const HEAD = 'b'.repeat(40);
const ORIGINAL = 'a'.repeat(40);
const candidate = (commentId: number, lines: ResolutionCandidate['lines']): ResolutionCandidate => ({
  threadId: `PRRT_kwDOA${commentId}`,
  commentId,
  path: MS_PATH,
  originalLine: 52,
  excerpt: 'The limit check…',
  anchor: { path: MS_PATH, commitId: ORIGINAL, side: 'RIGHT', startLine: 51, endLine: 52 },
  lines
});
const candidates: ResolutionCandidate[] = [
  candidate(501, { kind: 'changed' }),
  candidate(502, { kind: 'unchanged' }),
  candidate(503, { kind: 'unknown', reason: 'it is on lines the pull request removed (the LEFT side)' })
];
let repo: TempRepo;
let collector: FindingsCollector;
let registry: ToolRegistry;

beforeEach(() => {
  repo = createTempRepo();
  repo.write(MS_PATH, msHead);
  repo.write('readme.md', '# ms\n\nTiny millisecond conversion utility.\n');
  collector = new FindingsCollector(3);
  const diffs = new Map<string, FileDiff>([
    [MS_PATH, parsePatch(msPatch)],
    ['logo.png', EMPTY_DIFF]
  ]);
  registry = new ToolRegistry([
    recordFindingTool({ collector, diffs }),
    resolveThreadTool(collector, candidates, HEAD)
  ]);
});
afterEach(() => repo.remove());

const call = (name: string, input: unknown) =>
  registry.execute({ id: 'toolu_review', name, input }, toolContext(repo.root));
const BODY = 'A limit of 1000 characters lets the unanchored regex run on long input.';

describe('record_finding', () => {
  it('records an inline finding and says so', async () => {
    const result = await call('record_finding', { path: MS_PATH, line: 50, body: BODY });
    expect(result).toMatchObject({
      isError: false,
      content: 'Recorded finding 1 at index.js:50: it will be an inline comment on the diff.'
    });
    expect(collector.findings).toEqual([
      { path: MS_PATH, line: 50, startLine: undefined, side: 'RIGHT', body: BODY, suggestion: undefined }
    ]);
  });

  it('says a finding off the diff goes in the body, why, and where it could go inline', async () => {
    const result = await call('record_finding', { path: MS_PATH, line: 40, body: BODY });
    expect(result.content).toBe(
      'Recorded finding 1 at index.js:40: it will go in the review body, because line 40 is not part of the diff. ' +
        'Lines of index.js you can comment on inline (RIGHT (head)): 7-13, 47-54, 157-162.'
    );
  });

  it('says whether a suggestion will be a one-click change or plain text', async () => {
    const applies = await call('record_finding', {
      path: MS_PATH,
      line: 50,
      body: BODY,
      suggestion: '  if (str.length > 100) {'
    });
    expect(applies.content).toContain('The suggestion will be a one-click change of those lines.');
    const same = await call('record_finding', {
      path: MS_PATH,
      line: 51,
      body: 'Returning undefined explicitly is clearer.',
      suggestion: '    return undefined;'
    });
    expect(same.content).toContain(
      'The suggestion will be shown as plain text: it is the same as the current lines.'
    );
  });

  it('takes an unchanged file of the repository (for the body) and refuses a file that does not exist', async () => {
    const readme = await call('record_finding', {
      path: 'readme.md',
      line: 3,
      body: 'Say it returns NaN for bad input.'
    });
    expect(readme.content).toContain(
      'in the review body, because the file is not changed in this pull request.'
    );
    const missing = await call('record_finding', { path: 'src/index.js', line: 3, body: 'x' });
    expect(missing).toMatchObject({ isError: true });
    expect(missing.content).toBe(
      'Not recorded: src/index.js is neither a file this pull request changes nor a file in the repository. ' +
        'Changed files: index.js, logo.png.'
    );
    const outside = await call('record_finding', { path: '../../etc/passwd', line: 1, body: 'x' });
    expect(outside).toMatchObject({
      isError: true,
      content: expect.stringContaining('outside the repository')
    });
    expect(collector.findings).toHaveLength(1);
  });

  it('gives schema errors in words, through the registry', async () => {
    const result = await call('record_finding', { path: MS_PATH, line: 50, start_line: 52, body: BODY });
    expect(result).toMatchObject({
      isError: true,
      content:
        'Invalid input for record_finding: start_line: start_line must be less than line (for a single line, leave start_line out).'
    });
  });

  it('does not record the same finding twice, and stops at the cap', async () => {
    await call('record_finding', { path: MS_PATH, line: 50, body: BODY });
    const again = await call('record_finding', { path: `./${MS_PATH}`, line: 50, body: ` ${BODY}` });
    expect(again.content).toBe('Already recorded as finding 1; not added again.');
    await call('record_finding', { path: MS_PATH, line: 10, body: 'b' });
    await call('record_finding', { path: MS_PATH, line: 11, body: 'c' });
    const full = await call('record_finding', { path: MS_PATH, line: 12, body: 'd' });
    expect(full).toMatchObject({ isError: true, content: expect.stringContaining('already has 3 findings') });
    expect(collector.findings).toHaveLength(3);
  });

  it('writes nothing to the workspace', async () => {
    const before = readdirSync(repo.root).sort();
    await call('record_finding', { path: MS_PATH, line: 50, body: BODY, suggestion: '  if (x) {' });
    expect(readdirSync(repo.root).sort()).toEqual(before);
    expect(readFileSync(`${repo.root}/${MS_PATH}`, 'utf8')).toBe(msHead);
  });
});

describe('resolve_thread', () => {
  it('accepts a listed thread once', async () => {
    const first = await call('resolve_thread', { comment_id: 501, reason: 'The limit is back to 100.' });
    expect(first).toMatchObject({
      isError: false,
      content: 'Noted: the thread of comment 501 (index.js) will be resolved as fixed.'
    });
    const again = await call('resolve_thread', { comment_id: 501, reason: 'again' });
    expect(again.content).toBe('Already noted: the thread of comment 501 will be resolved.');
    expect(collector.resolutions).toEqual([{ commentId: 501, reason: 'The limit is back to 100.' }]);
  });

  it('refuses an id that is not listed', async () => {
    const result = await call('resolve_thread', { comment_id: 999, reason: 'Fixed.' });
    expect(result).toMatchObject({
      isError: true,
      content: 'Not accepted: 999 is not one of the threads listed in your task (comment_ids: 501, 502, 503).'
    });
    expect(collector.resolutions).toEqual([]);
  });

  it("refuses a thread whose lines the run's own diff shows unchanged, and says why and what to do", async () => {
    const result = await call('resolve_thread', { comment_id: 502, reason: 'The author says it is fixed.' });
    expect(result).toMatchObject({
      isError: true,
      content:
        `Not accepted: the thread of comment 502 stays open, because ${MS_PATH} lines 51-52 did not change since ` +
        "aaaaaaa, where the thread was posted: the run's own diff from there to bbbbbbb (the head it reviews) shows " +
        'no change on those lines, so nothing shows the finding fixed, whatever the pull request says. Do not resolve ' +
        'it; if you believe the problem is gone for another reason, say so in your final summary.'
    });
    const unknown = await call('resolve_thread', { comment_id: 503, reason: 'Fixed.' });
    expect(unknown.content).toContain(
      `stays open, because the run cannot check ${MS_PATH} lines 51-52: it is on lines the pull request removed`
    );
    expect(collector.resolutions).toEqual([]);
  });
});
