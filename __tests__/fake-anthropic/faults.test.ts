/** Scripted model behaviour and injected faults, seen through the real SDK. */
import Anthropic from '@anthropic-ai/sdk';
import { jest } from '@jest/globals';
import {
  reply,
  scriptFrom,
  startFakeAnthropic,
  text,
  toolResultTexts,
  toolUse,
  type FakeAnthropic,
  type ParsedRequest,
  type ScriptContext
} from '../../test-support/fake-anthropic/index.js';
import { MODEL, answered, clientFor, readFileTool, rejectionOf } from './helpers.js';

const hello = { model: MODEL, max_tokens: 100, messages: [{ role: 'user' as const, content: 'Say hello.' }] };

/** A script that records what it was called with. */
function recordingScript(): {
  calls: Array<{ request: ParsedRequest; ctx: ScriptContext }>;
  script: (r: ParsedRequest, c: ScriptContext) => ReturnType<typeof reply>;
} {
  const calls: Array<{ request: ParsedRequest; ctx: ScriptContext }> = [];
  return {
    calls,
    script: (request, ctx) => {
      calls.push({ request, ctx });
      return reply(text(`answer ${ctx.callIndex}`));
    }
  };
}

describe('scripted model', () => {
  test('the script sees the parsed request and its callIndex, and can react to tool results', async () => {
    const seen: Array<{ callIndex: number; results: string[]; messages: number }> = [];
    const fake = await startFakeAnthropic({
      script: (request, { callIndex }) => {
        seen.push({ callIndex, results: toolResultTexts(request), messages: request.messages.length });
        if (callIndex === 0)
          return reply(text('Reading the file.'), toolUse('read_file', { path: 'answer.txt' }));
        return reply(text(`The file says ${toolResultTexts(request)[0] ?? 'nothing'}.`));
      }
    });
    try {
      const client = clientFor(fake);
      const messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'What is in answer.txt?' }];
      const first = await client.messages
        .stream({ model: MODEL, max_tokens: 200, tools: [readFileTool], messages })
        .finalMessage();
      const call = first.content.find((b): b is Anthropic.ToolUseBlock => b.type === 'tool_use');
      if (!call) throw new Error('expected a tool call');
      messages.push({ role: 'assistant', content: first.content });
      messages.push({
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: call.id, content: '42' }]
      });
      const second = await client.messages
        .stream({ model: MODEL, max_tokens: 200, tools: [readFileTool], messages })
        .finalMessage();

      expect(second.content).toEqual([{ type: 'text', text: 'The file says 42.', citations: null }]);
      expect(second.stop_reason).toBe('end_turn');
      expect(seen).toEqual([
        { callIndex: 0, results: [], messages: 1 },
        { callIndex: 1, results: ['42'], messages: 3 }
      ]);
      expect(fake.requests.map((r) => r.callIndex)).toEqual([0, 1]);
      expect(fake.callCount).toBe(2);
      // The assistant turn the SDK sent back (response blocks verbatim) passed validation.
      expect(fake.requests[1]?.request?.messages[1]?.content).toEqual(first.content);
    } finally {
      await fake.close();
    }
  });

  test('a throwing script → 500 api_error with its message, not retried, call not consumed', async () => {
    let fail = true;
    const fake = await startFakeAnthropic({
      script: () => {
        if (fail) throw new Error('script exploded: unexpected request');
        return reply(text('fine'));
      }
    });
    try {
      const client = clientFor(fake);
      const error = await rejectionOf(client.messages.stream(hello).finalMessage());
      expect(error).toBeInstanceOf(Anthropic.InternalServerError);
      const apiError = error as InstanceType<typeof Anthropic.InternalServerError>;
      expect(apiError.type).toBe('api_error');
      expect(apiError.apiMessage).toBe('script exploded: unexpected request');
      expect(fake.requests).toHaveLength(1); // x-should-retry: false stopped the SDK's retries
      expect(fake.requests[0]?.scriptError).toBeInstanceOf(Error);
      expect(fake.requests[0]?.response).toMatchObject({
        kind: 'error',
        status: 500,
        errorType: 'api_error'
      });

      fail = false;
      await client.messages.create(hello);
      expect(fake.requests[1]?.callIndex).toBe(0);
    } finally {
      await fake.close();
    }
  });

  test('scriptFrom past its last step is a visible error', async () => {
    const fake = await startFakeAnthropic({ script: scriptFrom([reply(text('only one'))]) });
    try {
      const client = clientFor(fake);
      await client.messages.create(hello);
      const error = await rejectionOf(client.messages.create(hello));
      expect((error as InstanceType<typeof Anthropic.APIError>).apiMessage).toBe(
        'script has 1 step(s); call 1 has none'
      );
    } finally {
      await fake.close();
    }
  });

  test('explicit stop_reason and a custom usage model reach the client', async () => {
    const fake = await startFakeAnthropic({
      script: () => ({ content: [text('truncated')], stop_reason: 'max_tokens' }),
      usageModel: ({ promptTokens }) => ({
        input_tokens: 1,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: promptTokens - 1
      })
    });
    try {
      const client = clientFor(fake);
      const message = await client.messages.stream(hello).finalMessage();
      expect(message.stop_reason).toBe('max_tokens');
      const counted = await client.messages.countTokens({ model: MODEL, messages: hello.messages });
      expect(message.usage.input_tokens).toBe(1);
      expect(message.usage.cache_read_input_tokens).toBe(counted.input_tokens - 1);
    } finally {
      await fake.close();
    }
  });

  test('servers are independent: no shared state between instances', async () => {
    const a = recordingScript();
    const b = recordingScript();
    const [fakeA, fakeB] = await Promise.all([
      startFakeAnthropic({ script: a.script }),
      startFakeAnthropic({ script: b.script })
    ]);
    try {
      expect(fakeA.url).not.toBe(fakeB.url);
      await Promise.all([
        clientFor(fakeA).messages.create(hello),
        clientFor(fakeA).messages.create(hello),
        clientFor(fakeB).messages.create(hello)
      ]);
      expect(a.calls.map((c) => c.ctx.callIndex).sort()).toEqual([0, 1]);
      expect(b.calls.map((c) => c.ctx.callIndex)).toEqual([0]);
      expect(fakeA.requests).toHaveLength(2);
      expect(fakeB.requests).toHaveLength(1);
    } finally {
      await Promise.all([fakeA.close(), fakeB.close()]);
    }
  });
});

