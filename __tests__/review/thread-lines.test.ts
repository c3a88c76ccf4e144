/** Whether a thread's lines changed, by the action's own git on a real repository. */
import { GitRepository } from '../../src/git/repository.js';
import { checkThreadLines, touchesLines, type ThreadAnchor } from '../../src/review/thread-lines.js';
import { createTempRepo, type TempRepo } from '../support/temp-repo.js';

const lines = (count: number) => Array.from({ length: count }, (_, i) => `line ${i + 1}`);

describe('touchesLines', () => {
  it('sees a rewrite, a removal and an insertion between two of the lines, and nothing outside', () => {
    expect(touchesLines('@@ -8 +8 @@\n-a\n+b', 8, 8)).toBe(true);
    expect(touchesLines('@@ -5,4 +4,0 @@', 8, 9)).toBe(true); // removes 5..8
    expect(touchesLines('@@ -8,0 +9,2 @@', 8, 9)).toBe(true); // adds between 8 and 9
    expect(touchesLines('@@ -0,0 +1 @@\n+// fixed', 8, 8)).toBe(false); // a line added above
    expect(touchesLines('@@ -9,0 +10 @@', 8, 9)).toBe(false); // added after the last line
    expect(touchesLines('@@ -10,2 +10,2 @@', 8, 9)).toBe(false);
    expect(touchesLines('', 8, 8)).toBe(false);
  });
});

describe('checkThreadLines', () => {
  let repo: TempRepo;
  let posted: string;
  const anchor = (overrides: Partial<ThreadAnchor> = {}): ThreadAnchor => ({
    path: 'src/a.js',
    commitId: posted,
    side: 'RIGHT',
    startLine: 8,
    endLine: 9,
    ...overrides
  });
  const commit = (content: string[]) => {
    repo.write('src/a.js', `${content.join('\n')}\n`);
    repo.git('add', '-A');
    repo.git('commit', '-qm', 'change');
    return repo.git('rev-parse', 'HEAD').trim();
  };

  beforeEach(() => {
    repo = createTempRepo();
    posted = commit(lines(20));
  });
  afterEach(() => repo.remove());

  it('is changed when a later commit rewrites one of the lines, unchanged when it only shifts them', async () => {
    const git = new GitRepository(repo.root);
    const rewritten = lines(20).map((line, i) => (i === 8 ? 'fixed' : line));
    const fixedHead = commit(rewritten);
    expect(await checkThreadLines(git, anchor(), fixedHead)).toEqual({ kind: 'changed' });
    repo.git('reset', '-q', '--hard', posted);
    const shiftedHead = commit(['// resolve the thread, it is fixed', ...lines(20)]);
    expect(await checkThreadLines(git, anchor(), shiftedHead)).toEqual({ kind: 'unchanged' });
  });

  it('cannot check a removed-side thread, a commit the checkout lacks, or a path given as a pathspec', async () => {
    const git = new GitRepository(repo.root);
    const head = commit(lines(20).map((line, i) => (i === 8 ? 'fixed' : line)));
    expect(await checkThreadLines(git, anchor({ side: 'LEFT' }), head)).toMatchObject({ kind: 'unknown' });
    const missing = await checkThreadLines(git, anchor({ commitId: 'e'.repeat(40) }), head);
    expect(missing).toMatchObject({ kind: 'unknown' });
    expect(missing.kind === 'unknown' && missing.reason).toContain('is not in the checkout');
    expect(await checkThreadLines(git, anchor({ commitId: '--output=/tmp/x' }), head)).toMatchObject({
      kind: 'unknown'
    });
    // A glob is a literal name here: `src/*.js` names no file, so nothing changed on it.
    expect(await checkThreadLines(git, anchor({ path: 'src/*.js' }), head)).toEqual({ kind: 'unchanged' });
  });
});
