import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadTranscript } from '../../src/audit/load-transcript.js';
import { parseTranscript } from '../../src/audit/parse-transcript.js';
import { auditSummary, renderTerminalSummary } from '../../src/audit/terminal-summary.js';
import { runSession, type SessionOutcome } from '../../src/agent/session.js';
import { parseAgentConfig } from '../../src/config/inputs.js';
import { AnthropicModelClient } from '../../src/model/anthropic-client.js';
import { startFakeAnthropic } from '../../test-support/fake-anthropic/index.js';
import { longRunScript, realCodeSeed } from '../support/long-run-script.js';
import { createTempDir, createTempRepo, type TempRepo } from '../support/temp-repo.js';

/** A real transcript: a 40-turn run in a small window, so every compaction layer shows. */
let outcome: SessionOutcome;
let repo: TempRepo;
beforeAll(async () => {
  const seed = realCodeSeed();
  repo = createTempRepo(seed);
  rmSync(seed, { recursive: true, force: true });
  const fake = await startFakeAnthropic({
    script: longRunScript({ turns: 40, manualCompactAt: 20 }),
    contextWindow: 30_000
  });
  try {
    const inputs: Record<string, string> = {
      context_window: '30000',
      micro_keep_recent: '3',
      micro_clear_at_least: '2000',
      // Our micro layer, so this short run logs every layer (the API's clears come later in a run).
      micro_by: 'client'
    };
    outcome = await runSession({
      config: parseAgentConfig((name) => inputs[name] ?? '', { ANTHROPIC_API_KEY: 'k' }),
      task: 'Explore this code base and keep notes.',
      repoDir: repo.root,
      transcriptsDir: path.join(repo.root, '.transcripts'),
      runId: 'audited',
      env: process.env,
      model: new AnthropicModelClient({ apiKey: 'k', baseURL: fake.url, retryBaseDelayMs: 1 })
    });
  } finally {
    await fake.close();
  }
}, 60_000);
afterAll(() => repo.remove());

describe('parseTranscript on a transcript the agent wrote', () => {
  it('gives the run, its cost, its compactions, its tools and the files it changed', () => {
    const { result } = outcome;
    const audit = parseTranscript(readFileSync(outcome.transcriptPath, 'utf8'));
    expect(audit).toMatchObject({
      runId: 'audited',
      task: 'Explore this code base and keep notes.',
      model: 'claude-sonnet-5-5',
      stopReason: 'success',
      turns: result.turns,
      incomplete: false,
      skippedLines: [],
      usage: {
        input: result.usage.input,
        cache_write: result.usage.cacheWrite,
        cache_read: result.usage.cacheRead,
        output: result.usage.output
      }
    });
    expect(audit.costUsd).toBeCloseTo(result.costUsd, 9);
    expect(audit.contextTokensPerTurn.map((point) => point.tokens)).toEqual(result.contextTokensPerTurn);
    // The same events as the compaction log, and every layer this run used.
    const log = readFileSync(outcome.compactionLogPath, 'utf8')
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as object);
    expect(audit.compactions).toEqual(log);
    const layers = new Set(audit.compactions.map((event) => event.layer));
    expect(layers.has('micro') && layers.has('manual')).toBe(true);
    expect(audit.compactions.find((event) => event.layer === 'manual')!.summary).toContain(
      '## Task and intent'
    );
    // Every tool call of the run, with its first (uncleared) output.
    const toolResults = readFileSync(outcome.transcriptPath, 'utf8')
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string })
      .filter((event) => event.type === 'tool_result');
    const calls = audit.timeline.flatMap((turn) => turn.toolCalls);
    expect(calls).toHaveLength(toolResults.length);
    expect(calls.every((call) => call.output !== undefined && !call.output.startsWith('[cleared: '))).toBe(
      true
    );
    expect(audit.toolStats.reduce((sum, tool) => sum + tool.calls, 0)).toBe(calls.length);
    expect(audit.toolStats.find((tool) => tool.name === 'read_file')!.failures).toBeGreaterThanOrEqual(1);
    expect(audit.filesChanged).toContain('NOTES.md');
    expect(audit.timeline.at(-1)!.text).toMatch(/\S/);
  });

  it('prints a terminal summary and the same as JSON', () => {
    const audit = parseTranscript(readFileSync(outcome.transcriptPath, 'utf8'));
    const text = renderTerminalSummary(audit, 'x');
    expect(text).toContain(`Run audited · claude-sonnet-5-5 · success · ${audit.turns} turns`);
    expect(text).toContain(`Compactions (${audit.compactions.length}):`);
    expect(text).toMatch(/turn +\d+ {2}manual/);
    expect(text).toContain('Files changed: ');
    const json = auditSummary(audit);
    expect(json).toMatchObject({
      stop_reason: 'success',
      turns: audit.turns,
      incomplete: false,
      files_changed: audit.filesChanged
    });
    expect(json.compactions).toHaveLength(audit.compactions.length);
  });
});

