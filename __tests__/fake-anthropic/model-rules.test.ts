/** Per-model rules from the catalogue, through the real SDK: unknown ids, refused settings, windows. */
import Anthropic from '@anthropic-ai/sdk';
import {
  API_VERSION_2026,
  modelErrorText,
  startFakeAnthropic,
  validateRequest,
  type FakeAnthropic,
  type RecordedRequest
} from '../../test-support/fake-anthropic/index.js';
import { clientFor, post, readFileTool, rejectionOf } from './helpers.js';

const ask = (
  model: string,
  extra: Record<string, unknown> = {}
): Anthropic.MessageCreateParamsNonStreaming => ({
  model,
  max_tokens: 4096,
  tools: [readFileTool],
  messages: [{ role: 'user', content: 'Read a.ts, please.' }],
  ...extra
});
const PREFILL = [
  { role: 'user' as const, content: 'Answer in JSON.' },
  { role: 'assistant' as const, content: '{' }
];

async function apiErrorOf(promise: Promise<unknown>): Promise<InstanceType<typeof Anthropic.APIError>> {
  const error = await rejectionOf(promise);
  if (!(error instanceof Anthropic.APIError)) throw new Error(`expected an API error, got ${String(error)}`);
  return error;
}

const rejections = (fake: FakeAnthropic) =>
  fake.requests.flatMap((r: RecordedRequest) => (r.rejected ? [r.rejected] : []));

describe('model rules from the catalogue', () => {
  let fake: FakeAnthropic;
  let client: Anthropic;
  beforeEach(async () => {
    fake = await startFakeAnthropic();
    client = clientFor(fake);
  });
  afterEach(() => fake.close());

  test('an unknown model is a 404 not_found_error "model: <id>", on messages and count_tokens', async () => {
    const error = await apiErrorOf(client.messages.create(ask('gpt-9')));
    expect(error).toBeInstanceOf(Anthropic.NotFoundError);
    expect(error.status).toBe(404);
    expect(error.type).toBe('not_found_error');
    expect(error.apiMessage).toBe('model: gpt-9');
    const counted = await apiErrorOf(
      client.messages.countTokens({ model: 'claude-sonnet-9', messages: [{ role: 'user', content: 'hi' }] })
    );
    expect(counted.apiMessage).toBe('model: claude-sonnet-9');
    expect(rejections(fake).map((r) => r.kind)).toEqual(['unknown_model', 'unknown_model']);
    // Aliases (dated snapshots) are known.
    await client.messages.create(ask('claude-sonnet-4-5-20250929'));
    expect(fake.callCount).toBe(1);
  });

  const strict = 'claude-sonnet-5-5';
  test.each([
    ['tool_choice any', { tool_choice: { type: 'any' } }, modelErrorText.forcedToolChoice(strict, 'any')],
    [
      'tool_choice tool',
      { tool_choice: { type: 'tool', name: 'read_file' } },
      modelErrorText.forcedToolChoice(strict, 'tool')
    ],
    ['prefill', { messages: PREFILL }, modelErrorText.prefill(strict)],
    [
      'manual thinking',
      { thinking: { type: 'enabled', budget_tokens: 2048 } },
      modelErrorText.manualThinking(strict)
    ],
    ['thinking disabled', { thinking: { type: 'disabled' } }, modelErrorText.disabledThinking(strict)]
  ])('claude-sonnet-5-5 refuses %s with a 400', async (_name, extra, expected) => {
    const error = await apiErrorOf(client.messages.create(ask(strict, extra)));
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    expect(error.type).toBe('invalid_request_error');
    expect(error.apiMessage).toBe(expected);
    expect(rejections(fake)).toEqual([{ kind: 'refused_parameter', message: expected }]);
    expect(fake.callCount).toBe(0);
  });

  test('the same settings are fine on a model that accepts them (claude-sonnet-4-5)', async () => {
    await client.messages.create(ask('claude-sonnet-4-5', { tool_choice: { type: 'any' } }));
    await client.messages.create(
      ask('claude-sonnet-4-5', { tool_choice: { type: 'tool', name: 'read_file' } })
    );
    await client.messages.create(ask('claude-sonnet-4-5', { messages: PREFILL }));
    await client.messages.create(
      ask('claude-sonnet-4-5', { thinking: { type: 'enabled', budget_tokens: 2048 } })
    );
    await client.messages.create(ask('claude-sonnet-4-5', { thinking: { type: 'disabled' } }));
    expect(rejections(fake)).toEqual([]);
    expect(fake.callCount).toBe(5);
  });

  test('claude-opus-5 takes forced tool use but not a thinking budget', async () => {
    await client.messages.create(ask('claude-opus-5', { tool_choice: { type: 'any' } }));
    const error = await apiErrorOf(
      client.messages.create(ask('claude-opus-5', { thinking: { type: 'enabled', budget_tokens: 2048 } }))
    );
    expect(error.apiMessage).toBe(modelErrorText.manualThinking('claude-opus-5'));
  });

  test('adaptive thinking with an effort is what the 5.5 models take', async () => {
    for (const model of ['claude-sonnet-5-5', 'claude-opus-5-5', 'claude-haiku-5-5', 'claude-fable-5-1']) {
      await client.messages.create(
        ask(model, { thinking: { type: 'adaptive' }, output_config: { effort: 'high' } })
      );
    }
    expect(rejections(fake)).toEqual([]);
  });

  test('between_tools only where the docs allow it (Sonnet 5.5)', async () => {
    await client.messages.create(ask('claude-sonnet-5-5', { thinking: { type: 'between_tools' } }));
    const error = await apiErrorOf(
      client.messages.create(ask('claude-opus-5-5', { thinking: { type: 'between_tools' } }))
    );
    expect(error.apiMessage).toBe(modelErrorText.betweenTools('claude-opus-5-5'));
  });

  test("output_config.effort: one of the row's efforts, and absent on a model without effort", async () => {
    const unknown = await apiErrorOf(
      client.messages.create(ask('claude-sonnet-5-5', { output_config: { effort: 'turbo' } }))
    );
    expect(unknown.apiMessage).toBe(
      "output_config.effort: Input should be 'low', 'medium', 'high', 'xhigh', 'max'"
    );
    const none = await apiErrorOf(
      client.messages.create(ask('claude-sonnet-4-5', { output_config: { effort: 'low' } }))
    );
    expect(none.apiMessage).toBe(modelErrorText.effortUnsupported('claude-sonnet-4-5'));
    expect(rejections(fake).map((r) => r.kind)).toEqual(['invalid_request', 'refused_parameter']);
  });

  test('sampling parameters: extra inputs under 2026-10-21, refused per model under older versions', async () => {
    const body = (model: string) =>
      JSON.stringify({
        model,
        max_tokens: 10,
        temperature: 0.5,
        messages: [{ role: 'user', content: 'hi' }]
      });
    const current = await post(fake, '/v1/messages', body('claude-sonnet-4-5'));
    expect(current.status).toBe(400);
    const old = { 'anthropic-version': '2023-06-01' };
    expect((await post(fake, '/v1/messages', body('claude-sonnet-4-5'), old)).status).toBe(200);
    const refusedOld = await post(fake, '/v1/messages', body('claude-sonnet-5-5'), old);
    expect(refusedOld.status).toBe(400);
    expect(((await refusedOld.json()) as { error: { message: string } }).error.message).toBe(
      modelErrorText.samplingParameter('claude-sonnet-5-5', 'temperature')
    );
  });
});

