import {
  CONTEXT_MANAGEMENT_BETA,
  createPromptCache,
  type RecordedRequest
} from '../../test-support/fake-anthropic/index.js';
import { COMPACTION_REQUEST_TAG } from '../support/long-run-script.js';
import { runLongCli, type LongCliRun } from '../support/long-cli-run.js';
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
  let run: LongCliRun | undefined;

  beforeAll(async () => {
    run = await runLongCli({ turns: TURNS, window: WINDOW, usageModel: createPromptCache() });
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
