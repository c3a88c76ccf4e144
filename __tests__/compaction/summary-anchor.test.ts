import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import type { ModelCallHooks, ModelClient, ModelReply, ModelRequest } from '../../src/model/model-client.js';
import {
  ANCHOR_GROWTH,
  canUpdateAnchor,
  describeUpdate,
  summaryUpdateInstruction,
  withUpdate,
  type SummaryAnchor
} from '../../src/compaction/summary-anchor.js';
import { call, codeText, result, results, user } from '../support/history-builders.js';
import { pipeline, SUMMARIES_ONLY } from '../support/compaction-fixtures.js';
import type { CompactionOptions } from '../../src/compaction/settings.js';
import type { SummaryRequestShape } from '../../src/compaction/summarizer.js';
import { freshSummaryRequest } from '../../bench/strategies/fresh-summary.js';

const TASK = 'Refactor the parser.\nKeep the public API.';
const before = { kind: 'before_request' } as const;
const UPDATE_ASK = 'write only what is new or changed since it';

/** A scripted answer: a summary, one cut at its length limit, or a failed call. */
type Answer = string | { cut: string } | { fail: true };

/** Answers each summary request with the next answer, and keeps the requests. */
class ScriptedSummaries implements ModelClient {
  readonly requests: ModelRequest[] = [];
  constructor(private readonly answers: readonly Answer[]) {}
  async complete(request: ModelRequest, _hooks?: ModelCallHooks): Promise<ModelReply> {
    this.requests.push(structuredClone(request));
    const answer = this.answers[this.requests.length - 1] ?? `summary ${this.requests.length}`;
    if (typeof answer === 'object' && 'fail' in answer) throw new Error('529 overloaded');
    const text = typeof answer === 'string' ? answer : answer.cut;
    return {
      id: `msg_${this.requests.length}`,
      content: [{ type: 'text', text }],
      stopReason: typeof answer === 'string' ? 'end_turn' : 'max_tokens',
      usage: { input: 100, cacheWrite: 0, cacheRead: 20_000, output: 300 }
    };
  }
}

/** `turns` big reads after `history`, so the next pass is past the threshold. */
function withReads(history: readonly MessageParam[], turns: number, from: number): MessageParam[] {
  const next = [...history];
  for (let i = from; i < from + turns; i++) {
    next.push(
      call(`t${i}`, 'read_file', { path: `src/file${i}.ts` }),
      results(result(`t${i}`, codeText(8_000, `v${i}`)))
    );
  }
  return next;
}

const lastUserText = (request: ModelRequest) => JSON.stringify(request.messages.at(-1));
const firstMessageText = (history: readonly MessageParam[]) => JSON.stringify(history[0]);

/** Compacts a growing session `times` times; returns the model and every pass's result. */
async function compactTimes(
  times: number,
  answers: readonly Answer[],
  options: Partial<CompactionOptions> = {},
  summaryRequest?: SummaryRequestShape
) {
  const model = new ScriptedSummaries(answers);
  const { compactor } = pipeline(
    { thresholdTokens: 20_000, keepTailTokens: 3_000, steps: SUMMARIES_ONLY, ...options },
    model,
    undefined,
    undefined,
    summaryRequest
  );
  let history: MessageParam[] = [user(TASK)];
  const passes = [];
  for (let pass = 0; pass < times; pass++) {
    history = withReads(history, 12, pass * 100);
    const out = await compactor.compact(history, before, { turn: pass * 12 + 12, lastUsage: undefined });
    passes.push(out);
    history = out.history;
  }
  return { model, passes };
}

