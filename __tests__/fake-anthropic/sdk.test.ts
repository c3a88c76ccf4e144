/** The fake through the real @anthropic-ai/sdk client: replies, counts, validation, wire format. */
import Anthropic from '@anthropic-ai/sdk';
import { countTokens } from '@anthropic-ai/tokenizer';
import {
  reply,
  scriptFrom,
  startFakeAnthropic,
  text,
  toolUse,
  type FakeAnthropic
} from '../../test-support/fake-anthropic/index.js';
import { MODEL, answered, clientFor, post, readFileTool, rejectionOf } from './helpers.js';

const TASK = 'Please read src/index.ts and explain what the main function does, step by step.';
const LONG_TEXT = `Here is the plan 🎉:\n${'1. Read the file, then summarise it in plain words.\n'.repeat(40)}Done.`;
const TOOL_INPUT = {
  path: 'src/index.ts',
  options: { lines: [1, 200], follow: true },
  note: 'ünïcödé "quoted"'
};

describe('fake Anthropic through the SDK', () => {
  let fake: FakeAnthropic;
  let client: Anthropic;

  beforeEach(async () => {
    fake = await startFakeAnthropic({
      script: scriptFrom([
        reply(text(LONG_TEXT)),
        reply(text('Let me look.'), toolUse('read_file', TOOL_INPUT))
      ])
    });
    client = clientFor(fake);
  });
  afterEach(() => fake.close());

  test('a streamed text reply arrives intact, with the usage the server recorded', async () => {
    const stream = client.messages.stream({
      model: MODEL,
      max_tokens: 1024,
      messages: [{ role: 'user', content: TASK }]
    });
    const deltas: string[] = [];
    stream.on('text', (delta) => deltas.push(delta));
    const message = await stream.finalMessage();

    expect(message.content).toEqual([{ type: 'text', text: LONG_TEXT, citations: null }]);
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join('')).toBe(LONG_TEXT);
    expect(message.stop_reason).toBe('end_turn');
    expect(message.model).toBe(MODEL);
    expect(message.id).toMatch(/^msg_01[0-9A-Za-z]{22}$/);

    const recorded = answered(fake.requests[0]);
    expect(recorded.stream).toBe(true);
    expect(message.id).toBe(recorded.message.id);
    expect(message.usage).toMatchObject({
      input_tokens: recorded.usage.input_tokens,
      output_tokens: recorded.usage.output_tokens,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0
    });
    // Real BPE counts, not chars/4.
    expect(message.usage.input_tokens).toBe(countTokens(TASK));
    expect(message.usage.input_tokens).not.toBe(Math.ceil(TASK.length / 4));
    expect(message.usage.output_tokens).toBe(countTokens(LONG_TEXT));
  });

  test('a streamed tool_use reply arrives intact', async () => {
    const stream = client.messages.stream({
      model: MODEL,
      max_tokens: 1024,
      tools: [readFileTool],
      messages: [{ role: 'user', content: TASK }]
    });
    await stream.finalMessage(); // call 0: the text reply
    const message = await client.messages
      .stream({
        model: MODEL,
        max_tokens: 1024,
        tools: [readFileTool],
        messages: [{ role: 'user', content: TASK }]
      })
      .finalMessage();

    expect(message.stop_reason).toBe('tool_use');
    expect(message.content).toHaveLength(2);
    expect(message.content[0]).toEqual({ type: 'text', text: 'Let me look.', citations: null });
    const call = message.content[1];
    if (call?.type !== 'tool_use') throw new Error('expected a tool_use block');
    expect(call.name).toBe('read_file');
    expect(call.input).toEqual(TOOL_INPUT);
    expect(call.id).toMatch(/^toolu_01[0-9A-Za-z]{22}$/);

    const recorded = answered(fake.requests[1]);
    expect(recorded.message.content[1]).toMatchObject({ id: call.id, input: TOOL_INPUT });
    expect(message.usage.output_tokens).toBe(recorded.usage.output_tokens);
    expect(message.usage.input_tokens).toBe(recorded.usage.input_tokens);
    // Tools are part of the prompt.
    expect(recorded.usage.input_tokens).toBe(countTokens(TASK) + countTokens(JSON.stringify(readFileTool)));
  });

  test('the non-streaming path answers the same message shape', async () => {
    const message = await client.messages.create({
      model: MODEL,
      max_tokens: 1024,
      messages: [{ role: 'user', content: TASK }]
    });
    expect(message.content).toEqual([{ type: 'text', text: LONG_TEXT, citations: null }]);
    expect(message.stop_reason).toBe('end_turn');
    const recorded = answered(fake.requests[0]);
    expect(recorded.stream).toBe(false);
    expect(message.usage).toEqual(recorded.usage);
    expect(message.usage.input_tokens).toBe(countTokens(TASK));
  });

  test('count_tokens answers the input_tokens a messages call reports', async () => {
    const prompt = {
      model: MODEL,
      system: 'You are a careful coding agent.',
      tools: [readFileTool],
      messages: [
        { role: 'user' as const, content: TASK },
        {
          role: 'assistant' as const,
          content: [{ type: 'tool_use' as const, id: 'toolu_x', name: 'read_file', input: { path: 'a.ts' } }]
        },
        {
          role: 'user' as const,
          content: [{ type: 'tool_result' as const, tool_use_id: 'toolu_x', content: 'export const a = 1;' }]
        }
      ]
    };
    const counted = await client.messages.countTokens(prompt);
    const message = await client.messages.create({ ...prompt, max_tokens: 100 });
    expect(counted.input_tokens).toBe(message.usage.input_tokens);
    expect(counted.input_tokens).toBeGreaterThan(countTokens(TASK));
    expect(fake.requests[0]?.response).toEqual({
      kind: 'count_tokens',
      status: 200,
      input_tokens: counted.input_tokens
    });
    // count_tokens does not consume a script call.
    expect(fake.requests[1]?.callIndex).toBe(0);
  });

  test('the SDK sends anthropic-version 2026-10-21 and a Bearer key', async () => {
    await client.messages.create({
      model: MODEL,
      max_tokens: 10,
      messages: [{ role: 'user', content: 'hi' }]
    });
    expect(fake.requests[0]?.headers['anthropic-version']).toBe('2026-10-21');
    expect(fake.requests[0]?.headers.authorization).toBe('Bearer test-key');
  });

  test('temperature is rejected with 400, not retried, and the SDK throws BadRequestError', async () => {
    const params = {
      model: MODEL,
      max_tokens: 10,
      messages: [{ role: 'user' as const, content: 'hi' }],
      temperature: 0.7
    };
    const error = await rejectionOf(
      client.messages.create(params as Anthropic.MessageCreateParamsNonStreaming)
    );
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    const apiError = error as InstanceType<typeof Anthropic.BadRequestError>;
    expect(apiError.status).toBe(400);
    expect(apiError.type).toBe('invalid_request_error');
    expect(apiError.apiMessage).toBe('temperature: Extra inputs are not permitted');
    expect(apiError.message).toContain('temperature: Extra inputs are not permitted');
    expect(apiError.requestID).toMatch(/^req_/);
    expect(apiError.headers?.get('x-should-retry')).toBe('false');
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]?.callIndex).toBeNull();
  });

  test('an orphan tool_use is rejected through the SDK with the exact text', async () => {
    const error = await rejectionOf(
      client.messages
        .stream({
          model: MODEL,
          max_tokens: 100,
          tools: [readFileTool],
          messages: [
            { role: 'user', content: TASK },
            {
              role: 'assistant',
              content: [{ type: 'tool_use', id: 'toolu_orphan', name: 'read_file', input: { path: 'a.ts' } }]
            },
            { role: 'user', content: 'Never mind.' }
          ]
        })
        .finalMessage()
    );
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    expect((error as InstanceType<typeof Anthropic.BadRequestError>).apiMessage).toBe(
      'messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_orphan. Each `tool_use` block must have a corresponding `tool_result` block in the next message.'
    );
    expect(fake.callCount).toBe(0);
  });

  test('text blocks are checked through HTTP too', async () => {
    const error = await rejectionOf(
      client.messages.create({
        model: MODEL,
        max_tokens: 10,
        messages: [{ role: 'user', content: [{ type: 'text', text: '  ' }] }]
      })
    );
    expect((error as InstanceType<typeof Anthropic.BadRequestError>).apiMessage).toBe(
      'messages: text content blocks must contain non-whitespace text'
    );
  });
});

