import { answerJson } from '../../src/structured/answer-json.js';

describe('answerJson', () => {
  it('reads a bare JSON value, around blanks', () => {
    expect(answerJson('  {"labels": ["bug"]}\n')).toEqual({ ok: true, value: { labels: ['bug'] } });
    expect(answerJson('[1, 2]')).toEqual({ ok: true, value: [1, 2] });
  });

  it('tolerates a json fence, with or without prose around it', () => {
    expect(answerJson('```json\n{"a": 1}\n```')).toEqual({ ok: true, value: { a: 1 } });
    expect(answerJson('```\n{"a": 1}\n```')).toEqual({ ok: true, value: { a: 1 } });
    expect(answerJson('Here it is:\n\n```json\n{"a": 1}\n```\nDone.')).toEqual({ ok: true, value: { a: 1 } });
  });

  it('says why an answer is not JSON; nothing is repaired', () => {
    expect(answerJson('')).toEqual({ ok: false, problem: 'the answer is empty' });
    expect(answerJson('The labels are bug and docs.')).toEqual({
      ok: false,
      problem: expect.stringMatching(/^the answer is not valid JSON \(/)
    });
    expect(answerJson('```json\n{"a": 1,}\n```')).toEqual({
      ok: false,
      problem: expect.stringMatching(/^the fenced block of the answer is not valid JSON \(/)
    });
  });
});
