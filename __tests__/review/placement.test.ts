import { EMPTY_DIFF, parsePatch, type FileDiff } from '../../src/review/diff-lines.js';
import type { Finding } from '../../src/review/finding.js';
import {
  placeFinding,
  placeFindings,
  suggestionMarkdown,
  type PlacedFinding
} from '../../src/review/placement.js';
import { MS_PATH, msHead, msPatch } from './fixtures.js';

const diff = parsePatch(msPatch);
const diffs = new Map<string, FileDiff>([
  [MS_PATH, diff],
  ['logo.png', EMPTY_DIFF]
]);
const readHead = (path: string) => (path === MS_PATH ? msHead : undefined);

const finding = (overrides: Partial<Finding>): Finding => ({
  path: MS_PATH,
  line: 50,
  startLine: undefined,
  side: 'RIGHT',
  body: 'A limit of 1000 characters lets the unanchored regex run on long input.',
  suggestion: undefined,
  ...overrides
});
const place = (overrides: Partial<Finding>): PlacedFinding =>
  placeFinding(finding(overrides), diffs.get(finding(overrides).path), readHead);

describe('where a finding goes', () => {
  it('goes inline on an added line, and on a range inside one hunk', () => {
    expect(place({})).toMatchObject({ where: 'inline' });
    expect(place({ startLine: 47, line: 54 })).toMatchObject({ where: 'inline' });
  });

  it('goes inline on a deleted line on the LEFT side (base numbers)', () => {
    // Base line 51 is `    return;`, which the head replaced.
    expect(place({ side: 'LEFT', line: 51 })).toMatchObject({ where: 'inline' });
    // Base line 162 is the final `}` the head rewrote without its newline.
    expect(place({ side: 'LEFT', line: 162 })).toMatchObject({ where: 'inline' });
    expect(place({ side: 'LEFT', line: 100 })).toMatchObject({
      where: 'body',
      reason: 'line 100 of the base is not part of the diff'
    });
  });

  it('goes in the body when a line is outside the diff', () => {
    expect(place({ line: 40 })).toMatchObject({ where: 'body', reason: 'line 40 is not part of the diff' });
    expect(place({ startLine: 45, line: 48 })).toMatchObject({ reason: 'line 45 is not part of the diff' });
  });

  it('goes in the body when a range spans two hunks', () => {
    expect(place({ startLine: 10, line: 50 })).toMatchObject({
      where: 'body',
      reason: 'lines 10-50 span two hunks'
    });
  });

  it('goes in the body for a file the pull request does not change, or one without a diff', () => {
    expect(place({ path: 'readme.md', line: 1 })).toMatchObject({
      where: 'body',
      reason: 'the file is not changed in this pull request'
    });
    expect(place({ path: 'logo.png', line: 1 })).toMatchObject({
      where: 'body',
      reason: 'GitHub shows no diff for the file (binary or too large)'
    });
  });

  it('places a list in order', () => {
    const placed = placeFindings([finding({}), finding({ line: 40 })], diffs, readHead);
    expect(placed.map((p) => p.where)).toEqual(['inline', 'body']);
  });
});

describe('suggestions', () => {
  it('stays a suggestion when it applies cleanly to the head', () => {
    const placed = place({
      startLine: 50,
      line: 52,
      suggestion: '  if (str.length > 100) {\n    return;\n  }'
    });
    expect(placed.suggestion).toEqual({
      kind: 'applicable',
      text: '  if (str.length > 100) {\n    return;\n  }'
    });
    expect(suggestionMarkdown(placed.suggestion!, placed.finding)).toBe(
      '```suggestion\n  if (str.length > 100) {\n    return;\n  }\n```'
    );
  });

  it('renders an empty suggestion as one that deletes the lines', () => {
    const placed = place({ line: 10, suggestion: '' });
    expect(suggestionMarkdown(placed.suggestion!, placed.finding)).toBe('```suggestion\n```');
  });

  it('uses a fence longer than any backtick run inside', () => {
    const text = '  // Parse "```js" blocks and `ms` values; ````` is five';
    const placed = place({ line: 48, suggestion: text });
    expect(suggestionMarkdown(placed.suggestion!, placed.finding)).toBe(
      `\`\`\`\`\`\`suggestion\n${text}\n\`\`\`\`\`\``
    );
  });

  it('becomes plain text when it is the same as the current lines', () => {
    const placed = place({ line: 51, suggestion: '    return undefined;' });
    expect(placed.suggestion).toEqual({
      kind: 'plain',
      text: '    return undefined;',
      reason: 'it is the same as the current lines'
    });
    expect(suggestionMarkdown(placed.suggestion!, placed.finding)).toBe(
      'Suggested replacement (not applicable as a suggestion: it is the same as the current lines), for line 51:\n\n```\n    return undefined;\n```'
    );
  });

  it('becomes plain text when the head no longer matches the diff', () => {
    const changedHead = msHead.replace('if (str.length > 1000) {', 'if (str.length > 500) {');
    const placed = placeFinding(
      finding({ suggestion: '  if (str.length > 100) {' }),
      diff,
      () => changedHead
    );
    expect(placed.suggestion).toMatchObject({
      kind: 'plain',
      reason: "the head's lines differ from the diff's (the file changed since)"
    });
    expect(placeFinding(finding({ suggestion: 'x' }), diff, () => undefined).suggestion).toMatchObject({
      reason: "the head's text of the file could not be read"
    });
    expect(
      placeFinding(finding({ line: 160, suggestion: 'x' }), diff, () =>
        msHead.split('\n').slice(0, 100).join('\n')
      ).suggestion
    ).toMatchObject({
      reason: 'the head has no line 160'
    });
  });

  it('becomes plain text on deleted lines and when the finding is not on the diff', () => {
    const left = place({ side: 'LEFT', line: 51, suggestion: '    return null;' });
    expect(left).toMatchObject({ where: 'inline', suggestion: { kind: 'plain' } });
    expect(left.suggestion).toMatchObject({ reason: expect.stringContaining('deleted lines') });
    const body = place({ startLine: 40, line: 41, suggestion: '' });
    expect(body).toMatchObject({
      where: 'body',
      suggestion: { kind: 'plain', reason: 'the finding is not on the diff' }
    });
    expect(suggestionMarkdown(body.suggestion!, body.finding)).toBe(
      'Suggested replacement (not applicable as a suggestion: the finding is not on the diff): delete lines 40-41.'
    );
  });

  it('compares a CRLF head by lines', () => {
    const crlf = msHead.split('\n').join('\r\n');
    const placed = placeFinding(finding({ line: 51, suggestion: '    return undefined;' }), diff, () => crlf);
    expect(placed.suggestion).toMatchObject({ reason: 'it is the same as the current lines' });
  });
});
