import type { MessageParam as SdkMessageParam } from '@anthropic-ai/sdk/resources/messages';
import { withMessageBreakpoints } from '../../src/model/cache-breakpoints.js';
import type { ModelRequest } from '../../src/model/model-client.js';
import { ClearToolUses, PLACEHOLDER, planClear } from '../../bench/server-side/clear-tool-uses.js';
import {
  blockBefore,
  emptyPredictionStats,
  pendingClearStart,
  predictClearStart,
  withPredictedClearBreakpoints
} from '../../bench/server-side/predicted-clear.js';
import type { ServerTools } from '../../bench/server-side/server-side.js';
import { thinkingText } from '../../bench/thinking.js';
import {
  countCacheControls,
  type ContentBlockParam,
  type MessageParam,
  type ParsedRequest
} from '../../test-support/fake-anthropic/index.js';

/** Tokens as characters, as in bench-peers.test.ts. */
const tools: ServerTools = {
  countText: (text) => text.length,
  count: (request) =>
    request.messages.reduce(
      (sum, message) =>
        sum +
        (typeof message.content === 'string'
          ? message.content.length
          : message.content.reduce((inner, block) => inner + JSON.stringify(block).length, 0)),
      0
    ),
  summarize: () => 'SUMMARY'
};

const request = (messages: MessageParam[]): ParsedRequest => ({
  endpoint: 'messages',
  model: 'claude-sonnet-5-5',
  stream: true,
  messages,
  raw: {}
});

/** The task, then `turns` tool turns: [thinking, tool_use] and a result of `size` characters. */
function conversation(turns: number, size = 500): MessageParam[] {
  const messages: MessageParam[] = [{ role: 'user', content: [{ type: 'text', text: 'the task' }] }];
  for (let turn = 0; turn < turns; turn++) {
    messages.push({
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: thinkingText(turn, []), signature: `sig${turn}` },
        { type: 'tool_use', id: `toolu_${turn}`, name: 'read_file', input: { path: `f${turn}.ts` } }
      ]
    });
    messages.push({
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: `toolu_${turn}`, content: `r${turn} `.padEnd(size, 'x') }]
    });
  }
  return messages;
}

/** Where turn `turn`'s result sits in conversation(): message 2 + 2·turn, block 0. */
const resultOf = (turn: number) => ({ message: 2 + 2 * turn, block: 0 });

const firstPlaceholder = (messages: readonly MessageParam[]) => {
  for (const [message, entry] of messages.entries()) {
    if (typeof entry.content === 'string') continue;
    const block = entry.content.findIndex(
      (candidate: ContentBlockParam) => candidate.type === 'tool_result' && candidate.content === PLACEHOLDER
    );
    if (block >= 0) return { message, block };
  }
  return undefined;
};

const SETTINGS = { triggerTokens: 3_000, keepToolUses: 3, clearAtLeastTokens: 1_000 };