describe('faults', () => {
  let fake: FakeAnthropic;
  let recorder: ReturnType<typeof recordingScript>;
  beforeEach(async () => {
    recorder = recordingScript();
    fake = await startFakeAnthropic({ script: recorder.script });
  });
  afterEach(() => fake.close());

  test('529 with retry-after-ms: 1 is retried by the SDK, and the retry is the same call', async () => {
    fake.injectFault({ kind: 'status', status: 529, retryAfterMs: 1 });
    const client = clientFor(fake);
    // The SDK computes its own backoff (0.5 s and up) only when the answer names no wait it can use:
    // watching that private method, not the clock, keeps the test independent of the runner's load.
    const sdk = client as unknown as { calculateDefaultRetryTimeoutMillis: (...args: unknown[]) => number };
    expect(typeof sdk.calculateDefaultRetryTimeoutMillis).toBe('function');
    const ownBackoff = jest.spyOn(sdk, 'calculateDefaultRetryTimeoutMillis');
    const message = await client.messages.stream(hello).finalMessage();
    expect(ownBackoff).not.toHaveBeenCalled(); // retry-after-ms: 1 was honoured

    expect(message.content).toEqual([{ type: 'text', text: 'answer 0', citations: null }]);
    expect(fake.requests).toHaveLength(2);
    const [faulted, retried] = fake.requests;
    expect(faulted).toMatchObject({ faulted: true, callIndex: null, fault: { kind: 'status', status: 529 } });
    expect(faulted?.response).toEqual({
      kind: 'error',
      status: 529,
      errorType: 'overloaded_error',
      message: 'Overloaded'
    });
    expect(retried?.headers['x-stainless-retry-count']).toBe('1');
    expect(retried).toMatchObject({ faulted: false, callIndex: 0 });
    expect(recorder.calls.map((c) => c.ctx.callIndex)).toEqual([0]);
    // Usage exists only on the answered request.
    expect(fake.requests.filter((r) => r.response?.kind === 'message')).toHaveLength(1);
    expect(message.usage.input_tokens).toBe(answered(retried).usage.input_tokens);
  });

  test('429 and 500 get their error types; with retries off the SDK throws the matching class', async () => {
    fake.injectFault({ kind: 'status', status: 429, retryAfterMs: 1 });
    const rateLimited = await rejectionOf(clientFor(fake, 0).messages.create(hello));
    expect(rateLimited).toBeInstanceOf(Anthropic.RateLimitError);
    expect((rateLimited as InstanceType<typeof Anthropic.RateLimitError>).type).toBe('rate_limit_error');
    expect(
      (rateLimited as InstanceType<typeof Anthropic.RateLimitError>).headers?.get('retry-after-ms')
    ).toBe('1');

    fake.injectFault({ kind: 'status', status: 500, retryAfterMs: 1 }, 2);
    const message = await clientFor(fake, 2).messages.create(hello);
    expect(message.content[0]).toMatchObject({ text: 'answer 0' });
    expect(fake.requests.map((r) => r.response?.kind === 'error' && r.response.errorType)).toEqual([
      'rate_limit_error',
      'api_error',
      'api_error',
      false
    ]);

    fake.injectFault({ kind: 'status', status: 529, retryAfterMs: 1, shouldRetry: false });
    expect(await rejectionOf(clientFor(fake, 2).messages.create(hello))).toBeInstanceOf(Anthropic.APIError);
    expect(fake.requests).toHaveLength(5); // x-should-retry: false overrides the status
  });

  test('an overloaded error mid-stream makes the SDK throw overloaded_error, and it is not retried', async () => {
    fake.injectFault({ kind: 'overloaded_mid_stream', afterBlocks: 1 });
    const client = clientFor(fake);
    const stream = client.messages.stream(hello);
    const texts: string[] = [];
    stream.on('text', (t) => texts.push(t));
    const error = await rejectionOf(stream.finalMessage());
    expect(error).toBeInstanceOf(Anthropic.APIError);
    expect((error as InstanceType<typeof Anthropic.APIError>).type).toBe('overloaded_error');
    expect(texts.join('')).toContain('Partial output 1'); // the stream had really started
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]).toMatchObject({
      faulted: true,
      callIndex: null,
      response: { kind: 'stream_error', status: 200, blocksSent: 1 }
    });
    expect(recorder.calls).toHaveLength(0);

    // The caller retries: same call for the script.
    const message = await client.messages.stream(hello).finalMessage();
    expect(message.content[0]).toMatchObject({ text: 'answer 0' });
  });

  test('overloaded_mid_stream on a non-streaming request is a 529', async () => {
    fake.injectFault({ kind: 'overloaded_mid_stream' });
    const error = await rejectionOf(clientFor(fake, 0).messages.create(hello));
    expect((error as InstanceType<typeof Anthropic.APIError>).status).toBe(529);
    expect((error as InstanceType<typeof Anthropic.APIError>).type).toBe('overloaded_error');
  });

  test('a slow stream still completes, slowly, and consumes the call', async () => {
    fake.injectFault({ kind: 'slow_stream', delayMs: 40 });
    const client = clientFor(fake);
    const started = Date.now();
    const stream = client.messages.stream(hello);
    const arrivals: number[] = [];
    stream.on('streamEvent', () => arrivals.push(Date.now()));
    const message = await stream.finalMessage();
    const elapsed = Date.now() - started;
    expect(message.content).toEqual([{ type: 'text', text: 'answer 0', citations: null }]);
    // message_start, 3 block events at least, message_delta, message_stop: ≥ 6 events, 40 ms apart.
    expect(arrivals.length).toBeGreaterThanOrEqual(6);
    expect(elapsed).toBeGreaterThanOrEqual(40 * (arrivals.length - 1) - 20);
    expect(fake.requests[0]).toMatchObject({ faulted: false, callIndex: 0, fault: { kind: 'slow_stream' } });
  });

  test('a reset makes the SDK throw a connection error (no retries), or retry through it', async () => {
    fake.injectFault({ kind: 'reset' });
    const error = await rejectionOf(clientFor(fake, 0).messages.stream(hello).finalMessage());
    expect(error).toBeInstanceOf(Anthropic.APIConnectionError);
    expect(fake.requests[0]).toMatchObject({ faulted: true, callIndex: null, response: { kind: 'reset' } });
    expect(recorder.calls).toHaveLength(0);

    fake.injectFault({ kind: 'reset' });
    const message = await clientFor(fake, 2).messages.stream(hello).finalMessage();
    expect(message.content[0]).toMatchObject({ text: 'answer 0' });
    expect(fake.requests.map((r) => r.faulted)).toEqual([true, true, false]);
  });

  test('queued faults wait for a valid /v1/messages request (not count_tokens, not a 400)', async () => {
    fake.injectFault({ kind: 'status', status: 529, retryAfterMs: 1 });
    const client = clientFor(fake, 0);
    await client.messages.countTokens({ model: MODEL, messages: hello.messages });
    await rejectionOf(client.messages.create({ ...hello, messages: [] }));
    const error = await rejectionOf(client.messages.create(hello));
    expect((error as InstanceType<typeof Anthropic.APIError>).status).toBe(529);
  });
});

describe('fault schedule option', () => {
  test('faults(callIndex, request, { attempt }) can fault only the first try of a call', async () => {
    const recorder = recordingScript();
    const seenAttempts: Array<[number, number]> = [];
    const fake = await startFakeAnthropic({
      script: recorder.script,
      faults: (callIndex, request, { attempt }) => {
        seenAttempts.push([callIndex, attempt]);
        expect(request.model).toBe(MODEL);
        return callIndex === 1 && attempt < 2 ? { kind: 'status', status: 529, retryAfterMs: 1 } : undefined;
      }
    });
    try {
      const client = clientFor(fake);
      await client.messages.stream(hello).finalMessage();
      const second = await client.messages.stream(hello).finalMessage();
      expect(second.content[0]).toMatchObject({ text: 'answer 1' });
      expect(seenAttempts).toEqual([
        [0, 0],
        [1, 0],
        [1, 1],
        [1, 2]
      ]);
      expect(fake.requests.map((r) => r.callIndex)).toEqual([0, null, null, 1]);
      expect(recorder.calls.map((c) => c.ctx.callIndex)).toEqual([0, 1]);
    } finally {
      await fake.close();
    }
  });
});
