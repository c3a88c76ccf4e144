/**
 * `compact-agent review` from the real entry point (src/ through tsx) against the fake Anthropic
 * server, on a real repository whose branch brings back word-stats' word-count defect.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { EXIT } from '../../src/cli/exit-codes.js';
import { GitRepository } from '../../src/git/repository.js';
import type { FindingJson } from '../../src/review/findings-output.js';
import {
  readLocalReviewContext,
  resolveReviewRange,
  ReviewRangeError
} from '../../src/review/local-context.js';
import {
  lastUserText,
  reply,
  startFakeAnthropic,
  systemText,
  text,
  toolNames,
  toolResultTexts,
  toolUse,
  type FakeAnthropic,
  type ParsedRequest
} from '../../test-support/fake-anthropic/index.js';
import { cliEnv, spawnCli } from '../support/cli.js';
import { createTempRepo, type TempRepo } from '../support/temp-repo.js';

const EXAMPLE = path.resolve('examples/word-stats/src/word-count.js');
/** The example's defect: split(' ') counts "a  b" as three words. The base has the fix. */
const DEFECT = "  return text.trim().split(' ').length;";
const FIXED = '  return text.trim().split(/\\s+/).length;';
const SUMMARY = 'One real bug: countWords splits on single spaces again.';

let repo: TempRepo;
let fake: FakeAnthropic;

/** The scripted reviewer: two findings on its first turn, then the summary once it has their answers. */
function reviewer(request: ParsedRequest) {
  if (toolResultTexts(request).length > 0) return reply(text(SUMMARY));
  return reply(
    text('Recording what I found.'),
    toolUse('record_finding', {
      path: 'src/word-count.js',
      line: 8,
      body: "Splitting on ' ' counts runs of spaces, tabs and newlines as extra words.",
      suggestion: FIXED
    }),
    toolUse('record_finding', {
      path: './src/word-count.js',
      line: 19,
      body: 'countLines treats a lone "\\r\\n" ending as a line of its own.'
    })
  );
}

beforeEach(async () => {
  repo = createTempRepo();
  const example = readFileSync(EXAMPLE, 'utf8');
  expect(example).toContain(DEFECT);
  repo.write('src/word-count.js', example.replace(DEFECT, FIXED));
  repo.write('README.md', '# word stats\n');
  repo.git('add', '-A');
  repo.git('commit', '-qm', 'word count that splits on any whitespace');
  repo.git('checkout', '-qb', 'simplify');
  repo.write('src/word-count.js', example);
  repo.write('logo.bin', '\u0000\u0001binary\u0000');
  repo.git('add', '-A');
  repo.git('commit', '-qm', 'simplify the word count');
  fake = await startFakeAnthropic({ script: reviewer });
});
afterEach(async () => {
  await fake.close();
  repo.remove();
});

const cli = (...args: string[]) =>
  spawnCli(args, { env: cliEnv({ ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: fake.url }) });

const modelCalls = () => fake.requests.filter((request) => request.path === '/v1/messages');

/** What a review must leave as it was: the commits, the branches, the index and the tracked files. */
function repositoryState() {
  return {
    head: repo.git('rev-parse', 'HEAD'),
    refs: repo.git('for-each-ref', '--format=%(refname) %(objectname)'),
    status: repo
      .git('status', '--porcelain', '--untracked-files=all')
      .split('\n')
      .filter((line) => line !== '' && !line.startsWith('?? .transcripts/')),
    file: readFileSync(path.join(repo.root, 'src/word-count.js'), 'utf8')
  };
}

