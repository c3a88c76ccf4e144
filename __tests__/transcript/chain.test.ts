/** Attacks on the record: the agent edits, removes, reorders or cuts transcript lines in the workspace. */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { TranscriptEvent } from '../../src/transcript/events.js';
import { chainedLineEnvelope, GENESIS_HASH, sealLine } from '../../src/transcript/line-envelope.js';
import { describeVerdict, verifyChain } from '../../src/transcript/verify-chain.js';
import { TranscriptWriter } from '../../src/transcript/writer.js';
import { createTempDir } from '../support/temp-repo.js';

const events: TranscriptEvent[] = [
  {
    type: 'run_start',
    run_id: 'r',
    task: 'fix the test',
    model: 'm',
    repo: '/w',
    system_prompt: 's',
    tools: ['bash'],
    limits: { max_turns: 5, timeout_minutes: 1, max_budget_usd: 1 },
    context_window: 1000
  },
  { type: 'message', turn: 0, index: 0, role: 'user', content: 'fix the test' },
  { type: 'request', turn: 1, message_count: 1, max_tokens: 100, estimated_context_tokens: 10 },
  { type: 'tool_result', turn: 1, tool_use_id: 't1', name: 'bash', is_error: false, duration_ms: 3 },
  { type: 'message', turn: 1, index: 1, role: 'user', content: 'rm -rf / ran fine' },
  {
    type: 'run_end',
    stop_reason: 'success',
    turns: 1,
    usage: { input: 1, cache_write: 0, cache_read: 0, output: 1 },
    cost_usd: 0,
    duration_ms: 5,
    summary: 'done',
    error: null
  }
];

function writeRun(redact?: (line: string) => string): { writer: TranscriptWriter; text: () => string } {
  const dir = path.join(createTempDir('chain-'), 'run');
  const writer = new TranscriptWriter(dir, { ...(redact ? { redact } : {}) });
  for (const event of events) writer.append(event);
  writer.close();
  return { writer, text: () => readFileSync(writer.path, 'utf8') };
}

const linesOf = (text: string) => text.trimEnd().split('\n');
const joined = (lines: readonly string[]) => `${lines.join('\n')}\n`;

describe('the writer chains every line', () => {
  it('each line names the previous hash; the head is the last line’s hash, and the lines stay in memory', () => {
    const { writer, text } = writeRun();
    const parsed = linesOf(text()).map((line) => chainedLineEnvelope.parse(JSON.parse(line)));
    expect(parsed[0]!.prev).toBe(GENESIS_HASH);
    for (let i = 1; i < parsed.length; i++) expect(parsed[i]!.prev).toBe(parsed[i - 1]!.hash);
    expect(writer.head).toBe(parsed.at(-1)!.hash);
    expect(joined(writer.lines())).toBe(text());
    expect(verifyChain(text(), writer.head)).toEqual({
      status: 'intact',
      lines: events.length,
      head: writer.head,
      ended: true
    });
  });

  it('chains the redacted line: what is on disk verifies, and no secret is in it', () => {
    const { writer, text } = writeRun((line) => line.replaceAll('rm -rf /', '***'));
    expect(text()).not.toContain('rm -rf /');
    expect(verifyChain(text(), writer.head).status).toBe('intact');
  });

  it('deleting the file loses nothing: the writer still holds every line, chained to its head', () => {
    const { writer } = writeRun();
    rmSync(path.dirname(writer.path), { recursive: true, force: true });
    expect(writer.lines()).toHaveLength(events.length);
    expect(verifyChain(joined(writer.lines()), writer.head).status).toBe('intact');
  });
});