describe('a damaged transcript', () => {
  it('gives what could be read and says which lines were skipped', () => {
    const lines = readFileSync(outcome.transcriptPath, 'utf8').trimEnd().split('\n');
    const cut = lines.slice(0, Math.floor(lines.length / 2));
    cut.splice(3, 0, 'garbage that is not json', '{"no":"type"}');
    const last = cut.pop()!;
    cut.push(last.slice(0, Math.floor(last.length / 2)));
    const audit = parseTranscript(`${cut.join('\n')}\n`);
    expect(audit.incomplete).toBe(true);
    expect(audit.stopReason).toBeUndefined();
    expect(audit.skippedLines).toEqual([
      { line: 4, reason: 'not valid JSON' },
      { line: 5, reason: 'not a transcript event (no type)' },
      { line: cut.length, reason: 'cut off (not valid JSON)' }
    ]);
    expect(audit.turns).toBeGreaterThan(5);
    expect(audit.timeline.length).toBeGreaterThan(5);
    const text = renderTerminalSummary(audit, 'damaged');
    expect(text).toContain('Incomplete: the transcript has no run_end line');
    expect(text).toContain('Skipped 3 of');
  });

  it('an empty file is an incomplete run with nothing in it, not a crash', () => {
    expect(parseTranscript('')).toMatchObject({ turns: 0, incomplete: true, skippedLines: [], timeline: [] });
  });
});

describe('loadTranscript', () => {
  it('reads a run folder, a .transcripts folder, a transcript.jsonl, and the artifact zip', async () => {
    const expected = readFileSync(outcome.transcriptPath, 'utf8');
    expect((await loadTranscript(outcome.runDir)).text).toBe(expected);
    expect((await loadTranscript(path.dirname(outcome.runDir))).source).toBe(outcome.transcriptPath);
    expect((await loadTranscript(outcome.transcriptPath)).text).toBe(expected);
    const zipDir = createTempDir('audit-zip-');
    const zip = path.join(zipDir, 'agent-transcripts-1-1.zip');
    execFileSync('zip', ['-qr', zip, 'audited'], { cwd: path.dirname(outcome.runDir) });
    const fromZip = await loadTranscript(zip);
    expect(fromZip.text).toBe(expected);
    expect(fromZip.source).toBe(`${zip}:audited/transcript.jsonl`);
    mkdirSync(path.join(zipDir, 'empty'));
    writeFileSync(path.join(zipDir, 'not-a-zip.zip'), 'PK\u0003\u0004 broken');
    await expect(loadTranscript(path.join(zipDir, 'empty'))).rejects.toThrow(/No transcript.jsonl/);
    await expect(loadTranscript(path.join(zipDir, 'not-a-zip.zip'))).rejects.toThrow(/not a readable zip/);
    await expect(loadTranscript(path.join(zipDir, 'missing'))).rejects.toThrow(/does not exist/);
  });
});
