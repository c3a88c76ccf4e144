import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { chooseMicroBy } from '../../src/compaction/micro-choice.js';
import { parseAgentConfig } from '../../src/config/inputs.js';
import { serverClearCaching } from '../../src/compaction/server-clear-caching.js';
import { ServerClears } from '../../src/compaction/server-clears.js';
import type { AppliedEdit } from '../../src/model/context-editing.js';
import type { ModelClient, ModelReply, ModelRequest } from '../../src/model/model-client.js';
import { MemoryStore, requestBuilder } from '../support/compaction-fixtures.js';
import { CompactionPipeline } from '../../src/compaction/pipeline.js';
import { compactionSettings } from '../../src/compaction/settings.js';
import { resolveModelSpec } from '../../src/config/models.js';
import { RequestBuilder } from '../../src/model/request-builder.js';

/** The client's model of the API's tool-result clearing: prediction, correction, ledger, fallback. */

const SETTINGS = { triggerTokens: 1_000, keepToolUses: 2, clearAtLeastTokens: 300 };
const before = { kind: 'before_request' } as const;

function call(id: string, command: string): MessageParam {
  return {
    role: 'assistant',
    content: [
      { type: 'thinking', thinking: `why ${id}`, signature: `sig-${id}` },
      { type: 'tool_use', id, name: 'bash', input: { command } }
    ]
  };
}

function result(id: string, text: string): MessageParam {
  return { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: text }] };
}

/** A task and `count` bash exchanges of about 400 tokens each; the ones in `failing` exit 1. */
function session(count: number, failing: readonly number[] = []): MessageParam[] {
  const history: MessageParam[] = [{ role: 'user', content: 'Fix the parser.' }];
  for (let index = 0; index < count; index++) {
    const id = `toolu_${index}`;
    const failed = failing.includes(index);
    history.push(call(id, `node --check scratch/probe-${index}.js`));
    history.push(
      result(
        id,
        failed
          ? `exit code: 1\nstderr:\nscratch/probe-${index}.js:3\nSyntaxError: Unexpected token\n${'x'.repeat(1_200)}`
          : `exit code: 0\nstdout:\n${'y'.repeat(1_600)}`
      )
    );
  }
  return history;
}

const perToken = (chars: number) => Math.ceil(chars / 4);
const clearToolUses = (count: number): AppliedEdit[] => [
  { type: 'clear_tool_uses', clearedToolUses: count, clearedInputTokens: count * 390 }
];

describe('ServerClears: the client predicts the API clear and the applied_edits settle it', () => {
  it('predicts no clear under the trigger, and every result outside the kept tool uses past it', () => {
    const clears = new ServerClears(SETTINGS);
    const history = session(6);
    expect(clears.predict(history, 900, perToken)).toBeUndefined();
    const prediction = clears.predict(history, 2_500, perToken);
    expect(prediction?.ids).toEqual(['toolu_0', 'toolu_1', 'toolu_2', 'toolu_3']);
    expect(prediction?.from).toEqual({ message: 2, block: 0 });
  });

  it('predicts nothing when less than clear_at_least would go', () => {
    const clears = new ServerClears({ ...SETTINGS, clearAtLeastTokens: 5_000 });
    expect(clears.predict(session(6), 2_500, perToken)).toBeUndefined();
  });

  it('a right prediction is confirmed and the view shows the placeholders from then on', () => {
    const clears = new ServerClears(SETTINGS);
    const history = session(6);
    const prediction = clears.predict(history, 2_500, perToken);
    clears.settle(history, prediction, clearToolUses(4));
    expect(clears.stats).toMatchObject({ predicted: 1, confirmed: 1, corrected: 0, clears: 1 });
    const view = JSON.stringify(clears.view(history));
    expect(view.split('[tool result cleared by context management]').length - 1).toBe(4);
    expect(clears.isCleared('toolu_3')).toBe(true);
    expect(clears.isCleared('toolu_4')).toBe(false);
    // Thinking is never touched: the view keeps every block the client sent.
    expect(view.split('"type":"thinking"').length - 1).toBe(6);
  });

  it('a wrong prediction is corrected by the applied_edits: the server cleared none, then only 2', () => {
    const clears = new ServerClears(SETTINGS);
    const history = session(6);
    // The client believes the context is past the trigger; the API reports no clear.
    const wrong = clears.predict(history, 2_500, perToken);
    expect(wrong?.ids).toHaveLength(4);
    clears.settle(history, wrong, []);
    expect(clears.stats).toMatchObject({ predicted: 1, confirmed: 0, corrected: 1, clears: 0 });
    expect(clears.isCleared('toolu_0')).toBe(false);
    expect(clears.takeNewlyCleared()).toEqual([]);
    // Next request: the client predicts nothing, but the API cleared the 2 oldest.
    const longer = [...history, ...session(1).slice(1)];
    clears.settle(longer, undefined, clearToolUses(2));
    expect(clears.stats.corrected).toBe(2);
    expect(['toolu_0', 'toolu_1'].map((id) => clears.isCleared(id))).toEqual([true, true]);
    expect(clears.isCleared('toolu_2')).toBe(false);
    expect(clears.takeNewlyCleared()).toEqual(['toolu_0', 'toolu_1']);
    // The next clear will start at the oldest result not cleared.
    expect(clears.nextClearStart(longer)).toEqual({ message: 6, block: 0 });
  });
});