describe('context windows from the catalogue', () => {
  test('by default each model gets its own window: 200k for Haiku 4.5, 1M for Sonnet 5.5', async () => {
    const fake = await startFakeAnthropic();
    try {
      const client = clientFor(fake);
      const big = 'lorem ipsum dolor '.repeat(70_000);
      const haiku = await apiErrorOf(
        client.messages.create({
          model: 'claude-haiku-4-5',
          max_tokens: 10,
          messages: [{ role: 'user', content: big }]
        })
      );
      expect(haiku.apiMessage).toMatch(/^prompt is too long: \d+ tokens > 200000 maximum$/);
      const sonnet = await client.messages.create({
        model: 'claude-sonnet-5-5',
        max_tokens: 10,
        messages: [{ role: 'user', content: big }]
      });
      expect(sonnet.usage.input_tokens).toBeGreaterThan(200_000);
      expect(rejections(fake).map((r) => r.kind)).toEqual(['prompt_too_long']);
    } finally {
      await fake.close();
    }
  });
});

describe('thinking config shapes (pure validation)', () => {
  const V2026 = { endpoint: 'messages' as const, anthropicVersion: API_VERSION_2026 };
  const body = (thinking: unknown) => ({
    model: 'claude-sonnet-5-5',
    max_tokens: 100,
    messages: [{ role: 'user', content: 'hi' }],
    thinking
  });

  test('between_tools is a thinking type; block_binding must name a known behaviour', () => {
    expect(validateRequest(body({ type: 'between_tools' }), V2026)).toBeNull();
    expect(validateRequest(body({ type: 'off' }), V2026)).toBe(
      "thinking.type: Input should be 'enabled' or 'disabled' or 'adaptive' or 'between_tools'"
    );
    expect(
      validateRequest(
        body({ type: 'adaptive', block_binding: { prefix_mismatch_behavior: 'drop_block' } }),
        V2026
      )
    ).toBeNull();
    expect(
      validateRequest(
        body({ type: 'adaptive', block_binding: { prefix_mismatch_behavior: 'ignore' } }),
        V2026
      )
    ).toBe(
      "thinking.adaptive.block_binding.prefix_mismatch_behavior: Input should be 'error' or 'drop_block'"
    );
    expect(validateRequest(body({ type: 'adaptive', block_binding: 'drop_block' }), V2026)).toBe(
      'thinking.adaptive.block_binding: Input should be a valid dictionary'
    );
  });
});
