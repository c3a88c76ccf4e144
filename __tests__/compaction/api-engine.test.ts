import type {
  ContentBlockParam,
  MessageParam,
  ToolUseBlockParam
} from '@anthropic-ai/sdk/resources/messages';
import { CompactionPipeline } from '../../src/compaction/pipeline.js';
import { compactionSettings, type CompactionOptions } from '../../src/compaction/settings.js';
import type { CompactionEvent, CompactionResult } from '../../src/compaction/compactor.js';
import { keptTaskText, taskOf } from '../../src/compaction/history.js';
import { resolveModelSpec } from '../../src/config/models.js';
import { AnthropicModelClient } from '../../src/model/anthropic-client.js';
import { RequestBuilder } from '../../src/model/request-builder.js';
import { asContentBlock } from '../../src/model/compaction-block.js';
import type { ModelClient, ModelReply, ModelRequest } from '../../src/model/model-client.js';
import { thinkingSettings } from '../../src/model/thinking.js';
import type { TokenUsage } from '../../src/model/usage.js';
import { createDefaultTools } from '../../src/tools/index.js';
import {
  reply,
  startFakeAnthropic,
  text,
  thinking,
  toolUse,
  type FakeAnthropic,
  type RecordedRequest
} from '../../test-support/fake-anthropic/index.js';
import { codeText } from '../support/history-builders.js';
import { MemoryStore } from '../support/compaction-fixtures.js';

/**
 * The API engine end to end on the real client and the strict fake: the compaction request is the
 * request already sent, the kept turn keeps its thinking, micro's clears in the same pass do not
 * change what the API summarizes, our parts follow the block, and a model
 * without the capability falls back to our summarizer.
 */
const TASK = 'Refactor the parser and keep its public API.';
const before = { kind: 'before_request' } as const;

function builder(model: string): RequestBuilder {
  return new RequestBuilder({
    model,
    maxTokens: 4000,
    systemPrompt: 'You are a test agent.',
    tools: createDefaultTools().definitions,
    thinking: thinkingSettings(resolveModelSpec(model), undefined)
  });
}

/** Without cache_control markers (they move between requests and are not part of the prefix). */
function plain(messages: unknown): string {
  return JSON.stringify(messages, (key, value: unknown) => (key === 'cache_control' ? undefined : value));
}

interface Drive {
  fake: FakeAnthropic;
  events: CompactionEvent[];
  history: MessageParam[];
  agentRequests: () => RecordedRequest[];
}

/** A small agent loop: compact, send, append the reply and a big read_file result, `turns` times. */
async function drive(model: string, turns: number, options: Partial<CompactionOptions>): Promise<Drive> {
  let call = 0;
  const fake = await startFakeAnthropic({
    script: (request) => {
      if (JSON.stringify(request.messages.at(-1)).includes('<compaction-request>'))
        return reply(text('## Task and intent\nRefactor the parser.\n## Next step\nread more'));
      call++;
      return reply(
        thinking(`Turn ${call}: read file ${call} next.`),
        text(`Reading ${call}.`),
        toolUse('read_file', { path: `src/file${call}.ts` })
      );
    }
  });
  const requests = builder(model);
  const client = new AnthropicModelClient({
    apiKey: 'test-key',
    baseURL: fake.url,
    httpRetries: 0,
    streamRetries: 0
  });
  const compactor = new CompactionPipeline(
    compactionSettings({ contextWindow: 100_000, maxOutputTokens: 4000, ...options }),
    {
      model: client,
      requests,
      prices: resolveModelSpec(model).prices,
      store: new MemoryStore({ 'src/file1.ts': 'export const one = 1;' }),
      now: () => 0
    }
  );
  let history: MessageParam[] = [{ role: 'user', content: [{ type: 'text', text: TASK }] }];
  let lastUsage: TokenUsage | undefined;
  const events: CompactionEvent[] = [];
  for (let turn = 1; turn <= turns; turn++) {
    const out = await compactor.compact(history, before, { turn, lastUsage });
    events.push(...out.events);
    history = out.history;
    const answer = await client.complete(requests.build(history, undefined, out.editedFrom));
    lastUsage = answer.usage;
    history.push({ role: 'assistant', content: answer.content });
    const use = answer.content.find((block): block is ToolUseBlockParam => block.type === 'tool_use');
    history.push({
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: use!.id, content: codeText(16_000, `v${turn}`) }]
    });
  }
  const agentRequests = () =>
    fake.requests.filter(
      (r) =>
        r.path === '/v1/messages' &&
        (r.body as { compaction?: unknown } | undefined)?.compaction === undefined
    );
  return { fake, events, history, agentRequests };
}

