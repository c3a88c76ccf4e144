import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { runSession, type SessionOutcome } from '../../src/agent/session.js';
import { parseAgentConfig } from '../../src/config/inputs.js';
import { AnthropicModelClient } from '../../src/model/anthropic-client.js';
import type { TranscriptLine } from '../../src/transcript/events.js';
import {
  startFakeAnthropic,
  TokenCounter,
  type FakeAnthropic,
  type FakeAnthropicOptions,
  type RecordedRequest
} from '../../test-support/fake-anthropic/index.js';
import { explorerScript } from '../support/explorer-script.js';
import { createTempRepo, type TempRepo } from '../support/temp-repo.js';

const REAL_CODE = path.resolve('node_modules/fast-glob/out');
let repo: TempRepo;
let fake: FakeAnthropic | undefined;
// One tokenizer, built before the first test: building it inside a timed run (up to a second or
// more on a loaded runner) would race the deadlines the tests set.
const tokenCounter = new TokenCounter();
beforeAll(() => {
  tokenCounter.count('warm up');
});
afterAll(() => tokenCounter.dispose());

beforeEach(() => {
  repo = createTempRepo(REAL_CODE);
});
afterEach(async () => {
  await fake?.close();
  fake = undefined;
  repo.remove();
});

async function runAgainstFake(
  options: FakeAnthropicOptions,
  inputs: Record<string, string> = {}
): Promise<SessionOutcome> {
  fake = await startFakeAnthropic({ tokenCounter, ...options });
  const config = parseAgentConfig((name) => inputs[name] ?? '', { ANTHROPIC_API_KEY: 'test-key' });
  return runSession({
    config,
    task: 'Explore this code base and leave notes.',
    repoDir: repo.root,
    transcriptsDir: path.join(repo.root, '.transcripts'),
    runId: 'it-run',
    env: process.env,
    model: new AnthropicModelClient({ apiKey: 'test-key', baseURL: fake.url, retryBaseDelayMs: 1 })
  });
}

function readTranscript(file: string): TranscriptLine[] {
  return readFileSync(file, 'utf8')
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as TranscriptLine);
}

const messageRequests = (requests: readonly RecordedRequest[]) =>
  requests.filter((r) => r.path === '/v1/messages');

/** A message as the API sees it: string content is one text block, cache markers are not content. */
function normalize(message: { role: string; content: string | readonly object[] }): string {
  const blocks =
    typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
  return JSON.stringify({
    role: message.role,
    content: blocks.map((block) => {
      const { cache_control: _marker, ...rest } = block as { cache_control?: unknown };
      return rest;
    })
  });
}

