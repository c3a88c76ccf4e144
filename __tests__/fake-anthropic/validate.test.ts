import {
  errorText,
  parseRequest,
  validateRequest,
  type JsonObject,
  type ValidateOptions
} from '../../test-support/fake-anthropic/index.js';

const MODEL = 'claude-sonnet-4-6';
const V2026: ValidateOptions = { endpoint: 'messages', anthropicVersion: '2026-10-21' };
const COUNT: ValidateOptions = { endpoint: 'count_tokens', anthropicVersion: '2026-10-21' };

const readFile = {
  name: 'read_file',
  description: 'Read a file',
  input_schema: { type: 'object', properties: { path: { type: 'string' } } }
};

function body(messages: unknown[], extra: JsonObject = {}): JsonObject {
  return { model: MODEL, max_tokens: 1024, messages, ...extra };
}
const user = (content: unknown): JsonObject => ({ role: 'user', content });
const assistant = (content: unknown): JsonObject => ({ role: 'assistant', content });
const textBlock = (t: string, extra: JsonObject = {}): JsonObject => ({ type: 'text', text: t, ...extra });
const use = (id: string, name = 'read_file', input: unknown = { path: 'a.ts' }): JsonObject => ({
  type: 'tool_use',
  id,
  name,
  input
});
const result = (id: string, content: unknown = 'file body'): JsonObject => ({
  type: 'tool_result',
  tool_use_id: id,
  content
});
const ephemeral = { type: 'ephemeral' };

/** A valid tool round trip: task, tool call, result, answer, follow-up. */
function toolLoop(): unknown[] {
  return [
    user('Fix the bug.'),
    assistant([textBlock('Reading.'), use('toolu_a')]),
    user([result('toolu_a'), textBlock('Go on.')]),
    assistant('Done.'),
    user('Thanks')
  ];
}

describe('validateRequest: valid requests', () => {
  test('accepts a plain request, a tool loop, tools and a system prompt', () => {
    expect(validateRequest(body([user('hi')]), V2026)).toBeNull();
    expect(
      validateRequest(body(toolLoop(), { tools: [readFile], system: 'You are terse.', stream: true }), V2026)
    ).toBeNull();
    expect(validateRequest({ model: MODEL, messages: toolLoop(), tools: [readFile] }, COUNT)).toBeNull();
  });

  test('accepts a final assistant message with empty content (prefill) and Anthropic-defined tools', () => {
    expect(validateRequest(body([user('hi'), assistant([])]), V2026)).toBeNull();
    expect(
      validateRequest(body([user('hi')], { tools: [{ type: 'bash_20250124', name: 'bash' }] }), V2026)
    ).toBeNull();
  });

  test('pairs tool use on merged same-role messages, as the API merges them', () => {
    const messages = [
      user('go'),
      assistant([use('toolu_a')]),
      assistant([textBlock('and also')]),
      user([result('toolu_a')]),
      user('more')
    ];
    expect(validateRequest(body(messages), V2026)).toBeNull();
  });

  test('parseRequest returns the typed request', () => {
    const parsed = parseRequest(body(toolLoop(), { system: [textBlock('sys')], tools: [readFile] }), V2026);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.request).toMatchObject({
      endpoint: 'messages',
      model: MODEL,
      max_tokens: 1024,
      stream: false
    });
    expect(parsed.request.messages).toHaveLength(5);
    expect(parsed.request.tools?.[0]?.name).toBe('read_file');
  });
});

describe('validateRequest: API version and sampling parameters', () => {
  test('anthropic-version header is required and must be known', () => {
    expect(validateRequest(body([user('hi')]), { endpoint: 'messages', anthropicVersion: undefined })).toBe(
      'anthropic-version: header is required'
    );
    expect(
      validateRequest(body([user('hi')]), { endpoint: 'messages', anthropicVersion: '2099-01-01' })
    ).toBe(errorText.versionUnknown('2099-01-01'));
  });

  test.each(['temperature', 'top_p', 'top_k'])(
    '%s is rejected on 2026-10-21 (even at a default value)',
    (param) => {
      expect(validateRequest(body([user('hi')], { [param]: 1 }), V2026)).toBe(
        `${param}: Extra inputs are not permitted`
      );
    }
  );

  test('temperature is still accepted on 2023-06-01', () => {
    expect(
      validateRequest(body([user('hi')], { temperature: 0.2 }), {
        endpoint: 'messages',
        anthropicVersion: '2023-06-01'
      })
    ).toBeNull();
  });

  test('unknown top-level fields are rejected', () => {
    expect(validateRequest(body([user('hi')], { foo: 1 }), V2026)).toBe(
      'foo: Extra inputs are not permitted'
    );
  });
});

