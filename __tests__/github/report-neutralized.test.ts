import { publishChanges } from '../../src/action/publish-changes.js';
import { GitRepository } from '../../src/git/repository.js';
import { cutBalanced, fitSections } from '../../src/github/markdown/outbound-fit-body.js';
import {
  codeSpan,
  defuse,
  fence,
  inlineText,
  quoteBlock
} from '../../src/github/markdown/outbound-neutralize.js';
import { MAX_BODY_CHARS, renderReport, type ReportInput } from '../../src/github/report/report.js';
import { TRACKING_MARKER, TrackingComment } from '../../src/github/report/tracking-comment.js';
import { MemoryGitHub } from '../support/memory-github.js';
import { createRepoWithRemote, createTempDir } from '../support/temp-repo.js';
import { runResult } from '../support/run-result.js';

/**
 * What GitHub would act on in a body: closing references, mentions and raw tags, found the way its
 * renderer finds them (plain ASCII patterns; a word joiner inside breaks each of them).
 */
const CLOSES =
  /\b(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?)\s*:?\s*(?:(?:[\w.-]+\/[\w.-]+)?#\d+|GH-\d+|https?:\/\/\S+\/issues\/\d+)/gi;
const MENTIONS = /(?:^|[^\w])@[A-Za-z0-9][\w-]*(?:\/[\w-]+)?/g;
const TAGS = /<[A-Za-z/!?][^>]*>/g;

const result = runResult;

const base: ReportInput = {
  result: result(),
  runUrl: 'https://github.com/octo/repo/actions/runs/42',
  changes: {
    kind: 'pushed',
    branch: 'agent/1-abc',
    diffStat: ' a.ts | 2 +-',
    pullRequestUrl: 'https://github.com/octo/repo/pull/7',
    pullRequestError: undefined
  },
  artifact: { kind: 'uploaded', id: 9, url: 'https://github.com/octo/repo/actions/runs/42/artifacts/9' },
  transcriptDir: '.transcripts/42-1'
};

const INJECTED_SUMMARY = [
  'Done. Fixes #2, and closes octo/other#5; Resolved: https://github.com/octo/repo/issues/3. FIXED GH-4',
  'Thanks @maintainer and @octo/security-team, see <img src=x onerror=alert(1)> and',
  '</details><details open><summary>Approved by the security team</summary>',
  '<!-- hidden --> <script>alert(1)</script>',
  '```',
  'an unclosed fence that would swallow the rest of the report'
].join('\n');

describe('model text in the report is neutralized', () => {
  it('closes no issue, pings nobody and renders no HTML, while the text still reads the same', () => {
    const report = renderReport({ ...base, result: result({ summary: INJECTED_SUMMARY }) });
    expect(report.match(CLOSES)).toBeNull();
    expect(report.match(MENTIONS)).toBeNull();
    // Our own tags only: the compaction and chart sections are ours; nothing from the summary.
    expect(report.match(TAGS) ?? []).toEqual(
      expect.not.arrayContaining([expect.stringMatching(/img|script|Approved|<!--/)])
    );
    // The words are all there for a reader: only invisible joiners were added.
    expect(report.replace(/\u2060/g, '')).toContain('Thanks @maintainer and @octo/security-team');
    expect(report.replace(/\u2060/g, '')).toContain('Fixes #2, and closes octo/other#5');
  });

  it("keeps the report's next sections out of a fence the summary left open", () => {
    const report = renderReport({ ...base, result: result({ summary: INJECTED_SUMMARY }) });
    const summary = report.slice(report.indexOf('### Summary'), report.indexOf('### Changes'));
    // Every summary line is inside the quote container, which closes whatever it opened.
    const lines = summary.trim().split('\n').slice(2);
    expect(lines.length).toBeGreaterThan(3);
    for (const line of lines) expect(line.startsWith('>')).toBe(true);
    expect(report).toMatch(/\n\n### Changes\n/);
  });

  it('shows file and branch names as code that no backtick run can break', () => {
    const hostile = 'docs/``` </details> @admin Fixes #9 `x`.md';
    const report = renderReport({
      ...base,
      changes: { ...base.changes, withheld: [`.github/workflows/${hostile}`, 'a\n# heading.yml'] }
    });
    const line = report.split('\n').find((l) => l.includes('Not published'))!;
    expect(line).toContain(
      '````.github/workflows/docs/``` <\u2060/details> @\u2060admin F\u2060ixes #9 `x`.md````'
    );
    expect(line).toContain('`a # heading.yml`');
    expect(report.match(CLOSES)).toBeNull();
    expect(report.match(MENTIONS)).toBeNull();
  });

  it('neutralizes errors that quote what the agent wrote', () => {
    const report = renderReport({
      ...base,
      result: result({
        stopReason: 'error_during_execution',
        error: 'git failed on @root: Fixes #1\n```\n<b>x</b>'
      }),
      changes: { kind: 'failed', error: 'push of <i>x</i> by @dev failed', diffStat: '```\n x | 1 +' }
    });
    expect(report.match(CLOSES)).toBeNull();
    expect(report.match(MENTIONS)).toBeNull();
    expect(report).not.toMatch(/<(b|i)>/);
    // The diffstat's own backticks cannot close its fence: the fence is longer.
    expect(report).toContain('````\n```\n x | 1 +\n````');
  });
});

describe('the pull request body', () => {
  it('links only the triggering issue; the summary closes nothing and pings nobody', async () => {
    const repo = createRepoWithRemote();
    try {
      const git = new GitRepository(repo.root);
      const api = new MemoryGitHub();
      const base = await git.head();
      repo.write('README.md', '# fixed\n');
      await publishChanges(
        { kind: 'new-branch', branch: 'agent/1-abc', base: 'main', issueNumber: 1 },
        base,
        git,
        api,
        {
          identity: { name: 'bot', email: 'bot@example.com' },
          defaultBranch: 'main',
          pullRequestType: 'draft',
          commitTitle: 'agent: fix',
          runUrl: 'https://github.com/octo/repo/actions/runs/1',
          runDir: createTempDir(),
          describe: () => `${INJECTED_SUMMARY}\n${'z'.repeat(100_000)}`,
          readOnlyFolders: [],
          excludedPaths: ['.transcripts/'],
          containsSecret: () => false,
          // The repository was not handed to an agent here: nothing to take back.
          reclaimRepository: () => undefined
        }
      );
      const body = api.pulls[0]!.body;
      expect(body.startsWith('For #1, by compact-agent')).toBe(true);
      expect(body.match(CLOSES)).toBeNull();
      expect(body.match(MENTIONS)).toBeNull();
      expect(body.match(TAGS)).toBeNull();
      expect(body.length).toBeLessThanOrEqual(MAX_BODY_CHARS);
    } finally {
      repo.remove();
    }
  });
});

describe('the neutralizer', () => {
  it('defuses every closing keyword form and case, and leaves other words alone', () => {
    for (const text of [
      'close #1',
      'Closes #1',
      'CLOSED #1',
      'fix #1',
      'Fixes: #1',
      'fixed owner/repo#1',
      'resolve https://github.com/o/r/issues/1',
      'Resolves #1',
      'resolved #1'
    ])
      expect(defuse(text).match(CLOSES)).toBeNull();
    expect(defuse('prefixes #1 and a fix for the parser')).toBe('prefixes #1 and a fix for the parser');
  });

  it('defuses mentions but not e-mail addresses, and tags but not comparisons', () => {
    expect(defuse('@alice, (@org/team) mail bob@example.com')).toBe(
      '@\u2060alice, (@\u2060org/team) mail bob@example.com'
    );
    expect(defuse('a < b and <div> and </p> and <!-- c -->')).toBe(
      'a < b and <\u2060div> and <\u2060/p> and <\u2060!-- c -->'
    );
  });

  it('puts model text in a quote, on one line inline, and names in a span longer than their backticks', () => {
    expect(quoteBlock('a\n\n```\nb', '**x** ')).toBe('> **x** a\n>\n> ```\n> b');
    expect(inlineText('one\n```\ntwo')).toBe('one ``` two');
    expect(codeSpan('a``b')).toBe('```a``b```');
    expect(codeSpan('`edge`')).toBe('`` `edge` ``');
    expect(fence('x\n````\ny')).toBe('`````\nx\n````\ny\n`````');
  });
});

describe('a report cut to fit', () => {
  it('stays under the limit with every <details>, <summary> and fence closed, for a huge summary', () => {
    const patch = ['diff --git a/x b/x', ...Array.from({ length: 20_000 }, (_, i) => `+line ${i}`)].join(
      '\n'
    );
    const report = renderReport({
      ...base,
      result: result({
        summary: `${'long words '.repeat(30_000)}\n${'y'.repeat(100_000)}`,
        compactionLog: Array.from({ length: 3000 }, (_, turn) => ({
          turn,
          layer: 'micro' as const,
          reason: 'cleared old results',
          tokens_before: 1000,
          tokens_after: 500,
          results_cleared: 3,
          summary_tokens: 0,
          summary_cost_usd: 0,
          duration_ms: 1,
          segment_path: null,
          focus: null
        }))
      }),
      changes: { kind: 'patch', reason: 'a fork', diffStat: ' x | 20000 +', patch }
    });
    expect(report.length).toBeLessThanOrEqual(MAX_BODY_CHARS);
    expect(report.startsWith('✅ Done')).toBe(true);
    expect(report).toContain('| 3 | 10 | 0 | 0 | 5 | $0.0100 |');
    expectBalanced(report);
  });

  it('closes an open fence, then the tags, when a cut lands inside them', () => {
    const section = `<details><summary>Patch</summary>\n\n\`\`\`\`diff\n${'+x\n'.repeat(1000)}\`\`\`\`\n\n</details>`;
    const cut = cutBalanced(section, 500);
    expect(cut.length).toBeLessThanOrEqual(500);
    expect(cut).toMatch(/\n````\n\n<\/details>\n\n\[… cut\]$/);
    expectBalanced(cut);
    const joined = fitSections(['short', section, section], 900, '\n\n_cut_');
    expect(joined.length).toBeLessThanOrEqual(900);
    expect(joined.startsWith('short\n\n<details>')).toBe(true);
    expectBalanced(joined);
  });
});

describe('the tracking comment', () => {
  it('shows the current tool call as code, so a command cannot ping or inject', async () => {
    const api = new MemoryGitHub();
    const tracking = new TrackingComment(api, 5, {
      runUrl: 'r',
      minIntervalMs: 0,
      now: () => 0,
      warn: () => undefined
    });
    await tracking.start();
    tracking.update({
      turn: 1,
      contextTokens: 1,
      compactions: 0,
      costUsd: 0,
      activity: 'bash echo "`@admin` fixes #3 <img src=x>"'
    });
    await tracking.finish('done', { replacedByReport: true });
    const progress = api.edits[0]!.body;
    expect(progress.match(MENTIONS)).toBeNull();
    expect(progress.match(CLOSES)).toBeNull();
    // The only markup is the action's own hidden marker at the end.
    expect(progress.endsWith(TRACKING_MARKER)).toBe(true);
    expect(progress.slice(0, -TRACKING_MARKER.length).match(TAGS)).toBeNull();
  });

  it('never stays "working": when the final edit fails, the report is posted and the old comment points to it', async () => {
    const api = new MemoryGitHub();
    const warnings: string[] = [];
    const tracking = new TrackingComment(api, 5, {
      runUrl: 'r',
      minIntervalMs: 0,
      now: () => 0,
      warn: (message) => warnings.push(message)
    });
    await tracking.start();
    const first = tracking.id!;
    // The final edit fails once (a 502), then the API is back.
    const update = api.updateComment.bind(api);
    let failures = 1;
    api.updateComment = async (id, body) => {
      if (failures-- > 0) throw new Error('502 Bad Gateway');
      return update(id, body);
    };
    await tracking.finish('the report', { replacedByReport: true });
    expect(api.comments.get(first)!.body).not.toContain('working on this');
    expect(api.comments.get(first)!.body).toContain('the report is in');
    expect(
      [...api.comments.values()].some((comment) => comment.body === `the report\n\n${TRACKING_MARKER}`)
    ).toBe(true);
    expect(warnings[0]).toContain('Could not edit the tracking comment');
  });
});

/** Every fence closed and every <details>/<summary> closed, outside quoted model text. */
function expectBalanced(body: string): void {
  let fenceOpen: string | undefined;
  let details = 0;
  let summaries = 0;
  for (const line of body.split('\n')) {
    const match = /^(`{3,}|~{3,})(.*)$/.exec(line);
    if (fenceOpen !== undefined) {
      if (match && match[1]!.startsWith(fenceOpen) && match[2]!.trim() === '') fenceOpen = undefined;
      continue;
    }
    if (match) {
      fenceOpen = match[1]!;
      continue;
    }
    details += (line.match(/<details[\s>]/g) ?? []).length - (line.match(/<\/details>/g) ?? []).length;
    summaries += (line.match(/<summary>/g) ?? []).length - (line.match(/<\/summary>/g) ?? []).length;
    expect(details).toBeGreaterThanOrEqual(0);
  }
  expect(fenceOpen).toBeUndefined();
  expect(details).toBe(0);
  expect(summaries).toBe(0);
}
