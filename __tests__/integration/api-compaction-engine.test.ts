import type { RecordedRequest } from '../../test-support/fake-anthropic/index.js';
import { runLongCli, type LongCliRun } from '../support/long-cli-run.js';
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

type Body = { messages?: { role: string; content: unknown }[] };
const firstBlocks = (record: RecordedRequest): string[] =>
  ((record.body as Body | undefined)?.messages ?? [])
    .slice(0, 2)
    .map((m) => (Array.isArray(m.content) ? ((m.content[0] as { type?: string }).type ?? '') : 'string'));

describe('the CLI with --compaction-engine api: 300 steps, 0 rejected requests', () => {
  let run: LongCliRun | undefined;

  beforeAll(async () => {
    // The API engine with our micro layer, as measured when it shipped (#25).
    run = await runLongCli({
      turns: TURNS,
      window: WINDOW,
      extraArgs: ['--compaction-engine', 'api', '--micro-by', 'client']
    });
  }, 600_000);

  afterAll(async () => {
    await run?.fake.close();
    run?.repo.remove();
  });

  const messages = () => run!.fake.requests.filter((record) => record.path === '/v1/messages');
  const compactions = () => run!.compactions();

  it('finishes the 300 steps with success', () => {
    expect(run!.finished.stderr).not.toMatch(/Error:/);
    expect(run!.finished.code).toBe(0);
    expect(run!.finished.stdout).toContain('stop reason: success');
    expect(run!.scripted.inner.progress.finished).toBe(true);
    expect(run!.scripted.inner.progress.agentTurns).toBeGreaterThanOrEqual(300);
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
    expect(run!.scripted.inner.progress.summaryRequests).toBe(0);
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
