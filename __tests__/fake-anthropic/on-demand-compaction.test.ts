/**
 * On-demand compaction (beta compact-2026-09-04) through the real SDK: the block, its signature,
 * stop_reason "compaction", where the block may stand, the refusals, the kept-turn conditions for
 * thinking (compaction-thinking-blocks) and the Models API's capability.
 */
import Anthropic, { APIError } from '@anthropic-ai/sdk';
import type {
  BetaContentBlock,
  BetaContentBlockParam,
  BetaMessageParam
} from '@anthropic-ai/sdk/resources/beta/messages/messages';
import {
  ON_DEMAND_COMPACTION_BETA,
  reply,
  startFakeAnthropic,
  text,
  thinking,
  toolUse,
  type FakeAnthropic
} from '../../test-support/fake-anthropic/index.js';
import { clientFor, readFileTool, rejectionOf } from './helpers.js';

const MODEL = 'claude-sonnet-5-5';
const SYSTEM = 'You are a careful coding agent.';
const TASK = 'Read the files one by one and tell me what they do.';
const betas = [ON_DEMAND_COMPACTION_BETA];

const bindingError = (messageIndex: number, blockIndex: number): string =>
  `messages.${messageIndex}.content.${blockIndex}: Invalid \`signature\` in \`thinking\` block. The block is bound to a different conversation. Remove the block, or set \`thinking.block_binding.prefix_mismatch_behavior\` to "drop_block".`;

function asParams(content: readonly BetaContentBlock[]): BetaContentBlockParam[] {
  return content.map((block): BetaContentBlockParam => {
    switch (block.type) {
      case 'text':
        return { type: 'text', text: block.text };
      case 'tool_use':
        return { type: 'tool_use', id: block.id, name: block.name, input: block.input };
      case 'thinking':
        return { type: 'thinking', thinking: block.thinking, signature: block.signature };
      case 'compaction':
        return {
          type: 'compaction',
          content: block.content,
          encrypted_content: block.encrypted_content,
          signature: block.signature ?? null
        };
      default:
        throw new Error(`unexpected block ${block.type}`);
    }
  });
}

