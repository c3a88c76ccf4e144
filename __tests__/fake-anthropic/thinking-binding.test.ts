/** Preserved thinking through the real SDK: blocks bound to model and prefix, drop_block, redacted blocks. */
import Anthropic from '@anthropic-ai/sdk';
import { countTokens } from '@anthropic-ai/tokenizer';
import {
  redactedThinking,
  reply,
  startFakeAnthropic,
  text,
  thinking,
  THINKING_BINDING_BETA,
  toolUse,
  type FakeAnthropic,
  type RecordedRequest,
  type ReplyBlock,
  type Script
} from '../../test-support/fake-anthropic/index.js';
import { answered, clientFor, readFileTool, rejectionOf } from './helpers.js';

const BINDING_MODEL = 'claude-sonnet-5-5';
const TASK = 'Read the files one by one and tell me what they do.';
const SYSTEM = 'You are a careful coding agent.';

const bindingError = (messageIndex: number, blockIndex: number): string =>
  `messages.${messageIndex}.content.${blockIndex}: Invalid \`signature\` in \`thinking\` block. The block is bound to a different conversation. Remove the block, or set \`thinking.block_binding.prefix_mismatch_behavior\` to "drop_block".`;

/** Every call: a thought, a word, and one read_file call (the script never runs out). */
const thinkingReader =
  (extra: (callIndex: number) => ReplyBlock[] = () => []): Script =>
  (_request, { callIndex }) =>
    reply(
      thinking(`Thought ${callIndex}: read f${callIndex}.ts next.`),
      ...extra(callIndex),
      text(`Step ${callIndex}.`),
      toolUse('read_file', { path: `f${callIndex}.ts` })
    );

/** Reply content as request params, as the loop keeps them (no citations, no caller). */
function asParams(content: readonly Anthropic.ContentBlock[]): Anthropic.ContentBlockParam[] {
  return content.map((block): Anthropic.ContentBlockParam => {
    switch (block.type) {
      case 'text':
        return { type: 'text', text: block.text };
      case 'tool_use':
        return { type: 'tool_use', id: block.id, name: block.name, input: block.input };
      case 'thinking':
        return { type: 'thinking', thinking: block.thinking, signature: block.signature };
      case 'redacted_thinking':
        return { type: 'redacted_thinking', data: block.data };
      default:
        throw new Error(`unexpected block ${block.type}`);
    }
  });
}

interface Conversation {
  messages: Anthropic.MessageParam[];
  replies: Anthropic.Message[];
}

/** Runs `turns` tool-loop turns append-only and returns the history (ending on a user tool_result turn). */
async function converse(client: Anthropic, turns: number, model = BINDING_MODEL): Promise<Conversation> {
  const messages: Anthropic.MessageParam[] = [{ role: 'user', content: TASK }];
  const replies: Anthropic.Message[] = [];
  for (let turn = 0; turn < turns; turn++) {
    const message = await client.messages.create({
      model,
      max_tokens: 2000,
      system: SYSTEM,
      tools: [readFileTool],
      messages
    });
    replies.push(message);
    messages.push({ role: 'assistant', content: asParams(message.content) });
    const call = message.content.find((b) => b.type === 'tool_use');
    if (call?.type !== 'tool_use') throw new Error('expected a tool call');
    messages.push({
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: call.id, content: `contents of ${String(turn)}` }]
    });
  }
  return { messages, replies };
}

const next = (
  client: Anthropic,
  messages: Anthropic.MessageParam[],
  extra: Partial<Anthropic.MessageCreateParamsNonStreaming> = {}
) =>
  client.messages.create({
    model: BINDING_MODEL,
    max_tokens: 2000,
    system: SYSTEM,
    tools: [readFileTool],
    messages,
    ...extra
  });

async function apiMessageOf(promise: Promise<unknown>): Promise<string> {
  const error = await rejectionOf(promise);
  if (!(error instanceof Anthropic.BadRequestError)) throw new Error(`expected a 400, got ${String(error)}`);
  return error.apiMessage ?? '';
}

function withoutThinkingOf(message: Anthropic.MessageParam): Anthropic.MessageParam {
  if (message.role === 'system' || typeof message.content === 'string') return message;
  return { role: message.role, content: message.content.filter((b) => b.type !== 'thinking') };
}

const rejectedKinds = (fake: FakeAnthropic): string[] =>
  fake.requests.flatMap((r: RecordedRequest) => (r.rejected ? [r.rejected.kind] : []));

