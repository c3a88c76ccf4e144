import { readFileSync, rmSync } from 'node:fs';
import type { CompactionEvent } from '../../src/compaction/compactor.js';
import type { TranscriptLine } from '../../src/transcript/events.js';
import {
  startFakeAnthropic,
  thinking,
  type FakeAnthropic,
  type RecordedRequest,
  type Script
} from '../../test-support/fake-anthropic/index.js';
import { COMPACTION_REQUEST_TAG, longRunScript, realCodeSeed } from '../support/long-run-script.js';
import { fakeModelEnv, runBuiltCli } from '../support/cli.js';
import { createTempRepo, type TempRepo } from '../support/temp-repo.js';

/**
 * Issue "Speak today's Claude API", done-when: the built CLI drives a long session on
 * claude-sonnet-5-5 with thinking on, every compaction layer fires, one reply ends with
 * model_context_window_exceeded mid-run, and the strict fake (which signs each thinking block over
 * its prefix and answers 400 when a replayed block's prefix changed) rejects nothing.
 * Issue "Compaction that survives real models", done-when: the model's summaries are prose that
 * follows none of our headings, and still at least 3 auto and 1 manual compactions happen, and every
 * tool call is in the transcript.
 */
const WINDOW = 60_000;
const TURNS = 301;
/** The agent call (0-based, summary requests excluded) answered with model_context_window_exceeded. */
const EXCEEDED_AT = 120;

/** Every reply starts with a thinking block, as Sonnet 5.5's do; one agent reply overflows mid-answer. */
function thinkingScript(): {
  script: Script;
  exceeded: () => boolean;
  inner: ReturnType<typeof longRunScript>;
} {
  const inner = longRunScript({ turns: TURNS, summaryStyle: 'prose' });
  let exceeded = false;
  const script: Script = async (request, context) => {
    const summary = JSON.stringify(request.messages.at(-1) ?? '').includes(COMPACTION_REQUEST_TAG);
    if (!summary && !exceeded && inner.progress.agentTurns === EXCEEDED_AT) {
      exceeded = true;
      return {
        content: [thinking('Reading everything at once.'), { type: 'text', text: 'Here is the whole fi' }],
        stop_reason: 'model_context_window_exceeded'
      };
    }
    const reply = await inner(request, context);
    const step = inner.progress.agentTurns;
    const note = summary
      ? 'Summarizing what matters for the next steps.'
      : `Step ${step}: deciding the next call.`;
    return { ...reply, content: [thinking(note), ...reply.content] };
  };
  return { script, exceeded: () => exceeded, inner };
}

const replayedThinking = (record: RecordedRequest): number =>
  JSON.stringify((record.body as { messages?: unknown } | undefined)?.messages ?? []).split(
    '"type":"thinking"'
  ).length - 1;

describe('the built CLI on claude-sonnet-5-5 with thinking, through every compaction layer', () => {
  let repo: TempRepo | undefined;
  let fake: FakeAnthropic | undefined;
  let finished: { code: number | null; stdout: string; stderr: string };
  let scripted: ReturnType<typeof thinkingScript>;
  let lines: TranscriptLine[];

  beforeAll(async () => {
    const seed = realCodeSeed();
    try {
      repo = createTempRepo(seed);
    } finally {
      rmSync(seed, { recursive: true, force: true });
    }
    scripted = thinkingScript();
    fake = await startFakeAnthropic({ script: scripted.script, contextWindow: WINDOW });
    finished = await runBuiltCli(
      [
        'run',
        '--repo',
        repo.root,
        '--prompt',
        'Explore this code base: read its big files, check the syntax of what you touch, keep notes.',
        '--model',
        'claude-sonnet-5-5',
        '--context-window',
        String(WINDOW),
        '--max-turns',
        '400',
        '--max-budget-usd',
        '1000'
      ],
      fakeModelEnv(fake.url)
    );
    const transcript = /transcript: (.+transcript\.jsonl)/.exec(finished.stdout)?.[1];
    lines = transcript
      ? readFileSync(transcript, 'utf8')
          .trimEnd()
          .split('\n')
          .map((line) => JSON.parse(line) as TranscriptLine)
      : [];
  }, 300_000);

  afterAll(async () => {
    await fake?.close();
    repo?.remove();
  });

  const messages = () => fake!.requests.filter((record) => record.path === '/v1/messages');
  const compactions = () =>
    lines.flatMap((line) => (line.type === 'compaction' ? [line as unknown as CompactionEvent] : []));

  it('finishes with success after the window-exceeded reply', () => {
    expect(finished.stderr).not.toMatch(/Error:/);
    expect(finished.code).toBe(0);
    expect(finished.stdout).toContain('stop reason: success');
    expect(scripted.exceeded()).toBe(true);
    expect(scripted.inner.progress.finished).toBe(true);
  });

  it('fires every layer: spill, micro, at least 3 auto and a manual one, from prose summaries', () => {
    const layers = compactions().map((event) => event.layer);
    for (const layer of ['spill', 'micro', 'manual']) expect(layers).toContain(layer);
    expect(layers.filter((layer) => layer === 'auto').length).toBeGreaterThanOrEqual(3);
    expect(layers).not.toContain('fallback');
    const summaries = compactions().flatMap((event) => (event.summary ? [event.summary] : []));
    expect(summaries.length).toBeGreaterThanOrEqual(4);
    for (const summary of summaries) expect(summary).not.toMatch(/^#/m);
  });

  it('has every tool call the model made in the transcript', () => {
    const answeredCalls = messages().flatMap((record) =>
      record.response?.kind === 'message'
        ? record.response.message.content
            .filter((block) => block.type === 'tool_use')
            .map((block) => block.id)
        : []
    );
    const transcribed = new Set(
      lines.flatMap((line) =>
        line.type === 'tool_result' ? [(line as { tool_use_id: string }).tool_use_id] : []
      )
    );
    expect(answeredCalls.length).toBeGreaterThan(TURNS);
    expect(answeredCalls.filter((id) => !transcribed.has(id))).toEqual([]);
  });

  it('is never rejected: 0 requests answered with anything but a message', () => {
    const rejected = messages().filter((record) => record.response?.kind !== 'message');
    expect(rejected.map((record) => JSON.stringify(record.response).slice(0, 300))).toEqual([]);
  });

  it('replayed thinking the whole way (so the binding check really ran), and sent adaptive thinking', () => {
    const withThinking = messages().filter((record) => replayedThinking(record) > 0);
    expect(withThinking.length).toBeGreaterThan(TURNS / 2);
    for (const record of messages()) {
      const body = record.body as { thinking?: unknown; tool_choice?: unknown };
      expect(body.thinking).toEqual({ type: 'adaptive' });
      expect(body.tool_choice).toBeUndefined();
    }
  });
});