describe('anchored summaries: the next summary updates ours instead of rewriting it', () => {
  it('asks the second time only for what is new, and keeps the first summary word for word with the update after it', async () => {
    const { model, passes } = await compactTimes(2, [
      '## Decisions\n- Decision D1: keep the lexer.',
      'Decision D2: split the parser.'
    ]);
    expect(model.requests).toHaveLength(2);
    expect(lastUserText(model.requests[0]!)).not.toContain(UPDATE_ASK);
    expect(lastUserText(model.requests[1]!)).toContain(UPDATE_ASK);
    expect(lastUserText(model.requests[1]!)).toContain(
      'The summary in <conversation-summary> is kept word for word'
    );

    const header = firstMessageText(passes[1]!.history);
    expect(header).toContain('Decision D1: keep the lexer.');
    expect(header).toContain('## Update at turn 24');
    expect(header).toContain('Decision D2: split the parser.');
    expect(header.indexOf('Decision D1')).toBeLessThan(header.indexOf('Decision D2'));
    const auto = passes[1]!.events.find((event) => event.layer === 'auto')!;
    expect(auto.reason).toContain(
      'summary updated (only what is new since the kept summary, written whole at turn 12)'
    );
    // The event keeps what the model wrote this time: the update.
    expect(auto.summary).toBe('Decision D2: split the parser.');
  });

  it('writes a full summary again once updates have grown the kept one past its bound', async () => {
    const full = 'Decision D1: keep the lexer.';
    // Each update is as long as the full summary: the first one takes the anchor to 2x (> 1.5x).
    const { model } = await compactTimes(3, [full, 'Decision D2: split the parsr.', 'a full one again']);
    expect(ANCHOR_GROWTH).toBe(1.5);
    expect(lastUserText(model.requests[1]!)).toContain(UPDATE_ASK);
    expect(lastUserText(model.requests[2]!)).not.toContain(UPDATE_ASK);
    expect(lastUserText(model.requests[2]!)).toContain('## Task and intent');
  });

  it('writes every summary whole with summaryUpdates off (as the Claude Code peer of the bench does)', async () => {
    const { model } = await compactTimes(2, ['one', 'two'], { summaryUpdates: false });
    expect(model.requests.map(lastUserText).some((text) => text.includes(UPDATE_ASK))).toBe(false);
  });

  it('updates an update: the third summary is asked against the first and its update, and the log says so', async () => {
    const { model, passes } = await compactTimes(3, [
      '## Decisions\n- Decision D1: keep the lexer and its token stream as they are today.',
      'D2',
      'D3'
    ]);
    expect(lastUserText(model.requests[2]!)).toContain(UPDATE_ASK);
    const header = firstMessageText(passes[2]!.history);
    expect(header).toContain('## Update at turn 24');
    expect(header).toContain('## Update at turn 36');
    expect(passes[2]!.events.find((event) => event.layer === 'auto')!.reason).toContain(
      'written whole at turn 12 and updated 1 time since'
    );
  });

  it('writes the next summary whole after one cut at its length limit (its last sections may be missing)', async () => {
    const { model, passes } = await compactTimes(3, [
      `Decision D1: keep the lexer. ${'Notes on the parser. '.repeat(20)}`,
      { cut: 'D2, and then the' },
      'D3'
    ]);
    expect(lastUserText(model.requests[1]!)).toContain(UPDATE_ASK);
    // The cut update is still kept in the history, marked, but the next summary rewrites it all.
    expect(firstMessageText(passes[1]!.history)).toContain('[summary cut at its length limit]');
    expect(lastUserText(model.requests[2]!)).not.toContain(UPDATE_ASK);
  });

  it('writes the next summary whole after a fallback (the kept summary was dropped with the oldest turns)', async () => {
    // Second compaction: both attempts fail, so the oldest turns are dropped without a summary.
    const { model, passes } = await compactTimes(3, ['D1', { fail: true }, { fail: true }, 'D3']);
    expect(passes[1]!.events.some((event) => event.layer === 'fallback')).toBe(true);
    expect(lastUserText(model.requests[3]!)).not.toContain(UPDATE_ASK);
    expect(firstMessageText(passes[2]!.history)).not.toContain('## Update at turn');
  });

  it('writes every summary whole without prefix reuse (the kept summary may be cut out of that request)', async () => {
    const { model } = await compactTimes(2, ['one', 'two'], {}, freshSummaryRequest);
    expect(model.requests.map(lastUserText).some((text) => text.includes(UPDATE_ASK))).toBe(false);
  });

  it('writes a full summary when the agent asks for a focus', async () => {
    const model = new ScriptedSummaries(['Decision D1: keep the lexer.', 'focused']);
    const { compactor } = pipeline(
      { thresholdTokens: 20_000, keepTailTokens: 3_000, steps: SUMMARIES_ONLY },
      model
    );
    const first = await compactor.compact(withReads([user(TASK)], 12, 0), before, {
      turn: 12,
      lastUsage: undefined
    });
    await compactor.compact(
      withReads(first.history, 2, 100),
      { kind: 'manual', focus: 'the lexer tests' },
      {
        turn: 14,
        lastUsage: undefined
      }
    );
    expect(lastUserText(model.requests[1]!)).not.toContain(UPDATE_ASK);
    expect(lastUserText(model.requests[1]!)).toContain('the lexer tests');
  });
});