describe('a long session through the real SDK against the strict fake', () => {
  it('runs 32 turns with parallel calls and a tool error, and every request passes validation', async () => {
    const outcome = await runAgainstFake({ script: explorerScript(32) });
    const { result } = outcome;
    expect(result.error).toBeUndefined();
    expect(result.stopReason).toBe('success');
    expect(result.turns).toBe(32);

    const requests = messageRequests(fake!.requests);
    expect(requests).toHaveLength(32);
    expect(requests.filter((r) => r.response?.kind !== 'message')).toEqual([]);
    expect(requests.every((r) => r.headers['anthropic-version'] === '2026-10-21')).toBe(true);

    const replies = requests.map((r) => (r.response?.kind === 'message' ? r.response.message : undefined));
    expect(replies.some((m) => (m?.content.filter((b) => b.type === 'tool_use').length ?? 0) >= 3)).toBe(
      true
    );
    const lastHistory = requests.at(-1)!.request!.messages;
    const errors = lastHistory.flatMap((m) =>
      typeof m.content === 'string'
        ? []
        : m.content.filter((b) => b.type === 'tool_result' && b.is_error === true)
    );
    expect(errors).toHaveLength(1);
    expect(readFileSync(path.join(repo.root, 'NOTES.md'), 'utf8')).toContain('JavaScript files explored');
    expect(repo.git('diff', '--stat')).toMatch(/1 file changed, 1 insertion/);

    // Usage per class is the sum of what the server billed, priced from the table.
    const billed = replies.reduce((sum, m) => sum + (m?.usage.input_tokens ?? 0), 0);
    expect(result.usage.input).toBe(billed);
    expect(result.usage.output).toBe(replies.reduce((sum, m) => sum + (m?.usage.output_tokens ?? 0), 0));
    // Sonnet 5.5 at the documented $2 / $10 per MTok (pricing page, read 2026-11-23).
    expect(result.costUsd).toBeCloseTo((result.usage.input * 2 + result.usage.output * 10) / 1e6, 9);
  });

  it('writes every message sent and received to the transcript', async () => {
    const outcome = await runAgainstFake({ script: explorerScript(31) });
    const lines = readTranscript(outcome.transcriptPath);
    expect(lines.map((line) => line.seq)).toEqual(lines.map((_, index) => index));
    const recorded = new Set(
      lines.flatMap((line) =>
        line.type === 'message' ? [normalize({ role: line.role, content: line.content })] : []
      )
    );
    for (const request of messageRequests(fake!.requests)) {
      for (const message of request.request!.messages) expect(recorded).toContain(normalize(message));
      const answer = request.response?.kind === 'message' ? request.response.message : undefined;
      const sentBack = answer!.content.map(({ type, ...rest }) =>
        type === 'text' ? { type, text: (rest as { text: string }).text } : { type, ...rest }
      );
      const asParams = sentBack.map((block) => {
        if (block.type !== 'tool_use') return block;
        const { caller: _caller, ...param } = block as typeof block & { caller?: unknown };
        return param;
      });
      expect(recorded).toContain(
        normalize({ role: 'assistant', content: asParams as MessageParam['content'] })
      );
    }
    expect(lines[0]!.type).toBe('run_start');
    expect(lines.at(-1)).toMatchObject({ type: 'run_end', stop_reason: 'success', turns: 31 });
  });
});

describe('faults', () => {
  it('survives a 529 with retry-after, a mid-stream overload and a reset, without counting usage twice', async () => {
    const outcome = await runAgainstFake({
      script: explorerScript(30),
      faults: (callIndex, _request, { attempt }) => {
        if (attempt > 0) return undefined;
        if (callIndex === 3) return { kind: 'status', status: 529, retryAfterMs: 1 };
        if (callIndex === 8) return { kind: 'overloaded_mid_stream', afterBlocks: 1 };
        if (callIndex === 12) return { kind: 'reset' };
        return undefined;
      }
    });
    const { result } = outcome;
    expect(result.stopReason).toBe('success');
    expect(result.turns).toBe(30);

    const requests = messageRequests(fake!.requests);
    const kinds = requests.filter((r) => r.faulted).map((r) => r.response?.kind);
    expect(kinds).toEqual(['error', 'stream_error', 'reset']);
    const answered = requests.flatMap((r) => (r.response?.kind === 'message' ? [r.response.usage] : []));
    expect(answered).toHaveLength(30);
    expect(result.usage.input).toBe(answered.reduce((sum, usage) => sum + usage.input_tokens, 0));
    expect(result.usage.output).toBe(answered.reduce((sum, usage) => sum + usage.output_tokens, 0));

    // The stream failure was ours to retry, and the transcript says so.
    const retries = readTranscript(outcome.transcriptPath).filter((line) => line.type === 'retry');
    expect(retries).toEqual([
      expect.objectContaining({ turn: 9, attempt: 1, error: expect.stringMatching(/Overloaded/) })
    ]);
  });

  it("ends the run with the API's words when even the first request cannot fit, after one retry", async () => {
    // A window smaller than the tools and the task: the API answers 400 prompt is too long.
    fake = await startFakeAnthropic({ contextWindow: 800, script: explorerScript(10) });
    const client = new AnthropicModelClient({ apiKey: 'test-key', baseURL: fake.url, retryBaseDelayMs: 1 });
    const config = parseAgentConfig(() => '', { ANTHROPIC_API_KEY: 'test-key' });
    const outcome = await runSession({
      config,
      task: 'Explore.',
      repoDir: repo.root,
      transcriptsDir: path.join(repo.root, '.transcripts'),
      runId: 'too-long',
      env: process.env,
      model: client
    });
    expect(outcome.result.stopReason).toBe('error_during_execution');
    expect(outcome.result.error).toMatch(/400 .*prompt is too long: \d+ tokens > 800 maximum/);
    // The tools and the task alone overflow: there is nothing to compact, so the retry fails the same way.
    const rejected = messageRequests(fake.requests).filter((r) => r.response?.kind === 'error');
    expect(rejected).toHaveLength(2);
    expect(outcome.result.compactionLog).toEqual([]);
    expect(readTranscript(outcome.transcriptPath).at(-1)).toMatchObject({
      type: 'run_end',
      stop_reason: 'error_during_execution'
    });
  });
});