describe('fake Anthropic: on-demand compaction', () => {
  let fake: FakeAnthropic;
  let client: Anthropic;

  beforeEach(async () => {
    fake = await startFakeAnthropic({
      script: (_request, { callIndex }) =>
        reply(
          thinking(`Thought ${callIndex}: read f${callIndex}.ts next.`),
          text(`Step ${callIndex}.`),
          toolUse('read_file', { path: `f${callIndex}.ts` })
        )
    });
    client = clientFor(fake, 0);
  });
  afterEach(async () => fake.close());

  const turn = (messages: BetaMessageParam[], extra: { system?: string } = {}) =>
    client.beta.messages.create({
      model: MODEL,
      max_tokens: 2000,
      system: extra.system ?? SYSTEM,
      tools: [readFileTool],
      messages,
      betas
    });

  const compact = (messages: BetaMessageParam[], options: { stream?: boolean; betas?: string[] } = {}) =>
    options.stream
      ? client.beta.messages
          .stream({
            model: MODEL,
            max_tokens: 2000,
            system: SYSTEM,
            tools: [readFileTool],
            messages,
            compaction: { type: 'summarize' },
            betas: options.betas ?? betas
          })
          .finalMessage()
      : client.beta.messages.create({
          model: MODEL,
          max_tokens: 2000,
          system: SYSTEM,
          tools: [readFileTool],
          messages,
          compaction: { type: 'summarize' },
          betas: options.betas ?? betas
        });

  /** Runs `turns` tool-loop turns; returns the history and the request prefix each reply answered. */
  async function converse(turns: number): Promise<{ messages: BetaMessageParam[]; sentBefore: number[] }> {
    const messages: BetaMessageParam[] = [{ role: 'user', content: TASK }];
    const sentBefore: number[] = [];
    for (let i = 0; i < turns; i++) {
      sentBefore.push(messages.length);
      const message = await turn(messages);
      messages.push({ role: 'assistant', content: asParams(message.content) });
      const call = message.content.find((b) => b.type === 'tool_use');
      if (call?.type !== 'tool_use') throw new Error('expected a tool call');
      messages.push({
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: call.id, content: `contents of f${i}.ts` }]
      });
    }
    return { messages, sentBefore };
  }

  /**
   * Compacts the request that produced the last reply (history before it), as the docs advise; the
   * kept turns (that reply and its results) follow the block unchanged.
   */
  async function compactKeepingLastTurn(messages: BetaMessageParam[], stream = false) {
    const summarized = messages.slice(0, -2);
    const answer = await compact(summarized, { stream });
    const swapped: BetaMessageParam[] = [
      { role: 'assistant', content: asParams(answer.content) },
      ...messages.slice(-2)
    ];
    return { answer, swapped };
  }

  it('answers one signed compaction block with stop_reason "compaction", streamed or not, without a script call', async () => {
    const { messages } = await converse(3);
    const calls = fake.callCount;
    for (const stream of [false, true]) {
      const { answer } = await compactKeepingLastTurn(messages, stream);
      expect(answer.stop_reason).toBe('compaction');
      expect(answer.content).toHaveLength(1);
      const block = answer.content[0]!;
      if (block.type !== 'compaction') throw new Error('expected a compaction block');
      expect(block.content).toContain('Summary of 5 messages');
      expect(typeof block.signature).toBe('string');
      expect(block.signature!.length).toBeGreaterThan(20);
      expect(answer.usage.output_tokens).toBeGreaterThan(0);
    }
    expect(fake.callCount).toBe(calls);
    expect(fake.requests.filter((r) => r.compaction)).toHaveLength(2);
  });

  it('accepts the block first in messages, with the kept turn and its thinking after it', async () => {
    const { messages } = await converse(3);
    const { swapped } = await compactKeepingLastTurn(messages);
    const next = await turn(swapped);
    expect(next.stop_reason).toBe('tool_use');
    expect(fake.requests.filter((r) => r.rejected)).toEqual([]);
    // Append-only after the swap: the new reply's thinking stays valid too, and a second compaction works.
    swapped.push({ role: 'assistant', content: asParams(next.content) });
    const call = next.content.find((b) => b.type === 'tool_use');
    if (call?.type !== 'tool_use') throw new Error('expected a tool call');
    swapped.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: call.id, content: 'more' }] });
    await turn(swapped);
    const second = await compact(swapped);
    expect(second.content[0]?.type === 'compaction' && second.content[0].content).toContain(
      'Before them: Summary of 5 messages'
    );
    expect(fake.requests.filter((r) => r.rejected)).toEqual([]);
  });

  it('refuses the kept thinking with the binding 400 when a condition breaks', async () => {
    const { messages } = await converse(3);
    const { swapped } = await compactKeepingLastTurn(messages);

    // Something added between the block and the kept turns.
    const added: BetaMessageParam[] = [
      swapped[0]!,
      { role: 'user', content: 'A note our code slipped in.' },
      ...swapped.slice(1)
    ];
    const addedError = (await rejectionOf(turn(added))) as APIError;
    expect(addedError.status).toBe(400);
    expect(addedError.apiMessage).toContain(bindingError(2, 0));

    // A turn skipped: the kept reply no longer follows what was summarized.
    const { answer } = await compactKeepingLastTurn(messages.slice(0, -2));
    const skipped: BetaMessageParam[] = [
      { role: 'assistant', content: asParams(answer.content) },
      ...messages.slice(-2)
    ];
    expect(((await rejectionOf(turn(skipped))) as APIError).apiMessage).toContain(bindingError(1, 0));

    // A changed system prompt.
    expect(
      ((await rejectionOf(turn(swapped, { system: `${SYSTEM} Be brief.` }))) as APIError).apiMessage
    ).toContain(bindingError(1, 0));

    // The first kept message has the last summarized message's role: the API would merge it into
    // the summarized one, so what follows no longer continues the summarized prefix.
    const summarized = await compact(messages.slice(0, -2));
    const sameRoleKept: BetaMessageParam[] = [
      { role: 'assistant', content: asParams(summarized.content) },
      { role: 'user', content: 'Another user message, merged into the summarized one.' },
      ...messages.slice(-2)
    ];
    expect(((await rejectionOf(turn(sameRoleKept))) as APIError).apiMessage).toContain(bindingError(2, 0));
    expect(
      fake.requests.filter((r) => r.rejected).every((r) => r.rejected?.kind === 'thinking_binding')
    ).toBe(true);
  });

  it('refuses a compaction request that ends on an unanswered tool call, or carries context_management', async () => {
    const { messages } = await converse(2);
    const open = messages.slice(0, -1);
    const incomplete = (await rejectionOf(compact(open))) as APIError;
    expect(incomplete.status).toBe(400);
    expect(incomplete.errorCode).toBe('compaction_incomplete_turn');
    expect(incomplete.message).toContain('ends on an `assistant` turn that is not finished');

    const withEdits = (await rejectionOf(
      client.beta.messages.create({
        model: MODEL,
        max_tokens: 2000,
        messages: messages,
        tools: [readFileTool],
        compaction: { type: 'summarize' },
        context_management: { edits: [{ type: 'clear_tool_uses_20250919' }] },
        betas: [...betas, 'context-management-2025-06-27']
      })
    )) as APIError;
    expect(withEdits.status).toBe(400);
    expect(withEdits.message).toContain('cannot be combined with `context_management`');
    expect(fake.requests.filter((r) => r.rejected).map((r) => r.rejected?.kind)).toEqual([
      'compaction',
      'compaction'
    ]);
  });

  it('accepts the block only first, unchanged, and with the beta header', async () => {
    const { messages } = await converse(2);
    const { swapped } = await compactKeepingLastTurn(messages);
    const block = swapped[0]!.content as BetaContentBlockParam[];

    const withoutBeta = (await rejectionOf(
      client.beta.messages.create({
        model: MODEL,
        max_tokens: 100,
        system: SYSTEM,
        tools: [readFileTool],
        messages: swapped
      })
    )) as APIError;
    expect(withoutBeta.message).toContain(`anthropic-beta: ${ON_DEMAND_COMPACTION_BETA}`);

    const notFirst: BetaMessageParam[] = [{ role: 'user', content: TASK }, ...swapped];
    const misplaced = (await rejectionOf(turn(notFirst))) as APIError;
    expect(misplaced.errorCode).toBe('compaction_block_misplaced');

    const edited = [
      { ...(block[0] as object), content: 'A summary I wrote myself.' }
    ] as BetaContentBlockParam[];
    const changed = (await rejectionOf(
      turn([{ role: 'assistant', content: edited }, ...swapped.slice(1)])
    )) as APIError;
    expect(changed.errorCode).toBe('compaction_content_mismatch');

    const forged = [{ ...(block[0] as object), signature: 'Zm9yZ2Vk' }] as BetaContentBlockParam[];
    const invalid = (await rejectionOf(
      turn([{ role: 'assistant', content: forged }, ...swapped.slice(1)])
    )) as APIError;
    expect(invalid.errorCode).toBe('compaction_signature_invalid');

    const withoutCompactionBeta = (await rejectionOf(compact(messages, { betas: [] }))) as APIError;
    expect(withoutCompactionBeta.message).toContain('compaction: This field requires the beta header');
  });

  it('reports the compaction capability per model in the Models API', async () => {
    const sonnet = await client.beta.models.retrieve('claude-sonnet-5-5');
    expect(sonnet.capabilities?.compaction).toEqual({ supported: true, summarize: { supported: true } });
    const haiku45 = await client.beta.models.retrieve('claude-haiku-4-5');
    expect(haiku45.capabilities?.compaction?.supported).toBe(false);
    const all = [];
    for await (const model of client.beta.models.list()) all.push(model.id);
    expect(all).toContain('claude-opus-5-5');
    const unknown = (await rejectionOf(client.beta.models.retrieve('claude-nope-1'))) as APIError;
    expect(unknown.status).toBe(404);
  });
});
