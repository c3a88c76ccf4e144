import { z } from 'zod';
import {
  MAX_FINDING_BODY_CHARS,
  findingInput,
  firstLine,
  location,
  toFinding
} from '../../src/review/finding.js';

const messages = (input: unknown): string[] => {
  const parsed = findingInput.safeParse(input);
  return parsed.success
    ? []
    : parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
};

describe('findingInput', () => {
  it('accepts a one-line finding and defaults the side to RIGHT', () => {
    const finding = toFinding(
      findingInput.parse({
        path: './index.js',
        line: 50,
        body: '  A limit of 1000 lets `parse` run a regex on long input. '
      })
    );
    expect(finding).toEqual({
      path: 'index.js',
      line: 50,
      startLine: undefined,
      side: 'RIGHT',
      body: 'A limit of 1000 lets `parse` run a regex on long input.',
      suggestion: undefined
    });
    expect(firstLine(finding)).toBe(50);
    expect(location(finding)).toBe('index.js:50');
  });

  it('accepts a range on the LEFT side and an empty suggestion (delete the lines)', () => {
    const finding = toFinding(
      findingInput.parse({
        path: 'index.js',
        start_line: 50,
        line: 51,
        side: 'LEFT',
        body: 'x',
        suggestion: ''
      })
    );
    expect(finding).toMatchObject({ startLine: 50, line: 51, side: 'LEFT', suggestion: '' });
    expect(location(finding)).toBe('index.js:50-51 (base)');
  });

  it('drops one final newline of a suggestion (it ends the last line) and keeps the rest', () => {
    const input = findingInput.parse({
      path: 'a',
      line: 1,
      body: 'b',
      suggestion: '  return undefined;\n\n'
    });
    expect(toFinding(input).suggestion).toBe('  return undefined;\n');
  });

  it('tells the model what to fix in words', () => {
    expect(messages({ path: ' ', line: 0, body: ' ' })).toEqual([
      'path: path is empty: give the file path relative to the repository root.',
      'line: line numbers start at 1.',
      'body: body is empty: say what is wrong and why it matters.'
    ]);
    expect(messages({ path: 'a', line: 4, start_line: 4, body: 'b' })).toEqual([
      'start_line: start_line must be less than line (for a single line, leave start_line out).'
    ]);
    expect(messages({ path: 'a', line: 1.5, body: 'b' })).toEqual([
      'line: line must be a whole line number.'
    ]);
    expect(messages({ path: 'a', line: 1, side: 'right', body: 'b' })).toEqual([
      'side: side is "RIGHT" (the head: added or unchanged lines) or "LEFT" (deleted lines).'
    ]);
    expect(messages({ path: 'a', line: 1, body: 'x'.repeat(MAX_FINDING_BODY_CHARS + 1) })[0]).toContain(
      'one finding per problem'
    );
  });

  it('converts to a JSON schema for the API (the refinement does not get in the way)', () => {
    const schema = z.toJSONSchema(findingInput, { target: 'draft-7' }) as { required: string[] };
    expect(schema.required).toEqual(['path', 'line', 'body']);
  });
});
