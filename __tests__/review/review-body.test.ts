import type { PostedReviewComment, ReviewFile } from '../../src/github/api/review-api.js';
import type { Finding } from '../../src/review/finding.js';
import { findingFingerprint, fingerprintMarker, readFingerprint } from '../../src/review/fingerprint.js';
import { placeFindings } from '../../src/review/placement.js';
import { checkRepeats } from '../../src/review/repeat-check.js';
import { assembleReview, type ReviewInput } from '../../src/review/review-body.js';
import { selectReviewedFiles } from '../../src/review/reviewed-files.js';
import { MS_PATH, msHead, msPatch } from './fixtures.js';

const BOT = 'compact-agent[bot]';
const HEAD = '5f3c0de1a2b3c4d5e6f708192a3b4c5d6e7f8091';
const TOKEN = 'ghp_abcdefghijklmnopqrstuvwxyz0123456789';
const redact = (text: string) => text.replaceAll(TOKEN, '***');
const files: ReviewFile[] = [
  { filename: MS_PATH, status: 'modified', previousFilename: undefined, patch: msPatch },
  { filename: 'logo.png', status: 'added', previousFilename: undefined, patch: undefined }
];

const finding = (overrides: Partial<Finding> = {}): Finding => ({
  path: MS_PATH,
  line: 50,
  startLine: undefined,
  side: 'RIGHT',
  body: 'A limit of 1000 characters lets the unanchored regex run on long input.',
  suggestion: undefined,
  ...overrides
});

function assemble(
  findings: Finding[],
  options: {
    earlier?: PostedReviewComment[];
    files?: ReviewFile[];
    maxFiles?: number;
  } & Partial<ReviewInput> = {}
) {
  const selected = selectReviewedFiles(options.files ?? files, options.maxFiles);
  const placed = placeFindings(findings, selected.diffs, (path) => (path === MS_PATH ? msHead : undefined));
  return assembleReview({
    commitId: HEAD,
    checked: checkRepeats(placed, options.earlier ?? [], BOT),
    skippedFiles: selected.skipped,
    reviewedFileCount: selected.reviewed.length,
    redact,
    ...options
  });
}