describe('context window', () => {
  // A catalogue model given a tiny window by the test (made-up ids are 404s now).
  const TINY_WINDOW_MODEL = 'claude-haiku-4-5';

  test('a prompt over the model window is rejected: prompt is too long: N tokens > M maximum', async () => {
    const fake = await startFakeAnthropic({
      contextWindow: (model) => (model === TINY_WINDOW_MODEL ? 10 : 200_000)
    });
    try {
      const client = clientFor(fake);
      const error = await rejectionOf(
        client.messages
          .stream({ model: TINY_WINDOW_MODEL, max_tokens: 10, messages: [{ role: 'user', content: TASK }] })
          .finalMessage()
      );
      expect(error).toBeInstanceOf(Anthropic.BadRequestError);
      expect((error as InstanceType<typeof Anthropic.BadRequestError>).apiMessage).toBe(
        `prompt is too long: ${countTokens(TASK)} tokens > 10 maximum`
      );
      // Same prompt, a model with a larger window: fine.
      const ok = await client.messages.create({
        model: MODEL,
        max_tokens: 10,
        messages: [{ role: 'user', content: TASK }]
      });
      expect(ok.usage.input_tokens).toBe(countTokens(TASK));
      // count_tokens still measures it.
      expect(
        (
          await client.messages.countTokens({
            model: TINY_WINDOW_MODEL,
            messages: [{ role: 'user', content: TASK }]
          })
        ).input_tokens
      ).toBe(countTokens(TASK));
    } finally {
      await fake.close();
    }
  });
});