describe('verifyChain catches tampering in the workspace copy', () => {
  it('a middle line rewritten in place (same length, new content) is named', () => {
    const { writer, text } = writeRun();
    const lines = linesOf(text());
    lines[4] = lines[4]!.replace('rm -rf / ran fine', 'ls -la ran fine!');
    const verdict = verifyChain(joined(lines), writer.head);
    expect(verdict).toMatchObject({ status: 'broken', line: 5 });
    expect(describeVerdict(verdict, 't.jsonl')).toContain('Line 5 is the first bad line');
    expect(describeVerdict(verdict, 't.jsonl')).toContain('changed after it was written');
  });

  it('a rewritten line whose hash the agent recomputed breaks the next line’s link instead', () => {
    const { text } = writeRun();
    const lines = linesOf(text());
    // The agent can hash, but the next line names the old hash as its prev.
    const { hash: _old, ...body } = JSON.parse(lines[2]!) as Record<string, unknown>;
    const forgedBody = JSON.stringify({ ...body, max_tokens: 1 });
    lines[2] = sealLine(forgedBody, (JSON.parse(lines[1]!) as { hash: string }).hash).line;
    const verdict = verifyChain(joined(lines));
    expect(verdict).toMatchObject({ status: 'broken', line: 4 });
    expect(describeVerdict(verdict, 'x')).toContain('does not follow line 3');
  });

  it('a deleted middle line, swapped lines, and a removed first line', () => {
    const { text } = writeRun();
    const lines = linesOf(text());
    expect(verifyChain(joined([...lines.slice(0, 2), ...lines.slice(3)]))).toMatchObject({
      status: 'broken',
      line: 3
    });
    const swapped = [...lines];
    [swapped[1], swapped[2]] = [swapped[2]!, swapped[1]!];
    expect(verifyChain(joined(swapped))).toMatchObject({ status: 'broken', line: 2 });
    expect(verifyChain(joined(lines.slice(1)))).toMatchObject({ status: 'broken', line: 1 });
  });

  it('a line inserted by hand, and one cut off mid-way, are named', () => {
    const { text } = writeRun();
    const lines = linesOf(text());
    const inserted = [...lines.slice(0, 3), '{"seq":3,"time":"t","type":"retry"}', ...lines.slice(3)];
    expect(verifyChain(joined(inserted))).toMatchObject({ status: 'broken', line: 4 });
    const cut = [...lines.slice(0, 5), lines[5]!.slice(0, 40)];
    expect(verifyChain(joined(cut))).toMatchObject({ status: 'broken', line: 6 });
  });

  it('lines removed from the end: only the head from the report catches it', () => {
    const { writer, text } = writeRun();
    const truncated = joined(linesOf(text()).slice(0, 4));
    const unanchored = verifyChain(truncated);
    expect(unanchored).toMatchObject({ status: 'intact', ended: false });
    expect(describeVerdict(unanchored, 'x')).toContain('pass --head');
    const anchored = verifyChain(truncated, writer.head);
    expect(anchored).toMatchObject({ status: 'broken', line: 5 });
    expect(describeVerdict(anchored, 'x')).toContain('lines were removed from the end');
    expect(verifyChain('', writer.head)).toMatchObject({ status: 'broken', line: 1 });
  });

  it('lines appended after the run ended are caught against the head', () => {
    const { writer, text } = writeRun();
    const lines = linesOf(text());
    const extra = [...lines, lines[1]!];
    expect(verifyChain(joined(extra), writer.head)).toMatchObject({ status: 'broken', line: 7 });
  });

  it('a transcript from before chaining is reported as unchained, not as intact', () => {
    const old = '{"seq":0,"time":"t","type":"run_start"}\n{"seq":1,"time":"t","type":"run_end"}\n';
    expect(verifyChain(old)).toEqual({ status: 'unchained', lines: 2 });
    expect(verifyChain(old, 'a'.repeat(64))).toMatchObject({ status: 'broken', line: 1 });
  });

  it('a workspace copy overwritten by the agent is caught; the writer’s own copy still verifies', () => {
    const dir = path.join(createTempDir('chain-ro-'), 'run');
    const writer = new TranscriptWriter(dir);
    writer.append(events[0]!);
    writer.close();
    writeFileSync(writer.path, 'overwritten by the agent\n');
    expect(writer.lines()).toHaveLength(1);
    expect(verifyChain(joined(writer.lines()), writer.head).status).toBe('intact');
    expect(verifyChain(readFileSync(writer.path, 'utf8'), writer.head)).toMatchObject({
      status: 'broken',
      line: 1
    });
  });
});
