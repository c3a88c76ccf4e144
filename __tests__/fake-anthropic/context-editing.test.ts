/**
 * Context editing (beta context-management-2025-06-27) through the real SDK's beta stream: what the
 * docs say is enforced (the beta header, the edit shapes, the thinking default, the clearing rule,
 * applied_edits on message_delta), and what they leave open is the fake's SILENT_FACTS, checked here
 * so a change of one of them is a visible decision.
 */
import Anthropic, { APIError } from '@anthropic-ai/sdk';
import type { BetaMessageParam } from '@anthropic-ai/sdk/resources/beta/messages/messages';
import {
  CONTEXT_MANAGEMENT_BETA,
  SILENT_FACTS,
  reply,
  startFakeAnthropic,
  thinking,
  toolUse,
  type FakeAnthropic,
  type ParsedRequest
} from '../../test-support/fake-anthropic/index.js';
import { clientFor, readFileTool, rejectionOf } from './helpers.js';

const MODEL = 'claude-sonnet-5-5';
const CLEAR_TOOL_USES = {
  type: 'clear_tool_uses_20250919',
  trigger: { type: 'input_tokens', value: 1_500 },
  keep: { type: 'tool_uses', value: 1 },
  clear_at_least: { type: 'input_tokens', value: 200 }
} as const;

describe('fake Anthropic: context editing', () => {
  let fake: FakeAnthropic;
  let client: Anthropic;
  let seen: ParsedRequest[];

  beforeEach(async () => {
    seen = [];
    fake = await startFakeAnthropic({
      script: (request, { callIndex }) => {
        seen.push(request);
        return reply(
          thinking(`Thought ${callIndex}: read f${callIndex}.ts next.`),
          toolUse('read_file', { path: `f${callIndex}.ts` })
        );
      }
    });
    client = clientFor(fake, 0);
  });
  afterEach(async () => fake.close());

  const send = (messages: BetaMessageParam[], edits: readonly object[], betas = [CONTEXT_MANAGEMENT_BETA]) =>
    client.beta.messages
      .stream({
        model: MODEL,
        max_tokens: 2000,
        thinking: { type: 'adaptive' },
        tools: [readFileTool],
        messages,
        context_management: { edits } as never,
        betas
      })
      .finalMessage();

  /** A conversation of `turns` read_file calls, each answered with about 400 tokens, grown through the fake. */
  async function grow(turns: number, edits: readonly object[]) {
    const messages: BetaMessageParam[] = [{ role: 'user', content: 'Read the files one by one.' }];
    let last;
    for (let turn = 0; turn < turns; turn++) {
      last = await send(messages, edits);
      messages.push({ role: 'assistant', content: last.content as never });
      const use = last.content.find((block) => block.type === 'tool_use')!;
      messages.push({
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: use.id, content: `line of f${turn}\n`.repeat(120) }]
      });
    }
    return { messages, last: last! };
  }

  it('refuses context_management without its beta header, and an edit type it does not know', async () => {
    const messages: BetaMessageParam[] = [{ role: 'user', content: 'hi' }];
    const noBeta = await rejectionOf(send(messages, [CLEAR_TOOL_USES], []));
    expect(noBeta).toBeInstanceOf(APIError);
    expect((noBeta as APIError).message).toContain(`anthropic-beta: ${CONTEXT_MANAGEMENT_BETA}`);
    const unknown = await rejectionOf(send(messages, [{ type: 'clear_everything' }]));
    expect((unknown as APIError).status).toBe(400);
    expect((unknown as APIError).message).toContain('context_management.edits.0.type');
  });

  it('clears the oldest results past the trigger, keeps the latest, and reports it on message_delta', async () => {
    const { messages, last } = await grow(8, [
      { type: 'clear_thinking_20251015', keep: 'all' },
      CLEAR_TOOL_USES
    ]);
    const applied = (
      last as unknown as {
        context_management?: { applied_edits: { type: string; cleared_tool_uses: number }[] };
      }
    ).context_management?.applied_edits;
    const clear = applied?.find((edit) => edit.type === 'clear_tool_uses_20250919');
    expect(clear?.cleared_tool_uses).toBeGreaterThan(0);
    // What the model read: the oldest results are the placeholder, the latest is whole.
    const view = JSON.stringify(seen.at(-1)!.messages);
    expect(view).toContain(SILENT_FACTS.placeholder);
    expect(view).toContain('line of f6');
    // keep: "all": every thinking block the client sent reached the model.
    expect(view.split('"type":"thinking"').length - 1).toBe(7);
    // The client's history is its own: nothing in what it sent was rewritten.
    expect(JSON.stringify(messages)).not.toContain(SILENT_FACTS.placeholder);
  });

  it('keeps only the last turn thinking by default when thinking is on (the docs), and says so', async () => {
    const { last } = await grow(4, [CLEAR_TOOL_USES]);
    const applied = (last as unknown as { context_management?: { applied_edits: { type: string }[] } })
      .context_management?.applied_edits;
    expect(applied?.map((edit) => edit.type)).toContain('clear_thinking_20251015');
    expect(JSON.stringify(seen.at(-1)!.messages).split('"type":"thinking"').length - 1).toBe(1);
  });

  it('SILENT_FACTS: a clear stays, and usage counts the view the model read', async () => {
    const edits = [{ type: 'clear_thinking_20251015', keep: 'all' }, CLEAR_TOOL_USES];
    const { messages } = await grow(8, edits);
    const records = fake.requests.filter((record) => record.path === '/v1/messages');
    const cleared = records.map((record) =>
      (record.appliedEdits ?? []).reduce(
        (sum, edit) => sum + (edit.type === 'clear_tool_uses_20250919' ? edit.cleared_tool_uses : 0),
        0
      )
    );
    // appliedEditsCountTheView and clearsStay: the count never falls once a clear happened.
    const first = cleared.findIndex((count) => count > 0);
    expect(first).toBeGreaterThan(0);
    for (let index = first + 1; index < cleared.length; index++)
      expect(cleared[index]).toBeGreaterThanOrEqual(cleared[index - 1]!);
    // usageIsTheView: the prompt the usage counts is smaller than what the client sent.
    const lastRecord = records.at(-1)!;
    const usage = lastRecord.response?.kind === 'message' ? lastRecord.response.usage : undefined;
    expect(usage).toBeDefined();
    const sentChars = JSON.stringify(messages.slice(0, -2)).length;
    expect(
      usage!.input_tokens + usage!.cache_read_input_tokens + usage!.cache_creation_input_tokens
    ).toBeLessThan(sentChars / 4);
    expect(SILENT_FACTS).toEqual({
      clearsStay: true,
      appliedEditsCountTheView: true,
      placeholder: '[tool result cleared by context management]',
      usageIsTheView: true,
      thinkingDefaultOnlyWithContextManagement: true,
      windowAfterEdits: true
    });
  });
});