describe('predicting the server clear', () => {
  it('predicts exactly the block where ClearToolUses then starts clearing, and the ids it clears', () => {
    const sent = request(conversation(10));
    const plan = planClear(sent, SETTINGS, tools, new Set());
    expect(predictClearStart(sent, SETTINGS, tools, new Set())).toEqual(resultOf(0));
    const view = new ClearToolUses(SETTINGS).apply(sent, tools);
    expect(firstPlaceholder(view.request.messages)).toEqual(resultOf(0));
    expect(plan?.ids).toEqual(Array.from({ length: 7 }, (_, turn) => `toolu_${turn}`));
  });

  it('with what the server cleared before, predicts the next clear at the oldest result it kept', () => {
    const server = new ClearToolUses(SETTINGS);
    const first = request(conversation(10));
    const cleared = new Set(planClear(first, SETTINGS, tools, new Set())!.ids);
    server.apply(first, tools);
    // Known from the first clear on: the oldest kept result (turn 7) is where the next one starts.
    expect(pendingClearStart(first, SETTINGS, cleared)).toEqual(resultOf(7));
    const later = request(conversation(16));
    expect(predictClearStart(later, SETTINGS, tools, cleared)).toEqual(resultOf(7));
    const view = server.apply(later, tools);
    expect(view.events).toEqual(['server_clear']);
    const placeholders = view.request.messages.flatMap((message, index) =>
      typeof message.content !== 'string' &&
      message.content.some((block) => block.type === 'tool_result' && block.content === PLACEHOLDER)
        ? [index]
        : []
    );
    // The new placeholders start where predicted (turns 7 to 12).
    expect(placeholders.filter((index) => index >= resultOf(7).message)[0]).toBe(resultOf(7).message);
    expect(placeholders).toHaveLength(13);
  });

  it('predicts nothing under the trigger', () => {
    const sent = request(conversation(10));
    expect(tools.count(sent)).toBeLessThan(100_000);
    expect(predictClearStart(sent, { triggerTokens: 100_000, keepToolUses: 3 }, tools, new Set())).toBe(
      undefined
    );
  });

  it('predicts nothing when less than clear_at_least would go', () => {
    const sent = request(conversation(10));
    const settings = { ...SETTINGS, clearAtLeastTokens: 10_000 };
    expect(predictClearStart(sent, settings, tools, new Set())).toBe(undefined);
    expect(new ClearToolUses(settings).apply(sent, tools).events).toEqual([]);
    // 7 results of 500 characters, each leaving a placeholder: enough for a 3,000 floor.
    expect(predictClearStart(sent, { ...SETTINGS, clearAtLeastTokens: 3_000 }, tools, new Set())).toEqual(
      resultOf(0)
    );
  });

  it('the block before a result is the tool use before it, never a thinking block', () => {
    const messages = conversation(3) as SdkMessageParam[];
    expect(blockBefore(messages, resultOf(1))).toEqual({ message: resultOf(1).message - 1, block: 1 });
    expect(blockBefore(messages, { message: 1, block: 1 })).toEqual({ message: 0, block: 0 });
  });
});

describe('the predicted breakpoints', () => {
  const modelRequest = (messages: MessageParam[]): ModelRequest => ({
    model: 'claude-sonnet-5-5',
    maxTokens: 1_000,
    system: [{ type: 'text', text: 'system', cache_control: { type: 'ephemeral' } }],
    tools: [],
    messages: withMessageBreakpoints(messages as SdkMessageParam[])
  });
  const marked = (messages: readonly SdkMessageParam[]) =>
    messages.flatMap((message, index) =>
      typeof message.content === 'string'
        ? []
        : message.content.flatMap((block, blockIndex) =>
            'cache_control' in block && block.cache_control ? [[index, blockIndex]] : []
          )
    );
  const markCount = (sent: ModelRequest) =>
    countCacheControls(sent.messages as MessageParam[], sent.system as never, []);

  it('on the clearing request: a read mark before the clear and a write mark before the oldest kept result, within 4', () => {
    const stats = emptyPredictionStats();
    const sent = modelRequest(conversation(10));
    const { request: marks, cleared } = withPredictedClearBreakpoints(
      sent,
      SETTINGS,
      tools,
      new Set(),
      stats
    );
    expect(cleared.size).toBe(7);
    // Read: the tool use before turn 0's result; write: the tool use before turn 7's; the last message
    // keeps its mark; the user message before it (past the clear point) gives its slot.
    expect(marked(marks.messages)).toEqual([
      [1, 1],
      [resultOf(7).message - 1, 1],
      [resultOf(9).message, 0]
    ]);
    expect(markCount(marks)).toBe(4);
    expect(stats).toEqual({ predictedClears: 1, readMarks: 1, writeMarks: 1, skipped: 0 });
  });

  it('between clears: the write mark only, at the same block, in the free slot', () => {
    const first = withPredictedClearBreakpoints(modelRequest(conversation(10)), SETTINGS, tools, new Set());
    const next = withPredictedClearBreakpoints(
      modelRequest(conversation(11)),
      SETTINGS,
      tools,
      first.cleared
    );
    expect(next.cleared).toBe(first.cleared);
    expect(marked(next.request.messages)).toEqual([
      [resultOf(7).message - 1, 1],
      [resultOf(9).message, 0],
      [resultOf(10).message, 0]
    ]);
    expect(markCount(next.request)).toBe(4);
  });
});
