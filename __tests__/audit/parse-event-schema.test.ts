/** Every line is checked against the events' schema, the one the writer's types are inferred from. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseTranscript } from '../../src/audit/parse-transcript.js';
import { transcriptEvent, type TranscriptEvent } from '../../src/transcript/events.js';
import { TranscriptWriter } from '../../src/transcript/writer.js';

const runStart: TranscriptEvent = {
  type: 'run_start',
  run_id: 'schema',
  task: 'fix it',
  model: 'claude-sonnet-5-5',
  repo: '/w',
  system_prompt: 's',
  tools: ['bash'],
  limits: { max_turns: 3, timeout_minutes: 1, max_budget_usd: 1 },
  context_window: 200_000
};
const runEnd: TranscriptEvent = {
  type: 'run_end',
  stop_reason: 'success',
  turns: 0,
  usage: { input: 1, cache_write: 0, cache_read: 0, output: 1 },
  cost_usd: 0.01,
  duration_ms: 9,
  summary: 'done',
  error: null
};

const lines = (...events: object[]) =>
  events.map((event, seq) => JSON.stringify({ seq, time: '2026-11-23T12:00:00.000Z', ...event })).join('\n');

describe('the reader checks each line against the schema', () => {
  it('skips an event with a missing or mistyped field, naming the field', () => {
    const { model: _model, ...withoutModel } = runStart;
    const audit = parseTranscript(
      lines(withoutModel, { ...runEnd, usage: { ...runEnd.usage, output: 'many' } }, runStart)
    );
    expect(audit.skippedLines).toEqual([
      {
        line: 1,
        reason: expect.stringMatching(/^a run_start event with missing or malformed fields \(model: /)
      },
      {
        line: 2,
        reason: expect.stringMatching(/^a run_end event with missing or malformed fields \(usage\.output: /)
      }
    ]);
    // The run_end that does not match is not used: the run is incomplete, not a run of "many" tokens.
    expect(audit).toMatchObject({ runId: 'schema', incomplete: true });
  });

  it('skips a line of a type it does not know, and a message whose content is not content', () => {
    const audit = parseTranscript(
      lines(
        runStart,
        { type: 'telemetry', turn: 1 },
        { type: 'message', turn: 0, index: 0, role: 'user', content: [{ type: 'text', text: 7 }] }
      )
    );
    expect(audit.skippedLines).toEqual([
      { line: 2, reason: 'not a transcript event (unknown type "telemetry")' },
      {
        line: 3,
        reason: expect.stringMatching(/^a message event with missing or malformed fields \(content: /)
      }
    ]);
  });

  it('reads fields it does not know (added later) and the ones added since the first writer as optional', () => {
    const audit = parseTranscript(lines({ ...runStart, added_later: 1 }, runEnd));
    expect(audit.skippedLines).toEqual([]);
    expect(audit).toMatchObject({ runId: 'schema', compactionThresholdTokens: undefined, thread: undefined });
  });

  it('says which event the writer could not record, from the line the writer put in its place', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'compact-agent-schema-'));
    try {
      // A redaction that eats the end of the line: the writer records that the event was lost.
      const writer = new TranscriptWriter(dir, { redact: (line) => line.replace(/"repo".*$/, '"repo"') });
      writer.append(runStart);
      writer.close();
      const audit = parseTranscript(writer.lines().join('\n'));
      expect(audit.skippedLines).toEqual([
        { line: 1, reason: 'the writer could not record this "run_start" event: redaction broke this line' }
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the schema accepts what the writer is typed to write', () => {
    expect(transcriptEvent.safeParse(runStart).success).toBe(true);
    expect(transcriptEvent.safeParse(runEnd).success).toBe(true);
  });
});
