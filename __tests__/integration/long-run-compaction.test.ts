import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { runSession, type SessionOutcome } from '../../src/agent/session.js';
import type { CompactionEvent } from '../../src/compaction/compactor.js';
import { autoCompactThreshold } from '../../src/compaction/settings.js';
import { parseAgentConfig } from '../../src/config/inputs.js';
import { AnthropicModelClient } from '../../src/model/anthropic-client.js';
import type { TranscriptLine } from '../../src/transcript/events.js';
import {
  startFakeAnthropic,
  type FakeAnthropic,
  type RecordedRequest
} from '../../test-support/fake-anthropic/index.js';
import {
  COMPACTION_REQUEST_TAG,
  longRunScript,
  realCodeSeed,
  type LongRunScript
} from '../support/long-run-script.js';
import { createTempRepo, type TempRepo } from '../support/temp-repo.js';
import { normalizeMessage, replyAsMessage, type ComparableMessage } from '../support/message-compare.js';

/**
 * The acceptance test of three-layer compaction: a 301-turn session through the real SDK against the
 * strict fake, with a context window small enough that the history has to be compacted many times.
 */

const WINDOW = 60_000;
const TURNS = 301;
const TASK = 'Explore this code base: read its big files, check the syntax of what you touch, keep notes.';

/** Real code: fast-glob's compiled output (many small CommonJS files), globby and js-yaml (big files). */
type Message = ComparableMessage;
const normalize = normalizeMessage;

const isInstruction = (block: object) =>
  (block as { type?: string }).type === 'text' &&
  ((block as { text?: string }).text ?? '').includes(COMPACTION_REQUEST_TAG);

/** Whether a request body is a summary request: its last user message ends with the instruction block. */
function isSummaryRequest(messages: readonly Message[]): boolean {
  const lastMessage = messages.at(-1);
  if (!lastMessage || lastMessage.role !== 'user') return false;
  if (typeof lastMessage.content === 'string') return lastMessage.content.includes(COMPACTION_REQUEST_TAG);
  const lastBlock = lastMessage.content.at(-1);
  return lastBlock !== undefined && isInstruction(lastBlock);
}

/** The messages of a summary request without the instruction the pipeline appended to the last one. */
function withoutInstruction(messages: readonly Message[]): Message[] {
  const lastMessage = messages.at(-1)!;
  const kept =
    typeof lastMessage.content === 'string'
      ? []
      : lastMessage.content.filter((block) => !isInstruction(block));
  return kept.length === 0
    ? messages.slice(0, -1)
    : [...messages.slice(0, -1), { role: lastMessage.role, content: kept }];
}

function readJsonLines<T>(file: string): T[] {
  return readFileSync(file, 'utf8')
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as T);
}

function promptTokensOf(record: RecordedRequest): number | undefined {
  if (record.response?.kind !== 'message') return undefined;
  const usage = record.response.usage;
  return usage.input_tokens + usage.cache_creation_input_tokens + usage.cache_read_input_tokens;
}

/** The messages of a request body as sent (bodies are recorded by default). */
function messagesOf(record: RecordedRequest): Message[] {
  return (record.body as { messages?: Message[] } | undefined)?.messages ?? [];
}

const preview = (message: Message) => normalize(message).slice(0, 160);

interface LongRun {
  readonly outcome: SessionOutcome;
  readonly script: LongRunScript;
  /** The auto-compaction threshold the run used (the default for the window and max_output_tokens). */
  readonly threshold: number;
  /** /v1/messages requests, as the fake recorded them. */
  readonly requests: readonly RecordedRequest[];
  readonly answered: readonly RecordedRequest[];
  readonly lines: readonly TranscriptLine[];
  readonly runMs: number;
}

