import { renderReport, type ReportInput } from '../../src/github/report/report.js';
import {
  compareUrl,
  CREATE_PULL_REQUESTS_SETTING,
  renderRequest,
  renderTests
} from '../../src/github/report/report-top.js';
import type { CompactionEvent } from '../../src/compaction/compactor.js';
import { runResult } from '../support/run-result.js';

const compaction: CompactionEvent = {
  turn: 3,
  layer: 'auto',
  reason: 'context ~9000 tokens > threshold 8000',
  tokens_before: 9000,
  tokens_after: 2000,
  results_cleared: 0,
  summary_tokens: 400,
  summary_cost_usd: 0.012,
  duration_ms: 900,
  segment_path: '.transcripts/r/segments/segment-001.json',
  focus: null
};

const base: ReportInput = {
  result: runResult({
    turns: 12,
    usage: { input: 0, cacheWrite: 30_000, cacheRead: 250_000, output: 4000 },
    costUsd: 0.2085,
    summary: 'Fixed the parser. Thanks @someone-else, see #3.',
    contextTokensPerTurn: [1000, 5000, 9000, 2000, 4000],
    compactionLog: [compaction]
  }),
  runUrl: 'https://github.com/octo/repo/actions/runs/42',
  changes: {
    kind: 'pushed',
    branch: 'agent/1-abc',
    base: 'main',
    diffStat: ' a.ts | 2 +-',
    pullRequestUrl: 'https://github.com/octo/repo/pull/7',
    pullRequestError: undefined
  },
  artifact: { kind: 'uploaded', id: 99, url: 'https://github.com/octo/repo/actions/runs/42/artifacts/99' },
  transcriptDir: '.transcripts/42-1',
  transcriptHead: 'a'.repeat(64),
  requester: 'alice',
  request: 'fix the parser on empty input, as @bob said\n\n<github-context>\nIssue #1: …\n</github-context>',
  repositoryUrl: 'https://github.com/octo/repo',
  testRuns: [
    { command: 'npm test', exit: '1', turn: 4 },
    { command: 'npm test -- parser', exit: '0', turn: 9 }
  ]
};

/** Where each marker first appears in the report; -1 when it does not. */
function positions(report: string, markers: readonly string[]): number[] {
  return markers.map((marker) => report.indexOf(marker));
}