describe('preserved thinking on a model that binds (claude-sonnet-5-5)', () => {
  let fake: FakeAnthropic;
  let client: Anthropic;
  beforeEach(async () => {
    fake = await startFakeAnthropic({ script: thinkingReader() });
    client = clientFor(fake);
  });
  afterEach(() => fake.close());

  test('an append-only conversation replays every block without a rejection, streamed or not', async () => {
    const { messages, replies } = await converse(client, 3);
    const signature = replies[0]?.content[0];
    expect(signature).toMatchObject({ type: 'thinking', thinking: 'Thought 0: read f0.ts next.' });
    if (signature?.type !== 'thinking') throw new Error('expected thinking first');
    expect(signature.signature.length).toBeGreaterThan(20);

    // The streamed reply carries its signature through signature_delta; replaying it works too.
    const streamed = await client.messages
      .stream({ model: BINDING_MODEL, max_tokens: 2000, system: SYSTEM, tools: [readFileTool], messages })
      .finalMessage();
    const call = streamed.content.find((b) => b.type === 'tool_use');
    if (call?.type !== 'tool_use') throw new Error('expected a tool call');
    // Replayed verbatim, as the SDK returned them (citations: null, caller): not an edit.
    messages.push({
      role: 'assistant',
      content: streamed.content as unknown as Anthropic.ContentBlockParam[]
    });
    messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: call.id, content: 'x' }] });
    await next(client, messages);

    expect(rejectedKinds(fake)).toEqual([]);
    expect(fake.callCount).toBe(5);
  });

  test('an edited tool result: 400 naming the first thinking block after it, the same on retry', async () => {
    const { messages } = await converse(client, 3);
    // messages: 0 user task, 1 asst, 2 result, 3 asst, 4 result, 5 asst, 6 result. Edit result 2.
    const edited = structuredClone(messages);
    edited[2] = {
      role: 'user',
      content: [{ ...(edited[2]!.content as Anthropic.ToolResultBlockParam[])[0]!, content: '[cleared]' }]
    };

    expect(await apiMessageOf(next(client, edited))).toBe(bindingError(3, 0));
    expect(await apiMessageOf(next(client, edited))).toBe(bindingError(3, 0));
    expect(rejectedKinds(fake)).toEqual(['thinking_binding', 'thinking_binding']);
    // Blocks before the edit stay valid: stripping the thinking after the edit is enough.
    const stripped = edited.map((m, i) => (i > 2 ? withoutThinkingOf(m) : m));
    await next(client, stripped);
    expect(rejectedKinds(fake)).toHaveLength(2);
  });

  test('omitting one thinking block among several invalidates every later one, one after the other', async () => {
    const { messages } = await converse(client, 4);
    // Thinking blocks at messages 1, 3, 5, 7 (content index 0). Leave out the one of message 3.
    const omitted = messages.map((m, i) => (i === 3 ? withoutThinkingOf(m) : m));
    expect(await apiMessageOf(next(client, omitted))).toBe(bindingError(5, 0));
    // Removing only the named block is not enough: the next one fails.
    const alsoFive = omitted.map((m, i) => (i === 5 ? withoutThinkingOf(m) : m));
    expect(await apiMessageOf(next(client, alsoFive))).toBe(bindingError(7, 0));
    const allAfter = alsoFive.map((m, i) => (i === 7 ? withoutThinkingOf(m) : m));
    await next(client, allAfter);
    expect(rejectedKinds(fake)).toEqual(['thinking_binding', 'thinking_binding']);
  });

  test('a changed system prompt or tool list invalidates the first replayed block', async () => {
    const { messages } = await converse(client, 2);
    expect(await apiMessageOf(next(client, messages, { system: `${SYSTEM} Today is Monday.` }))).toBe(
      bindingError(1, 0)
    );
    const otherTool = { ...readFileTool, description: 'Read a file (now with line numbers).' };
    expect(
      await apiMessageOf(next(client, messages, { tools: [readFileTool, { ...otherTool, name: 'grep' }] }))
    ).toBe(bindingError(1, 0));
    expect(await apiMessageOf(next(client, messages, { tools: [otherTool] }))).toBe(bindingError(1, 0));
  });

  test('moving cache_control breakpoints and writing content as a string or blocks are not edits', async () => {
    const { messages } = await converse(client, 2);
    const marked = structuredClone(messages);
    marked[0] = {
      role: 'user',
      content: [{ type: 'text', text: TASK, cache_control: { type: 'ephemeral' } }]
    };
    const result = (marked[2]!.content as Anthropic.ToolResultBlockParam[])[0]!;
    marked[2] = {
      role: 'user',
      content: [
        {
          ...result,
          content: [{ type: 'text', text: 'contents of 0' }],
          cache_control: { type: 'ephemeral', ttl: '1h' }
        }
      ]
    };
    await next(client, marked, {
      system: [{ type: 'text', text: SYSTEM, cache_control: { type: 'ephemeral' } }],
      tools: [{ ...readFileTool, cache_control: { type: 'ephemeral' } }]
    });
    expect(rejectedKinds(fake)).toEqual([]);
  });

  test('a thinking block replayed with other text or signature is invalid', async () => {
    const { messages } = await converse(client, 1);
    const changedText = structuredClone(messages);
    const block = (
      changedText[1]!.content as Anthropic.ContentBlockParam[]
    )[0] as Anthropic.ThinkingBlockParam;
    block.thinking = `${block.thinking} (edited)`;
    expect(await apiMessageOf(next(client, changedText))).toBe(bindingError(1, 0));
    const forged = structuredClone(messages);
    (forged[1]!.content as Anthropic.ThinkingBlockParam[])[0]!.signature = 'RXJyb3I=';
    expect(await apiMessageOf(next(client, forged))).toBe(bindingError(1, 0));
  });

  test('replayed thinking counts as input tokens', async () => {
    const { messages } = await converse(client, 1);
    const withThinking = await next(client, messages);
    const without = await next(client, messages.map(withoutThinkingOf));
    expect(withThinking.usage.input_tokens - without.usage.input_tokens).toBe(
      countTokens('Thought 0: read f0.ts next.')
    );
  });
});