describe('a 301-turn session in a 60k window, through the real SDK against the strict fake', () => {
  let repo: TempRepo | undefined;
  let fake: FakeAnthropic | undefined;
  let run: LongRun;

  // One run (about 10 s), several checks: each group of assertions reports on its own.
  beforeAll(async () => {
    const started = Date.now();
    const seed = realCodeSeed();
    try {
      repo = createTempRepo(seed);
    } finally {
      rmSync(seed, { recursive: true, force: true });
    }
    const script = longRunScript({ turns: TURNS });
    fake = await startFakeAnthropic({ script, contextWindow: WINDOW });
    const inputs: Record<string, string> = {
      context_window: String(WINDOW),
      max_turns: '400',
      max_budget_usd: '1000',
      timeout_minutes: '30'
    };
    const config = parseAgentConfig((name) => inputs[name] ?? '', { ANTHROPIC_API_KEY: 'test-key' });
    const outcome = await runSession({
      config,
      task: TASK,
      repoDir: repo.root,
      transcriptsDir: path.join(repo.root, '.transcripts'),
      runId: 'long-run',
      env: process.env,
      model: new AnthropicModelClient({ apiKey: 'test-key', baseURL: fake.url, retryBaseDelayMs: 1 })
    });
    const requests = fake.requests.filter((record) => record.path === '/v1/messages');
    run = {
      outcome,
      script,
      threshold: config.compaction.thresholdTokens ?? autoCompactThreshold(WINDOW, config.maxOutputTokens),
      requests,
      answered: requests.filter((record) => record.response?.kind === 'message'),
      lines: readJsonLines<TranscriptLine>(outcome.transcriptPath),
      runMs: Date.now() - started
    };
    if (process.env.LONG_RUN_VERBOSE) console.log(JSON.stringify(describeRun(run), null, 1));
  }, 240_000);

  afterAll(async () => {
    await fake?.close();
    repo?.remove();
  });

  const log = () => run.outcome.result.compactionLog;
  const byLayer = (layer: CompactionEvent['layer']) => log().filter((event) => event.layer === layer);

  it('completes with success after at least 300 turns, working like an agent', () => {
    const { result } = run.outcome;
    expect(result.error).toBeUndefined();
    expect(result.stopReason).toBe('success');
    expect(result.turns).toBeGreaterThanOrEqual(300);
    expect(run.script.progress.finished).toBe(true);
    expect(run.script.progress.agentTurns).toBe(result.turns);
    expect(run.lines.at(-1)).toMatchObject({ type: 'run_end', stop_reason: 'success', turns: result.turns });

    // Parallel calls, a failing command and a failing read, edits, and one compact call.
    const toolEvents = run.lines.flatMap((line) => (line.type === 'tool_result' ? [line] : []));
    const count = (name: string, isError: boolean) =>
      toolEvents.filter((event) => event.name === name && event.is_error === isError).length;
    expect(count('bash', true)).toBeGreaterThanOrEqual(1);
    expect(count('read_file', true)).toBeGreaterThanOrEqual(1);
    expect(count('edit_file', false)).toBeGreaterThanOrEqual(3);
    expect(count('compact', false)).toBe(1);
    const parallel = run.answered.filter(
      (record) =>
        record.response?.kind === 'message' &&
        record.response.message.content.filter((block) => block.type === 'tool_use').length >= 2
    );
    expect(parallel.length).toBeGreaterThanOrEqual(10);
    expect(repo!.git('status', '--short')).toMatch(/NOTES\.md/);
  });

  it('compacts with every layer: micro, at least 3 auto, a manual one with its focus, and no fallback', () => {
    expect(byLayer('auto').length).toBeGreaterThanOrEqual(3);
    expect(byLayer('manual').length).toBeGreaterThanOrEqual(1);
    expect(byLayer('micro').length).toBeGreaterThanOrEqual(1);
    expect(byLayer('fallback')).toEqual([]);
    const manual = byLayer('manual')[0]!;
    expect(manual.focus).toBe(run.script.progress.summaryFocuses.find((focus) => focus !== null));
    expect(manual.summary).toContain('## Focus');
    // One answered summary request per summary compaction, each with the sections asked for.
    expect(run.script.progress.summaryRequests).toBe(byLayer('auto').length + byLayer('manual').length);
    for (const event of [...byLayer('auto'), ...byLayer('manual')]) {
      expect(event.summary).toMatch(/## Task and intent[\s\S]*## Current state[\s\S]*## Next step/);
    }
  });

  it('never rejects a request, and the context stays under the window', () => {
    expect(
      run.requests.filter((record) => record.response?.kind !== 'message').map((record) => record.response)
    ).toEqual([]);
    expect(run.answered).toHaveLength(run.outcome.result.turns + run.script.progress.summaryRequests);
    expect(peakContext(run).tokens).toBeLessThan(WINDOW);
  });

  it('writes one compaction-log.jsonl line per compaction event, and the segments it names exist', () => {
    const logLines = readJsonLines<CompactionEvent>(run.outcome.compactionLogPath);
    expect(logLines).toHaveLength(log().length);
    expect(logLines).toEqual(JSON.parse(JSON.stringify(log())));
    const segments = [...byLayer('auto'), ...byLayer('manual')].map((event) => event.segment_path);
    expect(segments.length).toBeGreaterThanOrEqual(4);
    expect(
      segments.filter((segment) => segment === null || !existsSync(path.resolve(repo!.root, segment)))
    ).toEqual([]);
  });

  it('has every message sent to the fake, agent and summary requests alike, in the transcript', () => {
    expect(run.requests.filter((record) => messagesOf(record).length === 0).map((r) => r.seq)).toEqual([]);
    const recorded = recordedMessages(run.lines);
    const missing: string[] = [];
    for (const record of run.requests) {
      const messages = messagesOf(record);
      const summary = isSummaryRequest(messages);
      const kind = summary ? 'summary request' : 'agent request';
      (summary ? withoutInstruction(messages) : messages).forEach((message, index) => {
        if (!recorded.has(normalize(message)))
          missing.push(`${kind} seq ${record.seq}, message ${index}: ${preview(message)}`);
      });
    }
    expect(missing).toEqual([]);
  });

  it('has every reply the fake sent in the transcript as an assistant message', () => {
    const recorded = recordedMessages(run.lines);
    const summaries = new Set(
      run.lines.flatMap((line) => (line.type === 'compaction' && line.summary ? [line.summary] : []))
    );
    const missing: string[] = [];
    for (const record of run.answered) {
      if (record.response?.kind !== 'message') continue;
      const answer = replyAsMessage(record.response.message.content);
      if (recorded.has(normalize(answer))) continue;
      const kind = isSummaryRequest(messagesOf(record)) ? 'summary request' : 'agent request';
      const text = record.response.message.content
        .flatMap((block) => (block.type === 'text' ? [block.text] : []))
        .join('\n')
        .trim();
      const note = summaries.has(text) ? ' (its text is only in a compaction event, as `summary`)' : '';
      missing.push(`reply to ${kind} seq ${record.seq}${note}: ${preview(answer)}`);
    }
    expect(missing).toEqual([]);
  });
});

function recordedMessages(lines: readonly TranscriptLine[]): Set<string> {
  return new Set(
    lines.flatMap((line) =>
      line.type === 'message' ? [normalize({ role: line.role, content: line.content })] : []
    )
  );
}

/** The largest prompt the fake answered: uncached input + cache writes + cache reads. */
function peakContext(longRun: LongRun): { tokens: number; seq: number | undefined } {
  let peak = { tokens: 0, seq: undefined as number | undefined };
  for (const record of longRun.answered) {
    const tokens = promptTokensOf(record) ?? 0;
    if (tokens > peak.tokens) peak = { tokens, seq: record.seq };
  }
  return peak;
}

/** The numbers worth reporting, printed with LONG_RUN_VERBOSE=1. */
function describeRun(longRun: LongRun) {
  const { result } = longRun.outcome;
  const layers = ['micro', 'auto', 'manual', 'spill', 'fallback'] as const;
  const isSummary = (record: RecordedRequest) => isSummaryRequest(messagesOf(record));
  const agent = longRun.answered.filter((record) => !isSummary(record));
  const summary = longRun.answered.filter(isSummary);
  return {
    runMs: longRun.runMs,
    stopReason: result.stopReason,
    error: result.error,
    turns: result.turns,
    requests: longRun.requests.length,
    summaryRequests: longRun.script.progress.summaryRequests,
    layers: Object.fromEntries(
      layers.map((layer) => [layer, result.compactionLog.filter((event) => event.layer === layer).length])
    ),
    peak: peakContext(longRun),
    peakAgentRequest: Math.max(...agent.map((record) => promptTokensOf(record) ?? 0)),
    peakSummaryRequest: Math.max(0, ...summary.map((record) => promptTokensOf(record) ?? 0)),
    window: WINDOW,
    threshold: longRun.threshold,
    costUsd: result.costUsd,
    toolCalls: longRun.script.progress.toolCalls,
    edited: longRun.script.progress.edited,
    spillReadBack: longRun.script.progress.spillReadBack,
    // Where the time goes: model calls (SDK + fake: validation, token counting, SSE) and tools, in ms.
    modelMs: longRun.lines.reduce((sum, line) => sum + (line.type === 'response' ? line.duration_ms : 0), 0),
    toolMs: longRun.lines.reduce<Record<string, number>>((sums, line) => {
      if (line.type === 'tool_result') sums[line.name] = (sums[line.name] ?? 0) + line.duration_ms;
      return sums;
    }, {}),
    compactionMs: result.compactionLog.reduce((sum, event) => sum + event.duration_ms, 0),
    failedTools: longRun.lines.flatMap((line) =>
      line.type === 'tool_result' && line.is_error ? [`turn ${line.turn} ${line.name}`] : []
    ),
    compactions: result.compactionLog.map(
      (event) => `turn ${event.turn} ${event.layer}: ${event.tokens_before} → ${event.tokens_after}`
    )
  };
}