describe('canUpdateAnchor and withUpdate', () => {
  const anchor: SummaryAnchor = {
    text: 'Decision D1: keep the lexer.',
    tokens: 100,
    fullTokens: 100,
    fullTurn: 12,
    updates: 0
  };
  // After the API's compaction the history starts with its block (the kept text may linger later).
  const afterApiCompaction = (text: string): MessageParam[] => [
    { role: 'assistant', content: [{ type: 'text', text: 'compaction block' }] },
    { role: 'user', content: [{ type: 'text', text }] }
  ];
  const withHeader = (text: string): MessageParam[] => [
    {
      role: 'user',
      content: [
        { type: 'text', text: TASK },
        { type: 'text', text: `<conversation-summary>\n${text}\n</conversation-summary>` }
      ]
    }
  ];

  it('updates only an anchor that is still in the first message, has room, and no focus was asked', () => {
    expect(canUpdateAnchor(anchor, withHeader(anchor.text), undefined)).toBe(true);
    expect(canUpdateAnchor(undefined, withHeader(anchor.text), undefined)).toBe(false);
    expect(canUpdateAnchor(anchor, withHeader(anchor.text), 'tests')).toBe(false);
    // Replaced since (an API compaction, a fallback, a resumed run): nothing to update.
    expect(canUpdateAnchor(anchor, afterApiCompaction(anchor.text), undefined)).toBe(false);
    expect(canUpdateAnchor(anchor, [user('a string task')], undefined)).toBe(false);
    expect(canUpdateAnchor({ ...anchor, tokens: 151 }, withHeader(anchor.text), undefined)).toBe(false);
    expect(canUpdateAnchor({ ...anchor, tokens: 150 }, withHeader(anchor.text), undefined)).toBe(true);
  });

  it('appends the update under a heading that says it is newer, and counts its tokens', () => {
    const next = withUpdate(anchor, 'Decision D2: split the parser.', 40, 30);
    expect(next.text).toBe(
      'Decision D1: keep the lexer.\n\n## Update at turn 40 (what is new since the summary above; where they differ, this is current)\nDecision D2: split the parser.'
    );
    expect(next).toMatchObject({ tokens: 130, fullTokens: 100, fullTurn: 12, updates: 1 });
    expect(describeUpdate(anchor)).toBe('only what is new since the kept summary, written whole at turn 12');
    expect(describeUpdate(next)).toBe(
      'only what is new since the kept summary, written whole at turn 12 and updated 1 time since'
    );
    expect(summaryUpdateInstruction()).toContain('as level-3 markdown headings');
    expect(summaryUpdateInstruction()).toContain(
      'The summary in <conversation-summary> is kept word for word'
    );
  });
});