describe('validateRequest: basic shape', () => {
  test('model', () => {
    expect(validateRequest({ max_tokens: 10, messages: [user('hi')] }, V2026)).toBe('model: Field required');
    expect(validateRequest({ model: 3, max_tokens: 10, messages: [user('hi')] }, V2026)).toBe(
      'model: Input should be a valid string'
    );
  });

  test('max_tokens is a required positive integer on messages, and not allowed on count_tokens', () => {
    expect(validateRequest({ model: MODEL, messages: [user('hi')] }, V2026)).toBe(
      'max_tokens: Field required'
    );
    expect(validateRequest(body([user('hi')], { max_tokens: 0 }), V2026)).toBe(
      'max_tokens: Input should be greater than or equal to 1'
    );
    expect(validateRequest(body([user('hi')], { max_tokens: 1.5 }), V2026)).toBe(
      'max_tokens: Input should be a valid integer'
    );
    expect(validateRequest(body([user('hi')], { max_tokens: '10' }), V2026)).toBe(
      'max_tokens: Input should be a valid integer'
    );
    expect(validateRequest(body([user('hi')]), COUNT)).toBe('max_tokens: Extra inputs are not permitted');
    expect(validateRequest({ model: MODEL, messages: [user('hi')], stream: true }, COUNT)).toBe(
      'stream: Extra inputs are not permitted'
    );
  });

  test('messages: present, a list, not empty, valid roles, user first, no extra keys', () => {
    expect(validateRequest({ model: MODEL, max_tokens: 10 }, V2026)).toBe('messages: Field required');
    expect(validateRequest(body([]), V2026)).toBe('messages: at least one message is required');
    expect(validateRequest({ model: MODEL, max_tokens: 10, messages: 'hi' }, V2026)).toBe(
      'messages: Input should be a valid list'
    );
    expect(validateRequest(body([{ role: 'system', content: 'x' }]), V2026)).toBe(errorText.roleInvalid(0));
    expect(validateRequest(body([assistant('hello'), user('hi')]), V2026)).toBe(
      errorText.firstMessageNotUser
    );
    expect(validateRequest(body([{ role: 'user', content: 'hi', id: 'm1' }]), V2026)).toBe(
      'messages.0.id: Extra inputs are not permitted'
    );
    expect(validateRequest(body([{ role: 'user' }]), V2026)).toBe('messages.0.content: Field required');
  });

  test('content blocks: known types, right fields', () => {
    expect(validateRequest(body([user([{ type: 'video' }])]), V2026)).toMatch(
      /^messages\.0\.content\.0: Input tag 'video' found using 'type' does not match any of the expected tags: 'text', /
    );
    expect(
      validateRequest(body([user('go'), assistant([use('toolu_a', 'read_file', 'not an object')])]), V2026)
    ).toBe('messages.1.content.0.tool_use.input: Input should be a valid dictionary');
    expect(validateRequest(body([user([textBlock('hi', { extra: true })])]), V2026)).toBe(
      'messages.0.content.0.text.extra: Extra inputs are not permitted'
    );
  });

  test('tool definitions: a valid unique name and an object input_schema', () => {
    expect(validateRequest(body([user('hi')], { tools: [{ ...readFile, name: 'read file' }] }), V2026)).toBe(
      "tools.0.name: String should match pattern '^[a-zA-Z0-9_-]{1,64}$'"
    );
    expect(
      validateRequest(body([user('hi')], { tools: [{ ...readFile, name: 'x'.repeat(65) }] }), V2026)
    ).toBe(errorText.toolNamePattern(0));
    expect(validateRequest(body([user('hi')], { tools: [{ name: 'read_file' }] }), V2026)).toBe(
      'tools.0.input_schema: Field required'
    );
    expect(
      validateRequest(body([user('hi')], { tools: [{ name: 'read_file', input_schema: [] }] }), V2026)
    ).toBe('tools.0.input_schema: Input should be a valid dictionary');
    expect(
      validateRequest(
        body([user('hi')], { tools: [{ name: 'read_file', input_schema: { type: 'string' } }] }),
        V2026
      )
    ).toBe("tools.0.input_schema.type: Input should be 'object'");
    expect(validateRequest(body([user('hi')], { tools: [readFile, readFile] }), V2026)).toBe(
      'tools: Tool names must be unique.'
    );
  });

  test('thinking budget must stay below max_tokens', () => {
    expect(
      validateRequest(body([user('hi')], { thinking: { type: 'enabled', budget_tokens: 2048 } }), V2026)
    ).toBe(errorText.maxTokensBelowBudget);
    expect(
      validateRequest(
        body([user('hi')], { max_tokens: 4096, thinking: { type: 'enabled', budget_tokens: 2048 } }),
        V2026
      )
    ).toBeNull();
  });
});

