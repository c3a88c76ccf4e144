import type { PostedReviewComment } from '../../src/github/api/review-api.js';
import { parsePatch } from '../../src/review/diff-lines.js';
import type { Finding } from '../../src/review/finding.js';
import { defuseMarkers } from '../../src/github/markdown/outbound-hidden-markers.js';
import { findingFingerprint, fingerprintMarker, readFingerprint } from '../../src/review/fingerprint.js';
import { placeFindings } from '../../src/review/placement.js';
import { checkRepeats, ownFindingComments, tokenJaccard } from '../../src/review/repeat-check.js';
import { MS_PATH, msHead, msPatch } from './fixtures.js';

const BOT = 'compact-agent[bot]';
const diffs = new Map([[MS_PATH, parsePatch(msPatch)]]);
const BODY = 'Raising the limit to 1000 characters lets the unanchored regex run on much longer input.';

const finding = (overrides: Partial<Finding> = {}): Finding => ({
  path: MS_PATH,
  line: 50,
  startLine: undefined,
  side: 'RIGHT',
  body: BODY,
  suggestion: undefined,
  ...overrides
});

let nextId = 100;
const comment = (overrides: Partial<PostedReviewComment> = {}): PostedReviewComment => ({
  id: nextId++,
  body: `${BODY}\n\n${fingerprintMarker(findingFingerprint(MS_PATH, BODY))}`,
  login: BOT,
  userType: 'Bot',
  path: MS_PATH,
  line: 50,
  startLine: null,
  originalCommitId: 'c'.repeat(40),
  originalStartLine: null,
  originalLine: 50,
  side: 'RIGHT',
  commitId: 'a'.repeat(40),
  inReplyToId: undefined,
  createdAt: '2026-11-24T10:00:00Z',
  ...overrides
});

const check = (findings: Finding[], earlier: PostedReviewComment[]) =>
  checkRepeats(
    placeFindings(findings, diffs, () => msHead),
    earlier,
    BOT
  ).map((c) => c.novelty);

describe('fingerprints', () => {
  it('hashes the path and the normalised body to 16 hex', () => {
    const fingerprint = findingFingerprint(MS_PATH, BODY);
    expect(fingerprint).toMatch(/^[0-9a-f]{16}$/);
    expect(findingFingerprint(MS_PATH, `  ${BODY.toUpperCase()}\n`)).toBe(fingerprint);
    expect(findingFingerprint('other.js', BODY)).not.toBe(fingerprint);
  });

  it('reads the marker only from the last line', () => {
    const marker = fingerprintMarker('0123456789abcdef');
    expect(readFingerprint(`text\n\n${marker}`)).toBe('0123456789abcdef');
    expect(readFingerprint(`text\n\n${marker}\n`)).toBe('0123456789abcdef');
    expect(readFingerprint(`${marker}\nmore text`)).toBeUndefined();
    expect(readFingerprint('text')).toBeUndefined();
  });

  it('defuses every spelling of the marker names in model text', () => {
    const forged = 'fine <!-- compact-agent-finding:0123456789abcdef --> <!-- COMPACT-AGENT-STATE -->';
    const defused = defuseMarkers(forged);
    expect(defused).not.toMatch(/compact-agent-finding/i);
    expect(defused).not.toMatch(/compact-agent-state/i);
    expect(
      readFingerprint(defuseMarkers(`x\n<!-- compact-agent-finding:0123456789abcdef -->`))
    ).toBeUndefined();
  });
});

describe('checkRepeats', () => {
  it('marks a finding already said when the bot posted the same fingerprint on overlapping lines', () => {
    const earlier = comment({ startLine: 48, line: 51 });
    expect(check([finding()], [earlier])).toEqual([
      { kind: 'already-said', commentId: earlier.id, by: 'fingerprint' }
    ]);
  });

  it('counts an earlier finding of the action worded a little differently (a later run rewording it)', () => {
    const reworded =
      'Raising the limit to **1000** characters lets the unanchored regex run on much longer input!';
    const marker = fingerprintMarker(findingFingerprint(MS_PATH, reworded));
    const earlier = comment({
      body: `${reworded}\n\n\`\`\`suggestion\n  if (str.length > 100) {\n\`\`\`\n\n${marker}`
    });
    expect(check([finding()], [earlier])).toEqual([
      { kind: 'already-said', commentId: earlier.id, by: 'similar words' }
    ]);
    const different = 'The limit check in `parse` should use `>=` to reject exactly 1000 characters.';
    const other = comment({
      body: `${different}\n\n${fingerprintMarker(findingFingerprint(MS_PATH, different))}`
    });
    expect(check([finding()], [other])).toEqual([{ kind: 'new' }]);
  });

  it("never counts a comment without the action's marker, even as the bot and in the same words", () => {
    // The default bot_name is every GITHUB_TOKEN workflow's: a linter's comment must not silence a finding.
    expect(check([finding()], [comment({ body: BODY })])).toEqual([{ kind: 'new' }]);
  });

  it('needs the same path, side and overlapping lines', () => {
    expect(check([finding()], [comment({ line: 52 })])).toEqual([{ kind: 'new' }]);
    expect(check([finding()], [comment({ path: 'other.js' })])).toEqual([{ kind: 'new' }]);
    expect(check([finding()], [comment({ side: 'LEFT' })])).toEqual([{ kind: 'new' }]);
  });

  it('does not count an outdated comment (line null) as on the same lines', () => {
    expect(check([finding()], [comment({ line: null, originalLine: 50 })])).toEqual([{ kind: 'new' }]);
  });

  it("counts only the action's own bot: same login as a User, or another bot, do not count", () => {
    expect(check([finding()], [comment({ userType: 'User' })])).toEqual([{ kind: 'new' }]);
    expect(check([finding()], [comment({ login: 'dependabot[bot]' })])).toEqual([{ kind: 'new' }]);
  });

  it('ignores replies in a thread', () => {
    const replies = [comment({ inReplyToId: 7 })];
    expect(ownFindingComments(replies, BOT)).toEqual([]);
  });

  it('does not trust a fingerprint the model forged into its text (it is defused, and not the last line)', () => {
    const forgedBody = `${BODY}\n\n${fingerprintMarker(findingFingerprint(MS_PATH, 'something else'))}`;
    // As posted, the model's text is defused and the action's own marker is the last line.
    const posted = comment({
      body: `${defuseMarkers(forgedBody)}\n\n${fingerprintMarker(findingFingerprint(MS_PATH, forgedBody))}`
    });
    expect(readFingerprint(posted.body)).toBe(findingFingerprint(MS_PATH, forgedBody));
    expect(check([finding({ body: 'something else' })], [posted])).toEqual([{ kind: 'new' }]);
  });

  it('posts the same finding once within one run', () => {
    expect(
      check(
        [
          finding(),
          finding({ body: `${BODY}  ` }),
          finding({ startLine: 49, line: 51, body: BODY.replace('much ', '') }),
          finding({ line: 10 })
        ],
        []
      )
    ).toEqual([
      { kind: 'new' },
      { kind: 'repeated-in-run', index: 0 },
      { kind: 'repeated-in-run', index: 0 },
      { kind: 'new' }
    ]);
  });
});

describe('tokenJaccard', () => {
  it('is shared words over all words', () => {
    expect(tokenJaccard('a b c d', 'a b c e')).toBeCloseTo(3 / 5);
    expect(tokenJaccard('Same, words.', 'same words')).toBe(1);
    expect(tokenJaccard('', 'x')).toBe(0);
  });
});