/** A model for the pipeline alone: compaction requests get a block, others a text reply. */
class BlockModel implements ModelClient {
  readonly requests: ModelRequest[] = [];
  async complete(request: ModelRequest): Promise<ModelReply> {
    this.requests.push(structuredClone(request));
    const content = request.compaction
      ? [asContentBlock({ type: 'compaction', content: 'The API summary.', signature: 'sig' })]
      : [{ type: 'text' as const, text: 'ok' }];
    return {
      id: 'msg',
      content,
      stopReason: request.compaction ? null : 'end_turn',
      usage: { input: 100, cacheWrite: 0, cacheRead: 20_000, output: 50 }
    };
  }
}

function thinkingTurn(i: number, chars: number): MessageParam[] {
  return [
    {
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: `I should read file ${i}.`, signature: `sig-${i}` },
        { type: 'tool_use', id: `t${i}`, name: 'read_file', input: { path: `src/file${i}.ts` } }
      ]
    },
    {
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: `t${i}`, content: codeText(chars, `v${i}`) }]
    }
  ];
}

describe('compaction_engine api: micro in the same pass', () => {
  const settings = { thresholdTokens: 20_000, microKeepRecent: 1, microClearAtLeast: 2_000 };

  function pipeline(engine: 'client' | 'api', files: Record<string, string> = {}) {
    const model = new BlockModel();
    const compactor = new CompactionPipeline(
      compactionSettings({ contextWindow: 100_000, maxOutputTokens: 4000, engine, ...settings }),
      {
        model,
        requests: builder('claude-sonnet-5-5'),
        prices: resolveModelSpec('claude-sonnet-5-5').prices,
        store: new MemoryStore(files),
        now: () => 0
      }
    );
    return { model, compactor };
  }

  /** Measured contexts: past the threshold by less than micro can clear, or by more. */
  const usageOf = (context: number) => ({ input: 100, cacheWrite: 0, cacheRead: context, output: 200 });

  async function secondPass(engine: 'client' | 'api', measuredContext = 30_000) {
    const { model, compactor } = pipeline(engine);
    const sent: MessageParam[] = [{ role: 'user', content: [{ type: 'text', text: TASK }] }];
    // Small results (below micro's minimum) and one big one, still among the kept recent ones.
    for (let i = 1; i <= 3; i++) sent.push(...thinkingTurn(i, 300));
    sent.push(...thinkingTurn(4, 12_000));
    // The first pass records what was sent; nothing to do yet (small context, micro waits).
    const first = await compactor.compact(structuredClone(sent), before, { turn: 4, lastUsage: undefined });
    expect(first.events).toEqual([]);
    // The reply to it and its result arrive, and the API measured a context past the threshold.
    // The big result is no longer recent: micro would clear it now (past its floor, no headroom).
    const history = [...structuredClone(sent), ...thinkingTurn(5, 300)];
    const out = await compactor.compact(history, before, { turn: 5, lastUsage: usageOf(measuredContext) });
    return { model, compactor, out, sent, history };
  }

  it('with our engine, micro would clear sent results in that pass (the case is real)', async () => {
    const { out } = await secondPass('client');
    expect(out.events.map((e) => e.layer)).toContain('micro');
  });

  it('with the API engine too, micro clears first, and a clear that is enough spares the summary', async () => {
    const { model, out } = await secondPass('api');
    expect(out.events.map((e) => e.layer)).toEqual(['micro']);
    expect(model.requests.filter((r) => r.compaction)).toHaveLength(0);
  });

  /** A turn whose text and call (which micro cannot clear) are big, with a 6,000-character result. */
  function wordyTurn(i: number): MessageParam[] {
    return [
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: `I should test part ${i}.`, signature: `sig-${i}` },
          { type: 'text', text: `Thinking aloud: ${'x'.repeat(2000)}` },
          {
            type: 'tool_use',
            id: `t${i}`,
            name: 'bash',
            input: { command: `npm test -- part ${i} ${'y'.repeat(1500)}` }
          }
        ]
      },
      {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: `t${i}`, content: codeText(6_000, `v${i}`) }]
      }
    ];
  }

  it('with a cold cache (micro clears on every pass), the API compacts in the pass where the clear is not enough, on the request as sent before the clear', async () => {
    let clock = 0;
    const model = new BlockModel();
    const compactor = new CompactionPipeline(
      compactionSettings({
        contextWindow: 100_000,
        maxOutputTokens: 4000,
        engine: 'api',
        thresholdTokens: 20_000
      }),
      {
        model,
        requests: builder('claude-sonnet-5-5'),
        prices: resolveModelSpec('claude-sonnet-5-5').prices,
        store: new MemoryStore(),
        now: () => clock
      }
    );
    let history: MessageParam[] = [{ role: 'user', content: [{ type: 'text', text: TASK }] }];
    const estimates: number[] = [];
    let both: { received: MessageParam[]; out: CompactionResult } | undefined;
    for (let turn = 1; turn <= 40; turn++) {
      const received = structuredClone(history);
      const out = await compactor.compact(history, before, { turn, lastUsage: undefined });
      const layers = out.events.map((e) => e.layer);
      if (!both && layers.includes('micro') && layers.includes('auto')) both = { received, out };
      estimates.push(out.estimatedContextTokens ?? Number.POSITIVE_INFINITY);
      clock += 6 * 60_000; // a six-minute test run between requests: the cache is always cold
      history = [...out.history, ...wordyTurn(turn)];
    }
    // Before the fix, every pass was a clear and none a compaction: the context passed 70k.
    expect(Math.max(...estimates)).toBeLessThan(25_000);
    expect(both).toBeDefined();
    const { received, out } = both!;
    const compaction = model.requests
      .filter((r) => r.compaction)
      .find((r) => r.messages.length === received.length - 2)!;
    expect(plain(compaction.messages)).toBe(plain(received.slice(0, -2)));
    // The kept reply as the model wrote it, thinking first, though micro stripped it in this pass.
    expect(out.history[1]).toEqual(received.at(-2));
    expect(out.thinkingBlocksDropped).toBeUndefined();
  });
});