describe('validateRequest: content rules', () => {
  test('non-empty content except for the optional final assistant message', () => {
    expect(validateRequest(body([user([])]), V2026)).toBe(
      'messages.0: all messages must have non-empty content except for the optional final assistant message'
    );
    expect(validateRequest(body([user('a'), assistant([]), user('b')]), V2026)).toBe(
      errorText.emptyContent(1)
    );
  });

  test('text blocks must be non-empty and not only whitespace (string content counts as a text block)', () => {
    expect(validateRequest(body([user([textBlock('')])]), V2026)).toBe(
      'messages: text content blocks must be non-empty'
    );
    expect(validateRequest(body([user('')]), V2026)).toBe('messages: text content blocks must be non-empty');
    expect(validateRequest(body([user([textBlock(' \n\t')])]), V2026)).toBe(
      'messages: text content blocks must contain non-whitespace text'
    );
    expect(
      validateRequest(
        body([user('go'), assistant([use('toolu_a')]), user([result('toolu_a', [textBlock('')])])]),
        V2026
      )
    ).toBe('messages: text content blocks must be non-empty');
    expect(validateRequest(body([user('hi')], { system: [textBlock('  ')] }), V2026)).toBe(
      'system: text content blocks must contain non-whitespace text'
    );
  });

  test('a prefilled final assistant message must not end with whitespace', () => {
    expect(validateRequest(body([user('hi'), assistant('Sure, ')]), V2026)).toBe(
      errorText.finalAssistantTrailingWhitespace
    );
    expect(validateRequest(body([user('hi'), assistant('Sure,')]), V2026)).toBeNull();
  });
});