describe('assembleReview', () => {
  it('posts inline findings as line comments of one COMMENT review on the head', () => {
    const { review, summary } = assemble([
      finding(),
      finding({
        startLine: 157,
        line: 162,
        body: 'Keep the final newline: editors and `git diff` flag its absence.'
      })
    ]);
    expect(review).toMatchObject({ commitId: HEAD, event: 'COMMENT' });
    expect(review!.comments.map(({ body: _body, ...where }) => where)).toEqual([
      { path: MS_PATH, line: 50, side: 'RIGHT' },
      { path: MS_PATH, line: 162, side: 'RIGHT', startLine: 157, startSide: 'RIGHT' }
    ]);
    const first = review!.comments[0]!.body;
    expect(first.startsWith('A limit of 1000 characters')).toBe(true);
    expect(readFingerprint(first)).toBe(findingFingerprint(MS_PATH, finding().body));
    expect(summary).toMatchObject({ inline: 2, inBody: 0, alreadySaid: 0, bodyCut: false });
  });

  it('puts the suggestion block after the body and before the marker', () => {
    const { review } = assemble([
      finding({ startLine: 50, line: 51, suggestion: '  if (str.length > 100) {\n    return;' })
    ]);
    const body = review!.comments[0]!.body;
    expect(body).toBe(
      [
        finding().body,
        '```suggestion\n  if (str.length > 100) {\n    return;\n```',
        fingerprintMarker(findingFingerprint(MS_PATH, finding().body))
      ].join('\n\n')
    );
  });

  it('moves a finding off the diff to the body, with its location, reason and plain suggestion', () => {
    const { review, summary } = assemble([finding({ line: 40, suggestion: '    return n;' })]);
    expect(review!.comments).toEqual([]);
    expect(review!.body).toContain('### Not on the diff');
    expect(review!.body).toContain('`index.js:40`: line 40 is not part of the diff.');
    expect(review!.body).toContain('> A limit of 1000 characters');
    expect(review!.body).toContain(
      'Suggested replacement (not applicable as a suggestion: the finding is not on the diff), for line 40:\n\n```\n    return n;\n```'
    );
    expect(summary.bodyFindings).toEqual([
      { location: 'index.js:40', reason: 'line 40 is not part of the diff' }
    ]);
    expect(review!.body.split('\n')[0]).toBe(
      '**Review of `5f3c0de`**: 0 comments on the diff, 1 finding in this body, 0 already said in earlier comments.'
    );
  });

  it('redacts secrets and neutralises mentions, closing keywords and tags in model text', () => {
    const body = `@octocat this fixes #12: the token ${TOKEN} is logged <img src=x onerror=alert(1)>`;
    const { review } = assemble([finding({ body }), finding({ line: 40, body })], {
      focus: `@admins ${TOKEN}`
    });
    for (const text of [review!.comments[0]!.body, review!.body]) {
      expect(text).not.toContain(TOKEN);
      expect(text).toContain('***');
      expect(text).not.toMatch(/(^|[^\w])@octocat/);
      expect(text).not.toMatch(/fixes #12/);
      expect(text).not.toContain('<img');
    }
    expect(review!.body).not.toMatch(/(^|[^\w])@admins/);
  });

  it('shows a redacted suggestion as plain text, not as a fix to commit', () => {
    const { review } = assemble([finding({ suggestion: `  const token = '${TOKEN}';` })]);
    const body = review!.comments[0]!.body;
    expect(body).not.toContain('```suggestion');
    expect(body).toContain('not applicable as a suggestion: it held text the action redacts');
    expect(body).not.toContain(TOKEN);
  });

  it("defuses a marker the model forged, so the comment's marker is the action's", () => {
    const forged = `Looks fine.\n\n${fingerprintMarker('0123456789abcdef')}`;
    const { review } = assemble([finding({ body: forged })]);
    const body = review!.comments[0]!.body;
    expect(body.match(/compact-agent-finding/g)).toHaveLength(1);
    expect(readFingerprint(body)).toBe(findingFingerprint(MS_PATH, forged));
  });

  it('closes a code fence the model left open, so the marker stays hidden', () => {
    const { review } = assemble([finding({ body: 'Try:\n~~~js\nms("1h")' })]);
    const body = review!.comments[0]!.body;
    expect(body).toContain('ms("1h")\n~~~\n\n<!--');
  });

  it('leaves out what was already said and counts it; nothing new means no review', () => {
    const earlier: PostedReviewComment = {
      id: 7,
      body: `${finding().body}\n\n${fingerprintMarker(findingFingerprint(MS_PATH, finding().body))}`,
      login: BOT,
      userType: 'Bot',
      path: MS_PATH,
      line: 50,
      startLine: null,
      originalCommitId: 'c'.repeat(40),
      originalStartLine: null,
      originalLine: 50,
      side: 'RIGHT',
      commitId: HEAD,
      inReplyToId: undefined,
      createdAt: '2026-11-24T10:00:00Z'
    };
    const { review, summary } = assemble([finding(), finding()], { earlier: [earlier] });
    expect(review).toBeUndefined();
    expect(summary).toMatchObject({
      inline: 0,
      inBody: 0,
      alreadySaid: 2,
      alreadySaidFindings: [
        { location: 'index.js:50', commentId: 7 },
        { location: 'index.js:50', commentId: 7 }
      ]
    });
    const mixed = assemble([finding(), finding({ line: 10, body: 'A comment on the constant.' })], {
      earlier: [earlier]
    });
    expect(mixed.review!.comments).toHaveLength(1);
    expect(mixed.review!.body).toContain(
      '1 comment on the diff, 0 findings in this body, 1 already said in earlier comments'
    );
  });

  it('posts a finding recorded twice in the run once', () => {
    const { review, summary } = assemble([finding(), finding()]);
    expect(review!.comments).toHaveLength(1);
    expect(summary.repeatedInRun).toBe(1);
  });

  it('names the files it skipped: no diff, and beyond the cap of a large pull request', () => {
    const many: ReviewFile[] = Array.from({ length: 103 }, (_, index) => ({
      filename: `src/module-${index + 1}.js`,
      status: 'modified',
      previousFilename: undefined,
      patch: '@@ -1 +1 @@\n-var s = 1000;\n+const s = 1000;'
    }));
    const { summary, review } = assemble([finding({ path: 'src/module-1.js', line: 1 })], {
      files: [...many, files[1]!],
      maxFiles: 100
    });
    expect(summary.skippedFiles).toEqual([
      { path: 'logo.png', reason: 'no-diff' },
      { path: 'src/module-101.js', reason: 'over-cap' },
      { path: 'src/module-102.js', reason: 'over-cap' },
      { path: 'src/module-103.js', reason: 'over-cap' }
    ]);
    expect(review!.body).toContain('### Files not reviewed');
    expect(review!.body).toContain('- No diff from GitHub (binary or too large): `logo.png`');
    expect(review!.body).toContain(
      '- Beyond the first 100 files this review covers (3 more): `src/module-101.js`, `src/module-102.js`, `src/module-103.js`'
    );
  });

  it('cuts a body over the limit and says so, keeping the summary line', () => {
    const findings = Array.from({ length: 30 }, (_, index) =>
      finding({
        line: 60 + index,
        body: `Finding ${index}: ${'the regex backtracks on long input. '.repeat(100)}`
      })
    );
    const { review, summary } = assemble(findings);
    expect(review!.body.length).toBeLessThanOrEqual(65_000);
    expect(
      review!.body.startsWith('**Review of `5f3c0de`**: 0 comments on the diff, 30 findings in this body')
    ).toBe(true);
    expect(review!.body).toContain("This review body was cut to fit GitHub's limit of 65,536 characters");
    expect(summary).toMatchObject({ inBody: 30, bodyCut: true });
    expect(summary.bodyFindings).toHaveLength(30);
  });
});