describe('compact-agent review', () => {
  it('prints the findings as JSON with their placement, read-only, changing nothing', async () => {
    const before = repositoryState();
    const run = await cli('review', '--repo', repo.root, '--base', 'main', '--format', 'json');
    expect(run.stderr).toContain('Reviewing 1 changed file(s)');
    expect(run.code).toBe(EXIT.success);

    const output = JSON.parse(run.stdout) as {
      findings: FindingJson[];
      skipped_files: unknown[];
      summary: string;
      stop_reason: string;
      cost_usd: number;
      head: string;
      merge_base: string;
      transcript: string;
    };
    expect(output.findings).toEqual([
      {
        path: 'src/word-count.js',
        line: 8,
        start_line: null,
        side: 'RIGHT',
        body: "Splitting on ' ' counts runs of spaces, tabs and newlines as extra words.",
        suggestion: FIXED,
        placement: { where: 'inline', reason: null, suggestion_applicable: true, suggestion_reason: null }
      },
      {
        path: 'src/word-count.js',
        line: 19,
        start_line: null,
        side: 'RIGHT',
        body: 'countLines treats a lone "\\r\\n" ending as a line of its own.',
        suggestion: null,
        placement: {
          where: 'body',
          reason: 'line 19 is not part of the diff',
          suggestion_applicable: null,
          suggestion_reason: null
        }
      }
    ]);
    expect(output.skipped_files).toEqual([{ path: 'logo.bin', reason: 'no-diff' }]);
    expect(output.summary).toBe(SUMMARY);
    expect(output.stop_reason).toBe('success');
    expect(output.cost_usd).toBeGreaterThan(0);
    expect(output.head).toBe(before.head.trim());
    expect(output.merge_base).toBe(repo.git('rev-parse', 'main').trim());
    expect(existsSync(output.transcript)).toBe(true);
    expect(path.dirname(path.dirname(output.transcript))).toBe(path.join(repo.root, '.transcripts'));

    // Every request: the read-only rules, no writing tool, the finding tool.
    const calls = modelCalls();
    expect(calls).toHaveLength(2);
    for (const call of calls) {
      expect(systemText(call.request!)).toContain('This run is read-only');
      expect(toolNames(call.request!)).not.toContain('write_file');
      expect(toolNames(call.request!)).not.toContain('edit_file');
      expect(toolNames(call.request!)).toContain('record_finding');
    }
    // The first message: the local range instead of a pull request, and the patch from the first @@.
    const task = lastUserText(calls[0]!.request!);
    expect(task).toMatch(/^Review the changes of commit [0-9a-f]{40} \(HEAD\) since its merge base/);
    expect(task).not.toContain('pull request #0');
    expect(task).toContain(`src/word-count.js (modified):\n\`\`\`diff\n@@ -5,7 +5,7 @@`);
    expect(task).toContain(`-${FIXED}\n+${DEFECT}`);
    expect(task).toContain('logo.bin (GitHub shows no diff)');
    // The tool told the model the same placement.
    const [inline, inBody] = toolResultTexts(calls[1]!.request!);
    expect(inline).toContain('it will be an inline comment on the diff');
    expect(inBody).toContain('it will go in the review body, because line 19 is not part of the diff');

    expect(repositoryState()).toEqual(before);
    expect(readdirSync(path.join(repo.root, '.transcripts'))).toHaveLength(1);
  });

  it('prints the findings as text: place, reason, body and suggestion', async () => {
    // An edit not committed is not reviewed, and is said so.
    repo.write('README.md', '# word stats, edited\n');
    const run = await cli('review', '--repo', repo.root, '--base', 'main', '--focus', 'word counting');
    expect(run.code).toBe(EXIT.success);
    expect(run.stderr).toContain('The working tree has uncommitted changes: they are not reviewed');
    expect(run.stderr).toMatch(/^\[turn 1\]/m);
    const [first, ...rest] = run.stdout.split('\n');
    expect(first).toMatch(/^2 findings \(1 inline, 1 in the body\) on HEAD [0-9a-f]{7}, against main /);
    expect(rest.join('\n')).toContain(
      [
        '',
        '1. src/word-count.js:8 (RIGHT): inline',
        "   Splitting on ' ' counts runs of spaces, tabs and newlines as extra words.",
        '   Suggestion (a one-click suggestion):',
        `     ${FIXED}`,
        '',
        '2. src/word-count.js:19 (RIGHT): in the body, because line 19 is not part of the diff',
        '   countLines treats a lone "\\r\\n" ending as a line of its own.',
        '',
        'Not reviewed (1): logo.bin (no diff: binary, or only its mode changed)',
        '',
        'Summary:',
        `  ${SUMMARY}`,
        '',
        'stop reason: success'
      ].join('\n')
    );
    expect(lastUserText(modelCalls()[0]!.request!)).toContain(
      'The maintainer asks you to focus on: word counting'
    );
  });

  it('refuses a --base that does not resolve, and a bad --format, before any model call', async () => {
    const badBase = await cli('review', '--repo', repo.root, '--base', 'no-such-branch');
    expect(badBase.code).toBe(EXIT.usage);
    expect(badBase.stderr).toContain(
      'compact-agent review: --base no-such-branch: "no-such-branch" is no commit of this repository.'
    );
    const optionLike = await cli('review', '--repo', repo.root, '--base=--output=/tmp/x');
    expect(optionLike.code).toBe(EXIT.usage);
    expect(optionLike.stderr).toContain('--base --output=/tmp/x: "--output=/tmp/x" is no commit');
    const noBase = await cli('review', '--repo', repo.root);
    expect(noBase.code).toBe(EXIT.usage);
    expect(noBase.stderr).toContain('No base: pass --base REF');
    const badFormat = await cli('review', '--repo', repo.root, '--base', 'main', '--format', 'yaml');
    expect(badFormat.code).toBe(EXIT.usage);
    expect(badFormat.stderr).toContain('--format is "yaml"; it takes text or json');
    expect(modelCalls()).toHaveLength(0);
    expect(existsSync(path.join(repo.root, '.transcripts'))).toBe(false);
  });
});