describe('validateRequest: tool_use / tool_result pairing', () => {
  test('a tool_use not answered in the very next message', () => {
    const messages = [user('go'), assistant([textBlock('Reading.'), use('toolu_a')]), user('what happened?')];
    expect(validateRequest(body(messages), V2026)).toBe(
      'messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_a. Each `tool_use` block must have a corresponding `tool_result` block in the next message.'
    );
  });

  test('a tool_use answered only later, or in a final assistant message, is still an orphan', () => {
    const later = [
      user('go'),
      assistant([use('toolu_a')]),
      user('wait'),
      assistant('ok'),
      user([result('toolu_a')])
    ];
    expect(validateRequest(body(later), V2026)).toBe(errorText.toolUseWithoutResult(1, ['toolu_a']));
    expect(validateRequest(body([user('go'), assistant([use('toolu_a')])]), V2026)).toBe(
      errorText.toolUseWithoutResult(1, ['toolu_a'])
    );
  });

  test('lists every unanswered id', () => {
    const messages = [
      user('go'),
      assistant([use('toolu_a'), use('toolu_b'), use('toolu_c')]),
      user([result('toolu_b')])
    ];
    expect(validateRequest(body(messages), V2026)).toBe(
      errorText.toolUseWithoutResult(1, ['toolu_a', 'toolu_c'])
    );
    expect(errorText.toolUseWithoutResult(1, ['toolu_a', 'toolu_c'])).toContain(
      'immediately after: toolu_a, toolu_c. Each'
    );
  });

  test('a tool_result must reference a tool_use of the previous assistant message', () => {
    const messages = [
      user('go'),
      assistant([use('toolu_a')]),
      user([result('toolu_a'), result('toolu_zzz')])
    ];
    expect(validateRequest(body(messages), V2026)).toBe(
      'messages.2.content.1: unexpected `tool_use_id` found in `tool_result` blocks: toolu_zzz. Each `tool_result` block must have a corresponding `tool_use` block in the previous message.'
    );
    expect(validateRequest(body([user([result('toolu_a')])]), V2026)).toBe(
      errorText.unexpectedToolResult(0, 0, 'toolu_a')
    );
    // An id from two turns back does not count.
    const stale = [...toolLoop(), assistant([textBlock('again')]), user([result('toolu_a')])];
    expect(validateRequest(body(stale), V2026)).toBe(errorText.unexpectedToolResult(6, 0, 'toolu_a'));
  });

  test('tool_result blocks must come first in their message', () => {
    const messages = [
      user('go'),
      assistant([use('toolu_a'), use('toolu_b')]),
      user([result('toolu_a'), textBlock('note'), result('toolu_b')])
    ];
    expect(validateRequest(body(messages), V2026)).toBe(
      'messages.2: Did not find 2 `tool_result` block(s) at the beginning of this message. Messages following `tool_use` blocks must begin with a matching number of `tool_result` blocks.'
    );
  });

  test('one tool_result per tool_use, unique tool_use ids, each block in its role', () => {
    const twice = [user('go'), assistant([use('toolu_a')]), user([result('toolu_a'), result('toolu_a')])];
    expect(validateRequest(body(twice), V2026)).toBe(errorText.duplicateToolResult(2, 1, 'toolu_a'));
    const reused = [...toolLoop().slice(0, 3), assistant([use('toolu_a')]), user([result('toolu_a')])];
    expect(validateRequest(body(reused), V2026)).toBe(errorText.duplicateToolUseId(3, 0, 'toolu_a'));
    expect(validateRequest(body([user([use('toolu_a')])]), V2026)).toBe(
      errorText.blockInWrongRole(0, 0, 'tool_use', 'user')
    );
  });
});

describe('validateRequest: cache_control breakpoints', () => {
  test('at most 4, counted across tools, system, messages and tool results', () => {
    const messages = [
      user([textBlock('task', { cache_control: ephemeral })]),
      assistant([use('toolu_a')]),
      user([
        { ...result('toolu_a', [textBlock('out', { cache_control: ephemeral })]) },
        textBlock('more', { cache_control: ephemeral })
      ])
    ];
    const four = body(messages, { tools: [{ ...readFile, cache_control: ephemeral }] });
    expect(validateRequest(four, V2026)).toBeNull();
    const five = { ...four, system: [textBlock('sys', { cache_control: { type: 'ephemeral', ttl: '1h' } })] };
    expect(validateRequest(five, V2026)).toBe(
      'A maximum of 4 blocks with cache_control may be provided. Found 5.'
    );
  });

  test('cache_control must be ephemeral with a 5m or 1h ttl', () => {
    expect(
      validateRequest(
        body([user([textBlock('x', { cache_control: { type: 'ephemeral', ttl: '2h' } })])]),
        V2026
      )
    ).toBe("messages.0.content.0.text.cache_control.ttl: Input should be '5m' or '1h'");
  });
});

describe('validateRequest: prompt too long', () => {
  const counting = (tokens: number, contextWindow: ValidateOptions['contextWindow']): ValidateOptions => ({
    ...V2026,
    contextWindow,
    countPromptTokens: () => tokens
  });

  test('over the context window → prompt is too long', () => {
    expect(validateRequest(body([user('hi')]), counting(1001, 1000))).toBe(
      'prompt is too long: 1001 tokens > 1000 maximum'
    );
    expect(validateRequest(body([user('hi')]), counting(1000, 1000))).toBeNull();
  });

  test('the window can depend on the model, and count_tokens is never capped', () => {
    const perModel = counting(5000, (model) => (model === 'small-model' ? 4000 : 200_000));
    expect(validateRequest(body([user('hi')], { model: 'small-model' }), perModel)).toBe(
      errorText.promptTooLong(5000, 4000)
    );
    expect(validateRequest(body([user('hi')]), perModel)).toBeNull();
    expect(
      validateRequest(
        { model: 'small-model', messages: [user('hi')] },
        { ...perModel, endpoint: 'count_tokens' }
      )
    ).toBeNull();
  });
});