describe('limits against the fake', () => {
  it('stops at max_turns and at max_budget_usd with real token counts', async () => {
    const byTurns = await runAgainstFake({ script: explorerScript(40) }, { max_turns: '5' });
    expect(byTurns.result).toMatchObject({ stopReason: 'error_max_turns', turns: 5 });
    await fake!.close();

    const byBudget = await runAgainstFake({ script: explorerScript(40) }, { max_budget_usd: '0.05' });
    expect(byBudget.result.stopReason).toBe('error_max_budget_usd');
    expect(byBudget.result.costUsd).toBeGreaterThanOrEqual(0.05);
    expect(byBudget.result.turns).toBeLessThan(40);
    expect(readTranscript(byBudget.transcriptPath).at(-1)).toMatchObject({
      stop_reason: 'error_max_budget_usd'
    });
    await fake!.close();

    // 0.05 minutes is 3 s, ten times what the first turn needs; the second reply pauses 10 s
    // before each of its events, so no load can let it finish in time.
    const byTime = await runAgainstFake(
      {
        script: explorerScript(40),
        faults: (callIndex) => (callIndex === 1 ? { kind: 'slow_stream', delayMs: 10_000 } : undefined)
      },
      { timeout_minutes: '0.05' }
    );
    expect(byTime.result.stopReason).toBe('error_timeout');
    expect(byTime.result.turns).toBe(1);
    expect(readTranscript(byTime.transcriptPath).at(-1)).toMatchObject({ stop_reason: 'error_timeout' });
  });
});

describe('a stream that stalls', () => {
  it('is dropped after the stall timeout and tried again, billed once', async () => {
    // The stall limit is 3 s, ten times what a healthy answer takes to start; the stalled attempt
    // pauses 20 s before each event.
    fake = await startFakeAnthropic({
      tokenCounter,
      script: explorerScript(6),
      faults: (callIndex, _request, { attempt }) =>
        callIndex === 2 && attempt === 0 ? { kind: 'slow_stream', delayMs: 20_000 } : undefined
    });
    const config = parseAgentConfig(() => '', { ANTHROPIC_API_KEY: 'test-key' });
    const outcome = await runSession({
      config,
      task: 'Explore.',
      repoDir: repo.root,
      transcriptsDir: path.join(repo.root, '.transcripts'),
      runId: 'stall',
      env: process.env,
      model: new AnthropicModelClient({
        apiKey: 'test-key',
        baseURL: fake.url,
        retryBaseDelayMs: 1,
        stallTimeoutMs: 3_000
      })
    });
    expect(outcome.result.stopReason).toBe('success');
    const retries = readTranscript(outcome.transcriptPath).filter((line) => line.type === 'retry');
    expect(retries).toEqual([
      expect.objectContaining({ turn: 3, error: 'The response stream stalled: no event for 3.0 s.' })
    ]);
    // The stalled attempt was dropped before its usage arrived: only complete answers are counted.
    const answered = messageRequests(fake.requests).flatMap((r) =>
      r.response?.kind === 'message' ? [r.response.usage.input_tokens] : []
    );
    expect(answered).toHaveLength(outcome.result.turns + 1);
    expect(outcome.result.usage.input).toBe(answered.reduce((sum, n) => sum + n, 0) - answered[2]!);
  });
});