describe('compaction_engine api: files re-read after the swap', () => {
  const files = Object.fromEntries([1, 2, 3].map((i) => [`src/file${i}.ts`, codeText(2_000, `f${i}`)]));

  /** Three small reads sent, then a kept turn of `keptChars`; the API measured 30k. */
  async function compactWithKeptTurn(keptChars: number) {
    const model = new BlockModel();
    const compactor = new CompactionPipeline(
      compactionSettings({
        contextWindow: 100_000,
        maxOutputTokens: 4000,
        engine: 'api',
        thresholdTokens: 20_000
      }),
      {
        model,
        requests: builder('claude-sonnet-5-5'),
        prices: resolveModelSpec('claude-sonnet-5-5').prices,
        store: new MemoryStore(files),
        now: () => 0
      }
    );
    const sent: MessageParam[] = [{ role: 'user', content: [{ type: 'text', text: TASK }] }];
    for (let i = 1; i <= 3; i++) sent.push(...thinkingTurn(i, 300));
    await compactor.compact(structuredClone(sent), before, { turn: 3, lastUsage: undefined });
    const history = [...structuredClone(sent), ...thinkingTurn(4, keptChars)];
    const out = await compactor.compact(history, before, {
      turn: 4,
      lastUsage: { input: 100, cacheWrite: 0, cacheRead: 30_000, output: 200 }
    });
    expect(out.events.map((e) => e.layer)).toEqual(['auto']);
    // The kept turn is there, unchanged: block, kept reply, its result with our parts.
    expect(out.history).toHaveLength(3);
    expect(out.history[1]).toEqual(history.at(-2));
    return plain(out.history.at(-1));
  }

  it('re-reads the recent files after our parts when the result stays well under the threshold', async () => {
    const last = await compactWithKeptTurn(300);
    expect(last).toContain('<recent-file path=\\"src/file3.ts\\"');
    expect(last).toContain(TASK);
  });

  it('leaves the files out when the kept turn (which cannot be shortened) already fills half the threshold', async () => {
    const last = await compactWithKeptTurn(9_000);
    expect(last).not.toContain('<recent-file');
    expect(last).toContain(TASK);
    expect(last).toContain('<work-ledger>');
  });
});