describe('the local review context', () => {
  it('lists renames as pairs with the edit alone, names with spaces, and binary files without a patch', async () => {
    const topWords = readFileSync(path.resolve('examples/word-stats/src/top-words.js'), 'utf8');
    repo.git('checkout', '-q', 'main');
    repo.write('src/top-words.js', topWords);
    repo.write('notes/to do.md', 'one\n');
    repo.git('add', '-A');
    repo.git('commit', '-qm', 'more');
    repo.git('checkout', '-q', 'simplify');
    repo.git('merge', '-q', '--no-edit', 'main');
    repo.git('mv', 'src/top-words.js', 'src/top.js');
    repo.write('src/top.js', topWords.replace('most frequent first', 'most frequent words first'));
    repo.write('notes/to do.md', 'one\ntwo\n');
    repo.git('add', '-A');
    repo.git('commit', '-qm', 'rename');

    const git = new GitRepository(repo.root);
    const range = await resolveReviewRange(git, 'main');
    expect(range.mergeBase).toBe(repo.git('rev-parse', 'main').trim());
    const context = await readLocalReviewContext(git, range);
    const byName = new Map(context.files.reviewed.map((file) => [file.filename, file]));
    expect([...byName.keys()].sort()).toEqual(['notes/to do.md', 'src/top.js', 'src/word-count.js']);
    expect(byName.get('src/top.js')).toMatchObject({
      status: 'renamed',
      previousFilename: 'src/top-words.js'
    });
    expect(byName.get('src/top.js')!.patch).toMatch(/^@@ -1,5 \+1,5 @@\n/);
    expect(byName.get('src/top.js')!.patch).toContain('+ * The `limit` most frequent words');
    expect(byName.get('notes/to do.md')!.patch).toBe('@@ -1 +1,2 @@\n one\n+two');
    expect(context.files.skipped).toEqual([{ path: 'logo.bin', reason: 'no-diff' }]);
    expect(context.files.diffs.get('src/word-count.js')!.right.has(8)).toBe(true);
    expect(context).toMatchObject({ headSha: range.headSha, earlierComments: [], candidates: [] });

    await expect(resolveReviewRange(git, 'HEAD~99')).rejects.toThrow(ReviewRangeError);
    repo.git('checkout', '-q', '--orphan', 'unrelated');
    repo.git('commit', '-qm', 'unrelated');
    await expect(resolveReviewRange(git, 'main')).rejects.toThrow('share no history');
  });
});