describe('wire details', () => {
  let fake: FakeAnthropic;
  beforeEach(async () => {
    fake = await startFakeAnthropic({
      script: () =>
        reply(
          text('Hello, wire world!'),
          toolUse('read_file', { path: 'a/b.ts', n: [1, 2, 3] }, 'toolu_fixed')
        )
    });
  });
  afterEach(() => fake.close());

  test('SSE frames are `event: <type>\\ndata: <json>\\n\\n` in the API order', async () => {
    const res = await post(
      fake,
      '/v1/messages',
      JSON.stringify({
        model: MODEL,
        max_tokens: 100,
        stream: true,
        messages: [{ role: 'user', content: 'hi' }]
      })
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(res.headers.get('request-id')).toMatch(/^req_/);
    const raw = await res.text();
    expect(raw.endsWith('\n\n')).toBe(true);
    const frames = raw
      .slice(0, -2)
      .split('\n\n')
      .map((frame) => {
        const match = /^event: ([a-z_]+)\ndata: (.+)$/.exec(frame);
        if (!match?.[1] || !match[2]) throw new Error(`bad frame: ${JSON.stringify(frame)}`);
        const data = JSON.parse(match[2]) as { type: string } & Record<string, unknown>;
        expect(data.type).toBe(match[1]);
        return data;
      });
    const types = frames.map((f) => f.type);
    expect(types.slice(0, 3)).toEqual(['message_start', 'ping', 'content_block_start']);
    expect(types.slice(-2)).toEqual(['message_delta', 'message_stop']);
    expect(types.filter((t) => t === 'content_block_start')).toHaveLength(2);
    expect(types.filter((t) => t === 'content_block_stop')).toHaveLength(2);

    const start = frames[0] as unknown as {
      message: { content: unknown[]; usage: Record<string, number>; stop_reason: unknown };
    };
    expect(start.message.content).toEqual([]);
    expect(start.message.stop_reason).toBeNull();
    expect(start.message.usage).toMatchObject({
      input_tokens: countTokens('hi'),
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
      output_tokens: 1
    });

    const deltas = frames.filter((f) => f.type === 'content_block_delta') as unknown as Array<{
      index: number;
      delta: Record<string, string>;
    }>;
    const textDeltas = deltas.filter((d) => d.index === 0).map((d) => d.delta);
    expect(textDeltas.length).toBeGreaterThan(1);
    expect(textDeltas.every((d) => d.type === 'text_delta')).toBe(true);
    expect(textDeltas.map((d) => d.text).join('')).toBe('Hello, wire world!');
    const jsonDeltas = deltas.filter((d) => d.index === 1).map((d) => d.delta);
    expect(jsonDeltas.every((d) => d.type === 'input_json_delta')).toBe(true);
    expect(jsonDeltas.length).toBeGreaterThan(2);
    expect(JSON.parse(jsonDeltas.map((d) => d.partial_json).join(''))).toEqual({
      path: 'a/b.ts',
      n: [1, 2, 3]
    });
    const toolStart = frames.find((f) => f.type === 'content_block_start' && f.index === 1);
    expect(toolStart?.content_block).toEqual({
      type: 'tool_use',
      id: 'toolu_fixed',
      name: 'read_file',
      input: {},
      caller: { type: 'direct' }
    });

    const delta = frames.at(-2) as unknown as {
      delta: { stop_reason: string };
      usage: { output_tokens: number };
    };
    expect(delta.delta.stop_reason).toBe('tool_use');
    expect(delta.usage.output_tokens).toBe(answered(fake.requests[0]).usage.output_tokens);
  });

  test('auth by x-api-key or Bearer; none → 401 authentication_error', async () => {
    const body = JSON.stringify({
      model: MODEL,
      max_tokens: 10,
      messages: [{ role: 'user', content: 'hi' }]
    });
    expect((await post(fake, '/v1/messages', body, { 'x-api-key': 'abc' })).status).toBe(200);
    const bearer = await fetch(`${fake.url}/v1/messages`, {
      method: 'POST',
      headers: {
        authorization: 'Bearer abc',
        'anthropic-version': '2026-10-21',
        'content-type': 'application/json'
      },
      body
    });
    expect(bearer.status).toBe(200);
    const none = await fetch(`${fake.url}/v1/messages`, {
      method: 'POST',
      headers: { 'anthropic-version': '2026-10-21' },
      body
    });
    expect(none.status).toBe(401);
    expect(await none.json()).toMatchObject({
      type: 'error',
      error: { type: 'authentication_error' },
      request_id: expect.stringMatching(/^req_/)
    });
    const client = new Anthropic({
      apiKey: 'k',
      baseURL: fake.url,
      maxRetries: 0,
      defaultHeaders: { authorization: null, 'x-api-key': null }
    });
    const error = await rejectionOf(
      client.messages.create({ model: MODEL, max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] })
    );
    expect(error).toBeInstanceOf(Anthropic.AuthenticationError);
  });

  test('400 errors carry the documented body and headers', async () => {
    const res = await post(
      fake,
      '/v1/messages',
      JSON.stringify({ model: MODEL, max_tokens: 10, messages: [] })
    );
    expect(res.status).toBe(400);
    expect(res.headers.get('x-should-retry')).toBe('false');
    const requestId = res.headers.get('request-id');
    expect(requestId).toMatch(/^req_/);
    expect(await res.json()).toEqual({
      type: 'error',
      error: { type: 'invalid_request_error', message: 'messages: at least one message is required' },
      request_id: requestId
    });
    const bad = await post(fake, '/v1/messages', '{not json');
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { type: string } }).error.type).toBe('invalid_request_error');
  });

  test('unknown routes → 404 JSON error', async () => {
    const res = await post(fake, '/v1/complete', '{}');
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({
      type: 'error',
      error: { type: 'not_found_error', message: 'Not Found' }
    });
    const get = await fetch(`${fake.url}/v1/messages`);
    expect(get.status).toBe(404);
  });

  test('a body over 32 MB → 413 request_too_large', async () => {
    const huge = JSON.stringify({
      model: MODEL,
      max_tokens: 10,
      messages: [{ role: 'user', content: 'x'.repeat(33 * 1024 * 1024) }]
    });
    const res = await post(fake, '/v1/messages', huge);
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({
      error: { type: 'request_too_large', message: 'Request exceeds the maximum size' }
    });
    expect(fake.requests[0]?.body).toBeUndefined();
    expect(fake.callCount).toBe(0);
  });
});