describe('drop_block with the binding beta', () => {
  let fake: FakeAnthropic;
  let client: Anthropic;
  beforeEach(async () => {
    fake = await startFakeAnthropic({ script: thinkingReader() });
    client = clientFor(fake);
  });
  afterEach(() => fake.close());

  const dropBlock = {
    type: 'adaptive' as const,
    block_binding: { prefix_mismatch_behavior: 'drop_block' as const }
  };

  test('drops every block after the edit, answers, and lists each drop in input_transformations', async () => {
    const { messages } = await converse(client, 3);
    const edited = structuredClone(messages);
    edited[0] = { role: 'user', content: `${TASK} Be brief.` };
    const answer = await client.beta.messages.create({
      model: BINDING_MODEL,
      max_tokens: 2000,
      system: SYSTEM,
      tools: [readFileTool],
      messages: edited as Anthropic.Beta.BetaMessageParam[],
      thinking: dropBlock,
      betas: [THINKING_BINDING_BETA]
    });
    expect(answer.input_transformations).toEqual(
      [1, 3, 5].map((i) => ({
        type: 'thinking_dropped',
        path: `messages.${i}.content.0`,
        reason: 'prefix_binding_mismatch'
      }))
    );
    const record = fake.requests.at(-1);
    expect(record?.droppedThinking).toHaveLength(3);
    expect(rejectedKinds(fake)).toEqual([]);
    // Dropped blocks are not billed: the same prompt without them costs the same input.
    const stripped = await next(client, edited.map(withoutThinkingOf));
    expect(answered(record).usage.input_tokens).toBe(stripped.usage.input_tokens);
  });

  test('streamed: input_transformations arrive with message_start; [] when nothing was dropped', async () => {
    const { messages } = await converse(client, 2);
    const stream = client.beta.messages.stream({
      model: BINDING_MODEL,
      max_tokens: 2000,
      system: SYSTEM,
      tools: [readFileTool],
      messages: messages as Anthropic.Beta.BetaMessageParam[],
      thinking: dropBlock,
      betas: [THINKING_BINDING_BETA]
    });
    const final = await stream.finalMessage();
    expect(final.input_transformations).toEqual([]);
    // Without the beta header, no field at all.
    const plain = await next(client, messages);
    expect(plain).not.toHaveProperty('input_transformations');
  });

  test('block_binding without the beta header is a 400 naming the header', async () => {
    const { messages } = await converse(client, 1);
    const message = await apiMessageOf(
      client.beta.messages.create({
        model: BINDING_MODEL,
        max_tokens: 2000,
        system: SYSTEM,
        tools: [readFileTool],
        messages: messages as Anthropic.Beta.BetaMessageParam[],
        thinking: dropBlock
      })
    );
    expect(message).toContain(`anthropic-beta: ${THINKING_BINDING_BETA}`);
    expect(rejectedKinds(fake)).toEqual(['beta_required']);
  });

  test('with the beta but the default behaviour ("error"), an edit is still a 400', async () => {
    const { messages } = await converse(client, 2);
    const edited = structuredClone(messages);
    edited[0] = { role: 'user', content: `${TASK} Be brief.` };
    const message = await apiMessageOf(
      client.beta.messages.create({
        model: BINDING_MODEL,
        max_tokens: 2000,
        system: SYSTEM,
        tools: [readFileTool],
        messages: edited as Anthropic.Beta.BetaMessageParam[],
        thinking: { type: 'adaptive', block_binding: { prefix_mismatch_behavior: 'error' } },
        betas: [THINKING_BINDING_BETA]
      })
    );
    expect(message).toBe(bindingError(1, 0));
  });
});