describe('compaction_engine api: an overflow after the swap', () => {
  it('is ours: the summary request carries the block (with its beta), the rebuild starts with the task again', async () => {
    const model = new BlockModel();
    const requests = builder('claude-sonnet-5-5');
    const compactor = new CompactionPipeline(
      compactionSettings({
        contextWindow: 100_000,
        maxOutputTokens: 4000,
        engine: 'api',
        thresholdTokens: 20_000
      }),
      {
        model,
        requests,
        prices: resolveModelSpec('claude-sonnet-5-5').prices,
        store: new MemoryStore(),
        now: () => 0
      }
    );
    // After an API compaction: the block, the kept turn, its results with our parts, more turns.
    const [kept, results] = thinkingTurn(1, 300);
    const history: MessageParam[] = [
      {
        role: 'assistant',
        content: [asContentBlock({ type: 'compaction', content: 'Earlier work.', signature: 'sig' })]
      },
      kept!,
      {
        role: 'user',
        content: [...(results!.content as ContentBlockParam[]), { type: 'text', text: keptTaskText(TASK) }]
      }
    ];
    for (let i = 2; i <= 5; i++) history.push(...thinkingTurn(i, 8_000));
    const out = await compactor.compact(
      history,
      { kind: 'overflow', actualTokens: 120_000, maximumTokens: 100_000 },
      { turn: 6, lastUsage: undefined }
    );
    const summaryRequest = model.requests.at(-1)!;
    expect(summaryRequest.compaction).toBeUndefined();
    expect(summaryRequest.betas).toContain('compact-2026-09-04');
    expect(out.events.map((e) => e.layer)).toEqual(['auto']);
    expect(out.history[0]!.role).toBe('user');
    expect((out.history[0]!.content as { type: string; text?: string }[])[0]).toEqual({
      type: 'text',
      text: TASK
    });
    expect(JSON.stringify(out.history)).not.toContain('"type":"compaction"');
  });
});

describe('compaction_engine api', () => {
  let run: Drive | undefined;
  afterEach(async () => {
    await run?.fake.close();
    run = undefined;
  });

  it('compacts through the API with the sent request unchanged, keeps the kept thinking, and is never rejected', async () => {
    run = await drive('claude-sonnet-5-5', 14, {
      engine: 'api',
      thresholdTokens: 12_000,
      microKeepRecent: 2,
      microClearAtLeast: 6_000
    });
    const { fake, events } = run;
    expect(fake.requests.filter((r) => r.rejected).map((r) => r.rejected)).toEqual([]);
    const compactions = fake.requests.filter((r) => r.compaction);
    expect(compactions.length).toBeGreaterThanOrEqual(2);
    expect(events.filter((e) => e.layer === 'auto')).toHaveLength(compactions.length);
    for (const record of compactions) {
      // The compaction request is exactly the previous agent request's messages: nothing edited.
      const previous = fake.requests.filter((r) => r.seq < record.seq && !r.compaction).at(-1)!;
      expect(plain((record.body as { messages: unknown }).messages)).toBe(
        plain((previous.body as { messages: unknown }).messages)
      );
    }
    // After each swap: the block, then the kept reply with its thinking first.
    const swapped = run.agentRequests().filter((r) => {
      const messages = (r.body as { messages: { content: { type: string }[] }[] }).messages;
      return messages[0]?.content[0]?.type === 'compaction';
    });
    expect(swapped.length).toBeGreaterThan(0);
    for (const record of swapped) expect(record.headers['anthropic-beta']).toContain('compact-2026-09-04');
    const firstAfter = (swapped[0]!.body as { messages: { content: { type: string }[] }[] }).messages;
    expect(firstAfter[1]!.content[0]!.type).toBe('thinking');
    // Our parts after the kept turn: the task verbatim, the ledger, where the segment is.
    const last = plain(firstAfter.at(-1));
    expect(last).toContain(TASK);
    expect(last).toContain('by=\\"api\\"');
    expect(taskOf(run.history)).toBe(TASK);
    expect(events.find((e) => e.layer === 'auto')?.summary).toContain('Summary of');
  });

  it('falls back to our summarizer where the API cannot compact (a model without the capability)', async () => {
    run = await drive('claude-sonnet-4-5', 6, {
      engine: 'api',
      thresholdTokens: 12_000,
      microKeepRecent: 50
    });
    const { fake, events } = run;
    const refused = fake.requests.filter((r) => r.rejected);
    expect(refused.length).toBeGreaterThan(0);
    expect(refused.every((r) => r.rejected?.kind === 'compaction')).toBe(true);
    const auto = events.filter((e) => e.layer === 'auto');
    expect(auto.length).toBeGreaterThan(0);
    expect(auto[0]!.reason).toContain("the API's compaction failed");
    expect(auto[0]!.summary).toContain('## Task and intent');
    // Only the refused compaction requests were rejected; every agent turn went through.
    expect(run.agentRequests().filter((r) => r.rejected)).toEqual([]);
  });
});
