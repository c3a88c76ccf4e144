import { redactedJson } from '../../src/structured/redacted-json.js';

describe('redactedJson', () => {
  const redact = (text: string) => text.replaceAll('sk-secret', '***');

  it('redacts every string, keys too, and stays valid JSON', () => {
    const text = redactedJson(
      { note: 'key sk-secret "quoted"', 'sk-secret': [1, 'sk-secret', null] },
      redact
    );
    expect(JSON.parse(text)).toEqual({ note: 'key *** "quoted"', '***': [1, '***', null] });
    expect(text).not.toContain('sk-secret');
  });

  it('is compact JSON', () => {
    expect(redactedJson({ a: [1, { b: true }] }, redact)).toBe('{"a":[1,{"b":true}]}');
  });
});