describe('redacted thinking, other models, and models that do not bind', () => {
  test('redacted_thinking blocks are bound like thinking blocks', async () => {
    const fake = await startFakeAnthropic({
      script: thinkingReader(() => [redactedThinking('hidden plan')])
    });
    try {
      const client = clientFor(fake);
      const { messages, replies } = await converse(client, 2);
      expect(replies[0]?.content[1]).toMatchObject({ type: 'redacted_thinking' });
      await next(client, messages);
      const edited = structuredClone(messages);
      // Drop the first turn's visible thinking only: its redacted sibling (content.0 now) fails first.
      edited[1] = withoutThinkingOf(edited[1]!);
      expect(await apiMessageOf(next(client, edited))).toBe(bindingError(1, 0));
      expect((edited[1]!.content as Anthropic.ContentBlockParam[])[0]?.type).toBe('redacted_thinking');
    } finally {
      await fake.close();
    }
  });

  test("another model's blocks are dropped without an error (reported under the beta)", async () => {
    const fake = await startFakeAnthropic({ script: thinkingReader() });
    try {
      const client = clientFor(fake);
      const { messages } = await converse(client, 2, 'claude-sonnet-5-5');
      const answer = await client.beta.messages.create({
        model: 'claude-opus-5-5',
        max_tokens: 2000,
        system: SYSTEM,
        tools: [readFileTool],
        messages: messages as Anthropic.Beta.BetaMessageParam[],
        betas: [THINKING_BINDING_BETA]
      });
      expect(answer.input_transformations?.map((t) => [t.path, t.reason])).toEqual([
        ['messages.1.content.0', 'model_binding_mismatch'],
        ['messages.3.content.0', 'model_binding_mismatch']
      ]);
      expect(rejectedKinds(fake)).toEqual([]);
    } finally {
      await fake.close();
    }
  });

  test.each(['claude-sonnet-4-5', 'claude-opus-5'])('%s does not check the prefix', async (model) => {
    const fake = await startFakeAnthropic({ script: thinkingReader() });
    try {
      const client = clientFor(fake);
      const { messages } = await converse(client, 2, model);
      const edited = structuredClone(messages);
      edited[0] = { role: 'user', content: `${TASK} Be brief.` };
      const answer = await next(client, edited, { model });
      expect(answer.content[0]?.type).toBe('thinking');
      expect(rejectedKinds(fake)).toEqual([]);
      expect(fake.requests.every((r) => r.droppedThinking === undefined)).toBe(true);
    } finally {
      await fake.close();
    }
  });

  test('a script-given signature is sent as is (a foreign block), and fails when replayed', async () => {
    const fake = await startFakeAnthropic({
      script: (_request, { callIndex }) =>
        reply(
          thinking('Borrowed thought.', 'Zm9yZWlnbg=='),
          toolUse('read_file', { path: `f${callIndex}.ts` })
        )
    });
    try {
      const client = clientFor(fake);
      const { messages, replies } = await converse(client, 1);
      expect(replies[0]?.content[0]).toMatchObject({ signature: 'Zm9yZWlnbg==' });
      expect(await apiMessageOf(next(client, messages))).toBe(bindingError(1, 0));
    } finally {
      await fake.close();
    }
  });
});
