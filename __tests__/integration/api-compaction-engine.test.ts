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
import { fakeModelEnv, spawnCli } from '../support/cli.js';
import { createTempRepo, type TempRepo } from '../support/temp-repo.js';

/**
 * Issue 25, done-when: "A 300-step CLI run with the API engine has 0 rejected requests." The CLI
 * (from source) runs 300 tool turns on claude-sonnet-5-5 with thinking, `--compaction-engine api`,
 * against the strict fake, which signs every thinking block over its prefix, answers on-demand
 * compaction with a signed block, and refuses a block out of place or kept thinking whose conditions
 * broke. Auto and manual compaction must both go through the API, and the kept turn's thinking
 * must survive the swap.
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

type Body = { messages?: { role: string; content: unknown }[] };
const firstBlocks = (record: RecordedRequest): string[] =>
  ((record.body as Body | undefined)?.messages ?? [])
    .slice(0, 2)
    .map((m) => (Array.isArray(m.content) ? ((m.content[0] as { type?: string }).type ?? '') : 'string'));

describe('the CLI with --compaction-engine api: 300 steps, 0 rejected requests', () => {
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
        '1000',
        '--compaction-engine',
        'api'
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
    expect(
      messages()
        .filter((record) => record.rejected)
        .map((r) => r.rejected)
    ).toEqual([]);
    const notMessages = messages().filter((record) => record.response?.kind !== 'message');
    expect(notMessages.map((record) => JSON.stringify(record.response).slice(0, 300))).toEqual([]);
  });

  it('compacts through the API, auto and manual, and never with our summarizer', () => {
    const byApi = messages().filter((record) => record.compaction);
    const events = compactions().filter((e) => e.layer === 'auto' || e.layer === 'manual');
    expect(events.filter((e) => e.layer === 'auto').length).toBeGreaterThanOrEqual(3);
    expect(events.filter((e) => e.layer === 'manual')).toHaveLength(1);
    for (const event of events) expect(event.reason).toContain('summary by the API');
    expect(byApi).toHaveLength(events.length);
    expect(scripted.inner.progress.summaryRequests).toBe(0);
    expect(compactions().map((e) => e.layer)).not.toContain('fallback');
    // Micro clears ran between the API's compactions (edits after a block) without a rejection.
    expect(compactions().filter((e) => e.layer === 'micro').length).toBeGreaterThan(0);
    for (const record of byApi) expect(record.headers['anthropic-beta']).toContain('compact-2026-09-04');
  });

  it('keeps the kept turn and its thinking right after the block, with the task verbatim after them', () => {
    const afterSwap = messages().filter(
      (record) => !record.compaction && firstBlocks(record)[0] === 'compaction'
    );
    expect(afterSwap.length).toBeGreaterThan(0);
    expect(afterSwap.some((record) => firstBlocks(record)[1] === 'thinking')).toBe(true);
    for (const record of afterSwap) expect(record.headers['anthropic-beta']).toContain('compact-2026-09-04');
    const body = JSON.stringify(afterSwap.at(-1)!.body);
    expect(body).toContain(
      'Explore this code base: read its big files, check the syntax of what you touch, keep notes.'
    );
  });
});