describe('the top of the report: what a developer reads', () => {
  it('comes first, in order: status, who asked and what, the pull request, the tests, the cost, then the summary', () => {
    const report = renderReport(base);
    const order = positions(report, [
      '✅ Done',
      '📝 @alice asked: fix the parser on empty input',
      '🔀 Pull request: https://github.com/octo/repo/pull/7',
      '🧪 Tests:',
      '💰 Cost: $0.2085 over 12 turns',
      '### Summary',
      '### Changes'
    ]);
    expect(order.every((at) => at >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(report.split('\n\n').slice(0, 5)).toEqual([
      expect.stringMatching(/^✅ Done · `success` · /),
      '📝 @alice asked: fix the parser on empty input, as @\u2060bob said …',
      '🔀 Pull request: https://github.com/octo/repo/pull/7',
      expect.stringMatching(/^🧪 Tests: /),
      '💰 Cost: $0.2085 over 12 turns (usage below).'
    ]);
  });

  it('folds what explains the run after it: compaction log, chart, usage and the transcript head', () => {
    const report = renderReport(base);
    const changes = report.indexOf('### Changes');
    const folded = positions(report, [
      '<details><summary>Compaction log: 1 (auto 1)</summary>',
      '<details><summary>Context tokens per turn',
      '<details><summary>Usage: ',
      '<details><summary>Transcript head</summary>'
    ]);
    expect(folded.every((at) => at > changes)).toBe(true);
    expect(report).not.toContain('<details open>');
    // Nothing of them is outside a <details>: the chart's fence and the tables sit inside one.
    const outside = report.replace(/<details>[\s\S]*?<\/details>/g, '');
    expect(outside).not.toContain('```mermaid');
    expect(outside).not.toContain('| turns |');
    expect(outside).not.toContain('a'.repeat(64));
  });

  it('mentions the requester once, and nobody the request or the summary names', () => {
    const report = renderReport(base);
    // A live mention: an @ right before a letter or digit (the others have a word joiner after the @).
    const mentions = [...report.matchAll(/(^|[^\w])@([A-Za-z0-9][\w-]*)/g)].map((match) => match[2]);
    expect(mentions).toEqual(['alice']);
  });

  it('names a bot or a malformed login without mentioning it, and leaves out what is not known', () => {
    expect(renderRequest('dependabot[bot]', 'bump it')).toBe('📝 `dependabot[bot]` asked: bump it');
    expect(renderRequest('a--b', 'x')).toBe('📝 `a--b` asked: x');
    expect(renderRequest(undefined, 'fix it')).toBe('📝 Task: fix it');
    expect(renderRequest('alice', undefined)).toBe('Asked by @alice.');
    expect(renderRequest(undefined, '  \n ')).toBe('');
    const long = renderRequest('alice', 'x'.repeat(500));
    expect(long).toBe(`📝 @alice asked: ${'x'.repeat(199)}…`);
  });

  it('on a refused pull request: a compare link from the base to the branch, and the setting named exactly', () => {
    const report = renderReport({
      ...base,
      changes: {
        kind: 'pushed',
        branch: 'agent/1-abc',
        base: 'main',
        diffStat: ' a.ts | 2 +-',
        pullRequestUrl: undefined,
        pullRequestError: 'GitHub Actions is not permitted to create or approve pull requests.'
      }
    });
    const top = report.split('### Summary')[0]!;
    expect(top).toContain(
      '⚠️ No pull request: GitHub Actions is not permitted to create or approve pull requests. Open it from'
    );
    expect(top).toContain('[compare and create](https://github.com/octo/repo/compare/main...agent/1-abc)');
    expect(CREATE_PULL_REQUESTS_SETTING).toBe('Allow GitHub Actions to create and approve pull requests');
    expect(top).toContain(`**${CREATE_PULL_REQUESTS_SETTING}**`);
    expect(report).toContain('Pushed to `agent/1-abc`, without a pull request (see the top).');
  });

  it('builds the compare link on the server it is given, escaping what could end the link', () => {
    expect(compareUrl('https://ghe.example.com/o/r', 'release/1.x', 'agent/fix (2)')).toBe(
      'https://ghe.example.com/o/r/compare/release/1.x...agent/fix%20%282%29'
    );
  });

  it('says which test runs the agent made and how the last one ended', () => {
    expect(renderTests(base.testRuns!)).toBe(
      '🧪 Tests: the last test run, `npm test -- parser` (turn 9), ✅ passed (exit 0). Before it: `npm test` ❌ failed (exit 1).'
    );
    // A pipe or `||` after the tests sets the exit code: a 0 there is not "passed".
    expect(renderTests([{ command: 'npm test 2>&1 | tail -5', exit: '0', turn: 3 }])).toContain(
      '❔ exit 0, but from a `|` or `||` after the tests, not from them'
    );
    expect(renderTests([{ command: 'npm test || true', exit: '0', turn: 3 }])).not.toContain('passed');
    expect(renderTests([{ command: "grep -c 'a|b' log && npm test", exit: '0', turn: 3 }])).toContain(
      '✅ passed (exit 0)'
    );
    expect(renderTests([{ command: 'pytest', exit: 'timeout', turn: 2 }])).toBe(
      '🧪 Tests: the last test run, `pytest` (turn 2), ⏱️ timed out.'
    );
    const many = Array.from({ length: 6 }, (_, turn) => ({ command: `go test ./${turn}`, exit: '2', turn }));
    expect(renderTests(many)).toContain(
      'Before it: `go test ./4` ❌ failed (exit 2); `go test ./3` ❌ failed (exit 2); and 3 earlier.'
    );
    expect(renderTests([])).toBe('🧪 Tests: the agent ran no command that looked like a test run.');
  });

  it('names the branch when a push needed no pull request (its own branch, or pull_request_type branch)', () => {
    const report = renderReport({
      ...base,
      changes: {
        kind: 'pushed',
        branch: 'fix/parser',
        diffStat: '',
        pullRequestUrl: undefined,
        pullRequestError: undefined
      }
    });
    expect(report.split('\n\n')[2]).toBe('🌿 Pushed to `fix/parser`.');
  });

  it('points to the Changes section when the work was not pushed', () => {
    const patch = renderReport({
      ...base,
      changes: {
        kind: 'patch',
        reason: 'the pull request comes from the fork @x/y',
        diffStat: ' a | 1 +',
        patch: '+a'
      }
    });
    expect(patch.split('\n\n')[2]).toBe(
      '📎 Not pushed: the pull request comes from the fork @\u2060x/y. The patch is under Changes.'
    );
    const failed = renderReport({
      ...base,
      changes: { kind: 'failed', error: 'push refused', diffStat: '' }
    });
    expect(failed.split('\n\n')[2]).toBe('⚠️ The changes could not be pushed: Changes below says why.');
    expect(failed).toContain('⚠️ The changes could not be pushed: push refused');
  });

  it('shows no tests line for a read-only run that ran none', () => {
    const review = renderReport({ ...base, changes: { kind: 'read-only', mode: 'review' }, testRuns: [] });
    expect(review).not.toContain('🧪');
    expect(review).not.toContain('🔀');
  });

  it('names the uncached input so, not "input 0"', () => {
    const report = renderReport(base);
    expect(report).toContain('| turns | uncached input | cache write | cache read | output | cost |');
    expect(report).toContain('| 12 | 0 | 30,000 | 250,000 | 4,000 | $0.2085 |');
    expect(report).toContain(
      '<details><summary>Usage: 280,000 input tokens (250,000 read from the cache), 4,000 output, $0.2085</summary>'
    );
    expect(report).not.toMatch(/\| input \|/);
  });
});