describe('serverClearCaching: a breakpoint before the predicted clear, settled by the answer', () => {
  class ClearingModel implements ModelClient {
    readonly requests: ModelRequest[] = [];
    constructor(private readonly answers: readonly (readonly AppliedEdit[])[]) {}
    async complete(request: ModelRequest): Promise<ModelReply> {
      this.requests.push(request);
      return {
        id: `msg_${this.requests.length}`,
        content: [{ type: 'text', text: 'ok' }],
        stopReason: 'end_turn',
        usage: { input: 100, cacheWrite: 0, cacheRead: 2_400, output: 50 },
        appliedEdits: this.answers[this.requests.length - 1] ?? []
      };
    }
  }

  it('marks the block before the first result it will clear, and takes the API count as the truth', async () => {
    const clears = new ServerClears(SETTINGS);
    const shaped = new RequestBuilder({ ...requestBuilder().shape, serverClears: SETTINGS });
    const inner = new ClearingModel([clearToolUses(3)]);
    const model = serverClearCaching(inner, clears, shaped.prefixChars());
    const request = shaped.build(session(6));
    expect(request.contextManagement).toBeDefined();
    expect(request.betas).toContain('context-management-2025-06-27');
    await model.complete(request);
    // The read mark: the tool_use block right before the first result the server will clear.
    const marked = inner.requests[0]!.messages[1]!;
    expect(JSON.stringify(marked)).toContain('"cache_control"');
    expect(JSON.stringify(request.messages[1])).not.toContain('"cache_control"');
    // The prediction (4 results) was wrong; the API's 3 is what the client now believes.
    expect(clears.stats.corrected).toBe(1);
    expect(['toolu_2', 'toolu_3'].map((id) => clears.isCleared(id))).toEqual([true, false]);
  });
});

describe('the work ledger, rebuilt as the server clears', () => {
  it('notes the failures among the results the API cleared in the newest message, before the next request', async () => {
    const clears = new ServerClears(SETTINGS);
    const history = session(6, [1]);
    // The server cleared the 4 oldest results on the last request; the failure was among them.
    clears.settle(history.slice(0, -2), undefined, clearToolUses(4));
    const server = new CompactionPipeline(
      compactionSettings({
        contextWindow: 100_000,
        maxOutputTokens: 4000,
        thresholdTokens: 900_000,
        microBy: 'server'
      }),
      {
        model: new ClearlessModel(),
        requests: requestBuilder(),
        prices: resolveModelSpec('claude-sonnet-5-5').prices,
        store: new MemoryStore(),
        now: () => 0,
        serverClears: clears
      }
    );
    const out = await server.compact(history, before, { turn: 6, lastUsage: undefined });
    const last = JSON.stringify(out.history.at(-1));
    expect(last).toContain('<work-ledger-update>');
    expect(last).toContain('node --check scratch/probe-1.js');
    expect(last).toContain('scratch/probe-1.js:3');
    // Nothing before the newest message changed: the cached prefix and every thinking block hold.
    expect(out.history.slice(0, -1)).toEqual(history.slice(0, -1));
    expect(out.events.map((event) => event.layer)).toEqual(['micro']);
    expect(out.events[0]!.reason).toContain('the API cleared 4 tool result(s)');
    // Said once: the next pass has nothing new to note.
    const again = await server.compact(out.history, before, { turn: 7, lastUsage: undefined });
    expect(again.events).toEqual([]);
  });
});

class ClearlessModel implements ModelClient {
  async complete(): Promise<ModelReply> {
    throw new Error('no model call expected');
  }
}

describe('fallback on a platform without context editing', () => {
  it('keeps the API clearing on the Claude API and says once why our micro layer clears on Bedrock and Vertex', () => {
    expect(chooseMicroBy('server', 'anthropic')).toEqual({ microBy: 'server' });
    for (const provider of ['bedrock', 'vertex'] as const) {
      const decision = chooseMicroBy('server', provider);
      expect(decision.microBy).toBe('client');
      expect(decision.notice).toContain(`not available through the ${provider} client`);
      expect(decision.notice).toContain('compaction.micro_by: client');
    }
    expect(chooseMicroBy('client', 'bedrock')).toEqual({ microBy: 'client' });
  });
});

describe('compaction.micro_by', () => {
  const config = (microBy: string) =>
    parseAgentConfig((name) => (name === 'micro_by' ? microBy : ''), { ANTHROPIC_API_KEY: 'test-key' });

  it('takes client or server, and leaves the default to the run when empty', () => {
    expect(config('client').compaction.microBy).toBe('client');
    expect(config('Server').compaction.microBy).toBe('server');
    expect(config('').compaction.microBy).toBeUndefined();
  });

  it('refuses anything else, saying what each value does', () => {
    expect(() => config('sometimes')).toThrow(/micro_by must be client .* or server .*got "sometimes"/);
  });
});

describe('the threshold when the API clears', () => {
  const window = { contextWindow: 200_000, maxOutputTokens: 16_000 };

  it('is where our summaries start when the user set it, and the API clears from 0.7/1.5 of it', () => {
    const settings = compactionSettings({ ...window, thresholdTokens: 60_000, microBy: 'server' });
    expect(settings.thresholdTokens).toBe(60_000);
    expect(settings.serverClear.triggerTokens).toBe(Math.floor(40_000 * 0.7));
    // Ours alone: the same threshold, the floor from it.
    expect(
      compactionSettings({ ...window, thresholdTokens: 60_000, microBy: 'client' }).thresholdTokens
    ).toBe(60_000);
  });

  it('moves up by 1.5 when derived from the model, with the API clearing from 0.7 of the derived one', () => {
    const ours = compactionSettings({ ...window, microBy: 'client' });
    const server = compactionSettings({ ...window, microBy: 'server' });
    expect(server.thresholdTokens).toBe(Math.floor(ours.thresholdTokens * 1.5));
    expect(server.serverClear.triggerTokens).toBe(Math.floor(ours.thresholdTokens * 0.7));
  });
});
