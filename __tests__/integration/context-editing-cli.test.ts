import { readFileSync, rmSync } from 'node:fs';
import type { CompactionEvent } from '../../src/compaction/compactor.js';
import type { TranscriptLine } from '../../src/transcript/events.js';
import {
  CONTEXT_MANAGEMENT_BETA,
  createPromptCache,
  startFakeAnthropic,
  thinking,
  type FakeAnthropic,
  type RecordedRequest,
  type Script
} from '../../test-support/fake-anthropic/index.js';
import { COMPACTION_REQUEST_TAG, longRunScript, realCodeSeed } from '../support/long-run-script.js';
import { fakeModelEnv, spawnCli } from '../support/cli.js';
import { createTempRepo, type TempRepo } from '../support/temp-repo.js';

/**
 * Issue 38, point 4: the 300-step CLI run with the shipped default (the API's context editing clears
 * old tool results; compaction.micro_by: server) against the strict fake, which signs every thinking
 * block over its prefix and refuses a request whose replayed block no longer matches, applies the
 * clears to what the model reads, and reports them in applied_edits. 0 rejected requests, and the
 * thinking the client replays stays valid after every server clear (a clear never edits the client's
 * history: nothing is stripped between our summaries).
 */
const WINDOW = 60_000;
const TURNS = 301;

function thinkingScript(): { script: Script; inner: ReturnType<typeof longRunScript> } {
  const inner = longRunScript({ turns: TURNS });
  const script: Script = async (request, context) => {
    const summary = JSON.stringify(request.messages.at(-1) ?? '').includes(COMPACTION_REQUEST_TAG);
    const reply = await inner(request, context);
    const note = summary ? 'Summarizing.' : `Step ${inner.progress.agentTurns}: deciding the next call.`;
    return { ...reply, content: [thinking(note), ...reply.content] };
  };
  return { script, inner };
}

type Body = {
  messages?: { role: string; content: unknown }[];
  context_management?: { edits?: { type: string }[] };
};
const bodyOf = (record: RecordedRequest) => (record.body ?? {}) as Body;
const thinkingBlocksIn = (record: RecordedRequest) =>
  JSON.stringify(bodyOf(record).messages ?? []).split('"type":"thinking"').length - 1;
const clearedIn = (record: RecordedRequest) =>
  (record.appliedEdits ?? []).reduce(
    (sum, edit) => sum + (edit.type === 'clear_tool_uses_20250919' ? edit.cleared_tool_uses : 0),
    0
  );

describe('the CLI with the shipped default (the API clears old tool results): 300 steps', () => {
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
    fake = await startFakeAnthropic({
      script: scripted.script,
      contextWindow: WINDOW,
      usageModel: createPromptCache()
    });
    finished = await spawnCli(
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
      { env: fakeModelEnv(fake.url) }
    );
    const transcript = /transcript: (.+transcript\.jsonl)/.exec(finished.stdout)?.[1];
    lines = transcript
      ? readFileSync(transcript, 'utf8')
          .trimEnd()
          .split('\n')
          .map((line) => JSON.parse(line) as TranscriptLine)
      : [];
  }, 600_000);

  afterAll(async () => {
    await fake?.close();
    repo?.remove();
  });

  const messages = () => fake!.requests.filter((record) => record.path === '/v1/messages');
  const compactions = () =>
    lines.flatMap((line) => (line.type === 'compaction' ? [line as unknown as CompactionEvent] : []));

  it('finishes the 300 steps with success', () => {
    expect(finished.stderr).not.toMatch(/Error:/);
    expect(finished.code).toBe(0);
    expect(finished.stdout).toContain('stop reason: success');
    expect(scripted.inner.progress.finished).toBe(true);
    expect(scripted.inner.progress.agentTurns).toBeGreaterThanOrEqual(300);
  });

  it('has 0 rejected requests', () => {
    const notMessages = messages().filter((record) => record.response?.kind !== 'message');
    expect(notMessages.map((record) => JSON.stringify(record.response).slice(0, 300))).toEqual([]);
  });

  it('asks the API to clear on every request, keeping every thinking block, with the beta header', () => {
    for (const record of messages()) {
      expect(bodyOf(record).context_management?.edits?.map((edit) => edit.type)).toEqual([
        'clear_thinking_20251015',
        'clear_tool_uses_20250919'
      ]);
      expect(record.headers['anthropic-beta']).toContain(CONTEXT_MANAGEMENT_BETA);
    }
  });

  it('the server cleared many times, and the thinking replayed after each clear stayed valid and whole', () => {
    const records = messages();
    const clears = records.filter(
      (record, index) => index > 0 && clearedIn(record) > clearedIn(records[index - 1]!)
    );
    expect(clears.length).toBeGreaterThanOrEqual(10);
    // Our micro layer did not run: no client edit stripped thinking; the log shows the API's clears.
    // (The duplicate notes, also in the micro layer, change only results not sent yet.)
    const micro = compactions().filter((event) => event.layer === 'micro');
    const byApi = micro.filter((event) => event.reason.includes('the API cleared'));
    expect(byApi.length).toBeGreaterThanOrEqual(10);
    for (const event of micro)
      expect(event.reason).toMatch(/the API cleared|replaced by a note pointing at it/);
    // Every thinking block the client sent passed the fake's prefix check (0 rejected, none dropped),
    // and the request right after each clear carries at least as many as the one before it.
    expect(records.flatMap((record) => record.droppedThinking ?? [])).toEqual([]);
    for (const clear of clears) {
      const index = records.indexOf(clear);
      const next = records[index + 1];
      if (next === undefined || JSON.stringify(bodyOf(next).messages).includes(COMPACTION_REQUEST_TAG))
        continue;
      expect(thinkingBlocksIn(next)).toBeGreaterThanOrEqual(thinkingBlocksIn(clear));
    }
  });

  it('summarizes less often than the API clears, and never falls back', () => {
    const layers = compactions().map((event) => event.layer);
    expect(layers).not.toContain('fallback');
    expect(layers.filter((layer) => layer === 'auto').length).toBeLessThan(
      layers.filter((layer) => layer === 'micro').length
    );
  });
});
