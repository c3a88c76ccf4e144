import { readFileSync } from 'node:fs';
import path from 'node:path';
import { TranscriptWriter } from '../../src/transcript/writer.js';
import { createTempDir } from '../support/temp-repo.js';

describe('TranscriptWriter', () => {
  it('appends one JSON line per event with a sequence number, readable before close', () => {
    const dir = path.join(createTempDir(), 'run-1');
    const writer = new TranscriptWriter(dir, { now: () => new Date('2026-11-22T07:00:00.000Z') });
    writer.append({
      type: 'request',
      turn: 1,
      message_count: 1,
      max_tokens: 100,
      estimated_context_tokens: null
    });
    writer.append({ type: 'retry', turn: 1, attempt: 1, error: 'Overloaded' });
    // Already on disk: a crash now would lose nothing.
    const lines = readFileSync(path.join(dir, 'transcript.jsonl'), 'utf8').trimEnd().split('\n');
    // Each line also carries its place in the hash chain (see chain.test.ts).
    const withoutChain = lines.map((line) => {
      const { prev: _prev, hash: _hash, ...rest } = JSON.parse(line) as Record<string, unknown>;
      return rest;
    });
    expect(withoutChain).toEqual([
      {
        seq: 0,
        time: '2026-11-22T07:00:00.000Z',
        type: 'request',
        turn: 1,
        message_count: 1,
        max_tokens: 100,
        estimated_context_tokens: null
      },
      { seq: 1, time: '2026-11-22T07:00:00.000Z', type: 'retry', turn: 1, attempt: 1, error: 'Overloaded' }
    ]);
    writer.close();
    expect(() =>
      writer.append({
        type: 'request',
        turn: 2,
        message_count: 1,
        max_tokens: 1,
        estimated_context_tokens: null
      })
    ).toThrow(/closed/);
  });

  it('passes every line through the redaction hook', () => {
    const dir = path.join(createTempDir(), 'run-2');
    const writer = new TranscriptWriter(dir, { redact: (line) => line.replaceAll('sk-ant-123', '***') });
    writer.append({ type: 'retry', turn: 1, attempt: 1, error: 'bad key sk-ant-123' });
    writer.close();
    expect(readFileSync(writer.path, 'utf8')).toContain('bad key ***');
  });
});
