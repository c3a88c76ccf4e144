import { countTokens } from '@anthropic-ai/tokenizer';
import {
  TokenCounter,
  chunkString,
  countPromptTokens,
  countReplyTokens,
  parseRequest,
  renderPrompt,
  segmentKey,
  sumTokens,
  text,
  toolUse,
  type ParsedRequest
} from '../../test-support/fake-anthropic/index.js';

const PROSE = 'The quick brown fox jumps over the lazy dog. Tokenizers split text into subword units.';
const CODE = 'export function add(a: number, b: number): number {\n  return a + b;\n}\n';

function parse(body: unknown): ParsedRequest {
  const parsed = parseRequest(body, { endpoint: 'count_tokens', anthropicVersion: '2026-10-21' });
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.request;
}

describe('TokenCounter', () => {
  const counter = new TokenCounter();
  afterAll(() => counter.dispose());

  test('counts exactly like @anthropic-ai/tokenizer, which is not chars/4', () => {
    for (const sample of [PROSE, CODE, 'héllo wörld ﬁ 🎉', 'x'.repeat(1000)]) {
      expect(counter.count(sample)).toBe(countTokens(sample));
    }
    expect(counter.count(PROSE)).not.toBe(Math.ceil(PROSE.length / 4));
    expect(counter.count(CODE)).not.toBe(Math.ceil(CODE.length / 4));
    expect(counter.count('')).toBe(0);
  });

  test('memoizes per string: a repeated long prompt is encoded once', () => {
    const fresh = new TokenCounter();
    const long = `${CODE}\n${PROSE}\n`.repeat(2000);
    const first = fresh.count(long);
    const started = performance.now();
    for (let i = 0; i < 200; i++) expect(fresh.count(long)).toBe(first);
    expect(performance.now() - started).toBeLessThan(500);
    expect(fresh.encodeCalls).toBe(1);
    fresh.dispose();
  });

  test('the memo is bounded (least recently used strings go first)', () => {
    const small = new TokenCounter({ maxEntries: 3 });
    for (const s of ['a b', 'c d', 'e f']) small.count(s);
    small.count('a b'); // refresh
    small.count('g h'); // evicts 'c d'
    expect(small.size).toBe(3);
    const before = small.encodeCalls;
    small.count('a b');
    expect(small.encodeCalls).toBe(before);
    small.count('c d');
    expect(small.encodeCalls).toBe(before + 1);
    small.dispose();
  });
});

describe('prompt rendering', () => {
  const counter = new TokenCounter();
  afterAll(() => counter.dispose());

  test('a lone user message counts exactly its text', () => {
    const request = parse({ model: 'm', messages: [{ role: 'user', content: PROSE }] });
    expect(countPromptTokens(request, counter)).toBe(countTokens(PROSE));
  });

  test('tools as JSON, system text, text, tool_use name + JSON input, tool_result text, in render order', () => {
    const tool = {
      name: 'read_file',
      description: 'Read a file',
      input_schema: { type: 'object' },
      cache_control: { type: 'ephemeral' }
    };
    const request = parse({
      model: 'm',
      tools: [tool],
      system: [{ type: 'text', text: 'You are terse.' }],
      messages: [
        { role: 'user', content: 'Fix it.' },
        {
          role: 'assistant',
          content: [{ type: 'tool_use', id: 'toolu_1', name: 'read_file', input: { path: 'a.ts' } }]
        },
        {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: CODE }] }]
        }
      ]
    });
    const segments = renderPrompt(request, counter);
    expect(segments.map((s) => s.path)).toEqual([
      'tools.0',
      'system.0',
      'messages.0.content.0',
      'messages.1.content.0',
      'messages.2.content.0'
    ]);
    const toolJson = JSON.stringify({
      name: 'read_file',
      description: 'Read a file',
      input_schema: { type: 'object' }
    });
    expect(segments.map((s) => s.text)).toEqual([
      toolJson,
      'You are terse.',
      'Fix it.',
      'read_file\n{"path":"a.ts"}',
      CODE
    ]);
    expect(segments[0]?.cacheControl).toEqual({ type: 'ephemeral' });
    const expected = [toolJson, 'You are terse.', 'Fix it.', 'read_file\n{"path":"a.ts"}', CODE].reduce(
      (n, s) => n + countTokens(s),
      0
    );
    expect(sumTokens(segments)).toBe(expected);
    expect(countPromptTokens(request, counter)).toBe(expected);
    // Identity for a cache simulator ignores cache_control but not content or role.
    expect(segmentKey(segments[0]!)).toBe(`tool::${toolJson}`);
    expect(segmentKey(segments[2]!)).toBe('message:user:{"type":"text","text":"Fix it."}');
  });

  test('a reply re-sent as history counts what its output_tokens said', () => {
    const replyBlocks = [text('Let me read it.'), toolUse('read_file', { path: 'src/index.ts' }, 'toolu_9')];
    const request = parse({
      model: 'm',
      messages: [
        { role: 'user', content: 'x' },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Let me read it.' },
            { type: 'tool_use', id: 'toolu_9', name: 'read_file', input: { path: 'src/index.ts' } }
          ]
        },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_9', content: 'ok' }] }
      ]
    });
    const assistantTokens = renderPrompt(request, counter)
      .filter((s) => s.messageIndex === 1)
      .reduce((n, s) => n + s.tokens, 0);
    expect(countReplyTokens(replyBlocks, counter)).toBe(assistantTokens);
  });
});

describe('chunkString', () => {
  test('splits into a few chunks that join back, without cutting surrogate pairs', () => {
    const s = '🎉🎉🎉🎉🎉';
    const chunks = chunkString(s);
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.join('')).toBe(s);
    const loneSurrogate = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
    for (const c of chunks) expect(loneSurrogate.test(c)).toBe(false);
    expect(chunkString('ab')).toEqual(['a', 'b']);
    expect(chunkString('x'.repeat(10_000), 3, 4096).length).toBe(3);
    expect(chunkString('x'.repeat(100_000), 3, 4096).length).toBe(25);
    expect(chunkString('')).toEqual([]);
  });
});
