import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { wordStatsFixer } from '../../demo/word-stats-fixer.js';
import type { CompactionEvent } from '../../src/compaction/compactor.js';
import type { TranscriptLine } from '../../src/transcript/events.js';
import { ACTION_FROM_SOURCE, type ActionRun } from '../../test-support/action-runner.js';
import {
  lastUserText,
  type Fault,
  type FaultSchedule,
  type ParsedRequest,
  type RecordedRequest,
  type Script,
  TokenCounter
} from '../../test-support/fake-anthropic/index.js';
import { secondaryRateLimit, stateFromPayload } from '../../test-support/fake-github/index.js';
import { COMPACTION_REQUEST_TAG, longRunScript, realCodeSeed } from '../support/long-run-script.js';
import { actionWorldPerTest, examplePayload, type ActionWorld } from '../support/action-world.js';
import { normalizeMessage, replyAsMessage, type ComparableMessage } from '../support/message-compare.js';

/**
 * The fault matrix: the built action (dist/index.js) on an `/agent` comment, against loopback fakes
 * of the Anthropic API, GitHub and the artifact service, with one fault per scenario. Whatever the
 * fault, the action must end, report, upload a complete transcript, and count each answer it used
 * exactly once.
 */

const ARTIFACT = 'agent-transcripts-4242-1';
const RUN_FOLDER = '4242-1';
/** Small, so faults that persist end the run quickly. */
const MAX_RETRIES = 2;
/** The long workload: a window small enough that step 12 (a burst of big reads) triggers an auto compaction. */
const WINDOW = 40_000;
const LONG_TURNS = 16;

// ---------------------------------------------------------------------------------------------
// The faults and where they strike

interface ModelFault {
  readonly name: string;
  readonly fault: Fault;
  /**
   * Retried by our client (AnthropicModelClient.complete), which writes a `retry` line; the others
   * (HTTP statuses, a reset before the answer) are retried inside the SDK, where the loop cannot see them.
   */
  readonly ourRetry: boolean;
  readonly inputs?: Readonly<Record<string, string>>;
  /** What the report says failed when the fault persists. */
  readonly failure: RegExp;
}

const MODEL_FAULTS: readonly ModelFault[] = [
  { name: '429', fault: { kind: 'status', status: 429, retryAfterMs: 1 }, ourRetry: false, failure: /429/ },
  { name: '500', fault: { kind: 'status', status: 500, retryAfterMs: 1 }, ourRetry: false, failure: /500/ },
  { name: '529', fault: { kind: 'status', status: 529, retryAfterMs: 1 }, ourRetry: false, failure: /529/ },
  {
    name: 'overloaded_error mid-stream',
    // One block of partial output first: it must be neither kept nor counted.
    fault: { kind: 'overloaded_mid_stream', afterBlocks: 1 },
    ourRetry: true,
    failure: /Overloaded/
  },
  { name: 'connection reset', fault: { kind: 'reset' }, ourRetry: false, failure: /Connection error/ },
  {
    name: 'stalled stream',
    // The stall timeout applies to every request of the run: 0.5 s leaves a wide margin over a
    // normal answer's first event (a few ms once the shared token counter is warm).
    fault: { kind: 'slow_stream', delayMs: 1_500 },
    ourRetry: true,
    inputs: { api_stall_timeout_seconds: '0.5' },
    failure: /stalled/
  }
];
const modelFault = (name: string) => MODEL_FAULTS.find((fault) => fault.name === name)!;

type Phase = 'first turn' | 'mid-run' | 'summary';
type Workload = 'word-stats' | 'long run';

const isSummaryRequest = (request: ParsedRequest) => lastUserText(request).includes(COMPACTION_REQUEST_TAG);

const PHASES: Readonly<
  Record<
    Phase,
    { readonly text: string; readonly workload: Workload; matches(request: ParsedRequest): boolean }
  >
> = {
  'first turn': { text: 'the first turn', workload: 'word-stats', matches: (r) => r.messages.length === 1 },
  // The third agent turn of the word-stats fix (task, two exchanges): it reads the failing module.
  'mid-run': { text: 'a mid-run turn', workload: 'word-stats', matches: (r) => r.messages.length === 5 },
  summary: { text: 'a compaction summary request', workload: 'long run', matches: isSummaryRequest }
};

/** Faults the phase's requests: only the first try of the first one, or every one of them. */
function faultAt(phase: Phase, fault: Fault, persistent: boolean): FaultSchedule {
  let fired = false;
  return (_callIndex, request, { attempt }) => {
    if (!PHASES[phase].matches(request)) return undefined;
    if (persistent) return fault;
    if (fired || attempt !== 0) return undefined;
    fired = true;
    return fault;
  };
}

// ---------------------------------------------------------------------------------------------
// The world of one scenario

const startWorld = actionWorldPerTest();
/** One BPE memo for every fake of the file: the system prompt and tools are tokenized once. */
const tokenCounter = new TokenCounter();

afterAll(() => tokenCounter.dispose());

interface Setup {
  readonly workload: Workload;
  readonly faults?: FaultSchedule;
  readonly inputs?: Readonly<Record<string, string>>;
  /** Faults on GitHub or the artifact service, set before the action starts. */
  readonly arrange?: (w: ActionWorld) => void;
  /** The action to run (default: the built dist/index.js). */
  readonly entry?: readonly string[];
}

/** Runs the action on a writer's `/agent` comment, in a fresh repository with a local origin. */
async function runScenario(setup: Setup): Promise<{ run: ActionRun; w: ActionWorld }> {
  const long = setup.workload === 'long run';
  const payload = examplePayload(
    'issue_comment',
    'created',
    long ? '/agent explore this code base and keep notes' : '/agent the word count test fails, please fix it'
  );
  // The long workload never calls `compact`: its summary requests are auto compactions.
  const script: Script = long ? longRunScript({ turns: LONG_TURNS, manualCompactAt: -1 }) : wordStatsFixer;
  const seed = long ? realCodeSeed() : path.resolve('examples/word-stats');
  let world: ActionWorld;
  try {
    world = await startWorld({
      seed,
      github: stateFromPayload(payload, { senderPermission: 'write' }),
      anthropic: {
        script,
        tokenCounter,
        ...(setup.faults ? { faults: setup.faults } : {}),
        ...(long ? { contextWindow: WINDOW } : {})
      }
    });
  } finally {
    if (long) rmSync(seed, { recursive: true, force: true });
  }
  setup.arrange?.(world);
  const run = await world.run({
    eventName: 'issue_comment',
    payload,
    inputs: {
      api_max_retries: String(MAX_RETRIES),
      ...(long ? { context_window: String(WINDOW) } : {}),
      ...setup.inputs
    },
    ...(setup.entry ? { entry: setup.entry } : {})
  });
  return { run, w: world };
}

// ---------------------------------------------------------------------------------------------
// What every scenario must show

interface Expected {
  readonly code: 0 | 1;
  readonly stopReason: 'success' | 'error_during_execution';
  /** The report's "What failed" line, for failed runs. */
  readonly failure?: RegExp;
  /** `retry` lines in the transcript. */
  readonly retryLines: number;
  readonly retryError?: RegExp;
  /** Requests the fake faulted (a stalled one counts: it was answered, too slowly). */
  readonly faulted: number | 'per fallback';
  /** The artifact upload was made to fail: the transcript is read from the workspace instead. */
  readonly noArtifact?: boolean;
  readonly layers?: { readonly auto?: boolean; readonly fallback?: boolean };
}

type Message = ComparableMessage;
const normalize = normalizeMessage;

const messagesOf = (record: RecordedRequest): Message[] =>
  (record.body as { messages?: Message[] } | undefined)?.messages ?? [];
const preview = (message: Message) => normalize(message).slice(0, 140);

/** Parses the transcript line by line, so a broken line is named rather than thrown. */
function parseTranscript(text: string): { lines: TranscriptLine[]; broken: string[] } {
  const lines: TranscriptLine[] = [];
  const broken: string[] = [];
  text
    .trimEnd()
    .split('\n')
    .forEach((raw, index) => {
      try {
        lines.push(JSON.parse(raw) as TranscriptLine);
      } catch {
        broken.push(`line ${index + 1}: ${raw.slice(0, 80)}`);
      }
    });
  return { lines, broken };
}

function readRunFiles(run: ActionRun, w: ActionWorld, fromArtifact: boolean) {
  if (fromArtifact) {
    const files = w.artifacts.files(ARTIFACT);
    return {
      transcript: files.get(`${RUN_FOLDER}/transcript.jsonl`)?.toString('utf8'),
      compactionLog: files.get(`${RUN_FOLDER}/compaction-log.jsonl`)?.toString('utf8') ?? ''
    };
  }
  const dir = run.outputs.transcript_dir!;
  const read = (name: string) => {
    try {
      return readFileSync(path.join(dir, name), 'utf8');
    } catch {
      return undefined;
    }
  };
  return { transcript: read('transcript.jsonl'), compactionLog: read('compaction-log.jsonl') ?? '' };
}

/** The answers the run received whole: a stalled stream was answered by the fake but dropped by the client. */
function usedAnswers(w: ActionWorld): RecordedRequest[] {
  return w.anthropic.requests.filter(
    (record) =>
      record.path === '/v1/messages' &&
      record.response?.kind === 'message' &&
      record.fault?.kind !== 'slow_stream'
  );
}

function checkScenario(run: ActionRun, w: ActionWorld, expected: Expected): void {
  // The process ends, with the exit code of the run's outcome (and its log in the diff when not).
  const ended = run.code === expected.code && run.outputs.stop_reason === expected.stopReason;
  expect({
    code: run.code,
    stop_reason: run.outputs.stop_reason,
    log: ended ? '' : `stdout:\n${run.stdout.slice(-4000)}\nstderr:\n${run.stderr.slice(-2000)}`
  }).toEqual({ code: expected.code, stop_reason: expected.stopReason, log: '' });
  expect(run.stderr.trim()).toBe(''); // the resume of workflow commands ends stderr's last line
  expect(run.outputs.conclusion).toBe(expected.stopReason === 'success' ? 'success' : 'failure');

  // The final report: the tracking comment's last body, or, when its edit failed, a new comment.
  const status =
    expected.stopReason === 'success'
      ? /^✅ Done · `success` · /
      : /^❌ Failed · `error_during_execution` · /;
  const tracking = w.github.createdComments.at(-1);
  expect(tracking).toBeDefined();
  expect(run.outputs.comment_id).toBe(String(tracking!.id));
  const report = tracking!.body;
  expect(report).toMatch(status);
  expect(run.summary).toMatch(status);
  if (expected.failure) {
    expect(report).toMatch(/> \*\*What failed:\*\* /);
    expect(report.split('\n').find((line) => line.includes('What failed'))).toMatch(expected.failure);
  } else {
    expect(report).not.toContain('What failed');
  }

  // The transcript was uploaded (or, when the upload was made to fail, is whole on disk).
  if (expected.noArtifact) {
    expect(w.artifacts.artifacts).toEqual([]);
    expect(run.outputs.artifact_id).toBe(''); // every output is set, empty when there is none
  } else {
    expect(run.outputs.artifact_id).toBe(String(w.artifacts.artifact(ARTIFACT)?.id));
  }
  const files = readRunFiles(run, w, !expected.noArtifact);
  expect(files.transcript).toBeDefined();
  const { lines, broken } = parseTranscript(files.transcript!);
  expect(broken).toEqual([]);
  expect(lines.map((line) => line.seq)).toEqual(lines.map((_, index) => index));
  expect(lines[0]?.type).toBe('run_start');
  expect(lines.filter((line) => line.type === 'run_start')).toHaveLength(1);
  expect(lines.filter((line) => line.type === 'run_end')).toHaveLength(1);
  const end = lines.at(-1)!;
  expect(end).toMatchObject({ type: 'run_end', stop_reason: expected.stopReason });

  // Every message sent to the fake and every reply the run used are in the transcript.
  const recorded = new Set(
    lines.flatMap((line) =>
      line.type === 'message' ? [normalize({ role: line.role, content: line.content })] : []
    )
  );
  const modelRequests = w.anthropic.requests.filter((record) => record.path === '/v1/messages');
  const missing: string[] = [];
  for (const record of modelRequests) {
    messagesOf(record).forEach((message, index) => {
      if (!recorded.has(normalize(message)))
        missing.push(`sent, seq ${record.seq} message ${index}: ${preview(message)}`);
    });
  }
  const used = usedAnswers(w);
  for (const record of used) {
    if (record.response?.kind !== 'message') continue;
    const answer = replyAsMessage(record.response.message.content);
    if (!recorded.has(normalize(answer))) missing.push(`reply to seq ${record.seq}: ${preview(answer)}`);
  }
  expect(missing).toEqual([]);
  // The partial output of an overloaded stream was dropped with it.
  expect(files.transcript).not.toContain('before the overload');
  // Each agent answer is one `response` line, under the id the fake gave it; summary answers are not turns.
  const agentAnswers = used.filter((record) => !isSummaryRequest(record.request!));
  expect(lines.flatMap((line) => (line.type === 'response' ? [line.message_id] : []))).toEqual(
    agentAnswers.map((record) => (record.response?.kind === 'message' ? record.response.message.id : ''))
  );

  // The fault struck as often as planned.
  const faulted = modelRequests.filter((record) => record.fault !== undefined);
  const compactions = files.compactionLog
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as CompactionEvent);
  const fallbacks = compactions.filter((event) => event.layer === 'fallback');
  if (expected.faulted === 'per fallback') {
    // Each failed summary: 2 summary attempts, each the SDK's 1 + MAX_RETRIES tries.
    expect(fallbacks.length).toBeGreaterThanOrEqual(1);
    expect(faulted).toHaveLength(fallbacks.length * 2 * (1 + MAX_RETRIES));
  } else {
    expect(faulted).toHaveLength(expected.faulted);
  }

  // Usage is counted once: the outputs are the sum of the answers the run used, whole.
  const sum = (pick: (usage: { input_tokens: number; output_tokens: number }) => number) =>
    used.reduce(
      (total, record) => total + (record.response?.kind === 'message' ? pick(record.response.usage) : 0),
      0
    );
  expect({
    input_tokens: Number(run.outputs.input_tokens),
    output_tokens: Number(run.outputs.output_tokens)
  }).toEqual({ input_tokens: sum((u) => u.input_tokens), output_tokens: sum((u) => u.output_tokens) });
  // Each summary the compactions used is counted once, too.
  const summaryAnswers = used.filter((record) => isSummaryRequest(record.request!));
  expect(compactions.reduce((total, event) => total + event.summary_tokens, 0)).toBe(
    summaryAnswers.reduce(
      (total, record) =>
        total + (record.response?.kind === 'message' ? record.response.usage.output_tokens : 0),
      0
    )
  );
  if (end.type === 'run_end') {
    expect(end.usage.input).toBe(Number(run.outputs.input_tokens));
    expect(end.usage.output).toBe(Number(run.outputs.output_tokens));
  }

  // The compaction log, when the scenario is about a summary.
  if (expected.layers?.auto) expect(compactions.map((event) => event.layer)).toContain('auto');
  if (expected.layers?.fallback) {
    expect(fallbacks.length).toBeGreaterThanOrEqual(1);
    expect(fallbacks[0]!.reason).toMatch(/summary failed/);
    expect(report).toContain('| fallback |');
  } else {
    expect(fallbacks).toEqual([]);
  }

  // Each retry our client made is a `retry` line (checked last, so a missing line hides nothing else).
  const retries = lines.flatMap((line) => (line.type === 'retry' ? [line] : []));
  expect({ retryLines: retries.length }).toEqual({ retryLines: expected.retryLines });
  for (const retry of retries) expect(retry.error).toMatch(expected.retryError ?? /./);
}

// ---------------------------------------------------------------------------------------------
// The matrix

interface ModelCase {
  readonly title: string;
  readonly fault: ModelFault;
  readonly phase: Phase;
}

const onceAt = (phase: Phase): ModelCase[] =>
  MODEL_FAULTS.map((fault) => ({ title: `${fault.name} at ${PHASES[phase].text} recovers`, fault, phase }));

/** One fault, on the first try only: the run recovers as if nothing happened. */
async function recovers({ fault, phase }: ModelCase): Promise<void> {
  const { run, w } = await runScenario({
    workload: PHASES[phase].workload,
    faults: faultAt(phase, fault.fault, false),
    ...(fault.inputs ? { inputs: fault.inputs } : {})
  });
  checkScenario(run, w, {
    code: 0,
    stopReason: 'success',
    faulted: 1,
    retryLines: fault.ourRetry ? 1 : 0,
    retryError: fault.failure,
    ...(phase === 'summary' ? { layers: { auto: true } } : {})
  });
  if (phase !== 'summary') {
    expect(w.repo.remoteGit('show', `${run.outputs.branch_name}:src/word-count.js`)).toContain(
      'split(/\\s+/)'
    );
  }
}

describe('a model API fault once, at the first turn', () => {
  it.each(onceAt('first turn'))('$title', recovers);
});

describe('a model API fault once, at a mid-run turn', () => {
  it.each(onceAt('mid-run'))('$title', recovers);
});

describe('a model API fault once, at a compaction summary request', () => {
  it.each(onceAt('summary'))('$title', recovers);
});

describe('a model API fault on every try', () => {
  const failing = (name: string, phase: Phase) => ({
    title: `${name} on every try of ${PHASES[phase].text} fails with a report`,
    fault: modelFault(name),
    phase
  });
  it.each([
    failing('529', 'first turn'),
    failing('connection reset', 'first turn'),
    failing('429', 'mid-run'),
    failing('overloaded_error mid-stream', 'mid-run'),
    failing('stalled stream', 'mid-run')
  ])('$title', async ({ fault, phase }) => {
    const { run, w } = await runScenario({
      workload: PHASES[phase].workload,
      faults: faultAt(phase, fault.fault, true),
      ...(fault.inputs ? { inputs: fault.inputs } : {})
    });
    checkScenario(run, w, {
      code: 1,
      stopReason: 'error_during_execution',
      failure: fault.failure,
      // The SDK's tries, or ours: 1 + MAX_RETRIES either way; ours leave a line per retry.
      faulted: 1 + MAX_RETRIES,
      retryLines: fault.ourRetry ? MAX_RETRIES : 0,
      retryError: fault.failure
    });
    expect(run.stdout).toMatch(/::error::compact-agent stopped with error_during_execution/);
  });

  it('500 on every summary request falls back to dropping the oldest turns, and the run goes on', async () => {
    const fault = modelFault('500');
    const { run, w } = await runScenario({
      workload: 'long run',
      faults: faultAt('summary', fault.fault, true)
    });
    checkScenario(run, w, {
      code: 0,
      stopReason: 'success',
      faulted: 'per fallback',
      // The SDK's retries leave no line; the pipeline's second summary attempt does.
      retryLines: 1,
      layers: { fallback: true }
    });
    expect(Number(run.outputs.num_turns)).toBe(LONG_TURNS);
  });
});

describe('GitHub faults during the final report', () => {
  // 404 (the comment was deleted), not 500: a 5xx is now retried with backoff on every edit.
  it('a tracking comment that cannot be edited (PATCH 404 on every edit) is a warning; the report is posted anew', async () => {
    const { run, w } = await runScenario({
      workload: 'word-stats',
      arrange: (world) => {
        world.github.failAlways({ method: 'PATCH', path: /\/issues\/comments\/\d+$/, status: 404 });
      }
    });
    checkScenario(run, w, {
      code: 0,
      stopReason: 'success',
      faulted: 0,
      retryLines: 0
    });
    // Every edit was tried and failed; the first comment still shows the start, and the report
    // reached the thread as a second comment.
    expect(w.github.requestsTo('PATCH', /\/issues\/comments\/\d+$/).length).toBeGreaterThanOrEqual(1);
    expect(w.github.requestsTo('PATCH', /\/issues\/comments\/\d+$/).every((r) => r.status === 404)).toBe(
      true
    );
    expect(w.github.createdComments).toHaveLength(2);
    expect(w.github.createdComments[0]!.history).toEqual([]);
    expect(w.github.createdComments[0]!.body).toContain('compact-agent is working on this');
    expect(w.github.createdComments[1]!.body).toMatch(/^✅ Done/);
    expect(run.stdout).toMatch(/::warning::Could not edit the tracking comment/);
    expect(run.outputs.pr_url).toBeDefined();
  });

  it.each([
    { title: 'a pull request that cannot be opened (422) leaves the branch pushed and says so', status: 422 },
    { title: 'a pull request that cannot be opened (500) leaves the branch pushed and says so', status: 500 }
  ])('$title', async ({ status }) => {
    const { run, w } = await runScenario({
      workload: 'word-stats',
      // Every attempt: a single 5xx is retried (the next test).
      arrange: (world) => world.github.failAlways({ method: 'POST', path: /\/pulls$/, status })
    });
    checkScenario(run, w, { code: 0, stopReason: 'success', faulted: 0, retryLines: 0 });
    const branch = run.outputs.branch_name!;
    expect(branch).toMatch(/^agent\/1-[0-9a-f]{6}$/);
    expect(w.repo.remoteGit('show', `${branch}:src/word-count.js`)).toContain('split(/\\s+/)');
    expect(w.github.createdPulls).toEqual([]);
    expect(run.outputs.pr_url).toBe(''); // every output is set, empty when there is none
    const report = w.github.createdComments[0]!.body;
    expect(report).toContain(`Pushed to \`${branch}\`, without a pull request (see the top).`);
    expect(report).toMatch(
      /⚠️ No pull request: .+ Open it from the pushed branch: \[compare and create\]\(.+\/compare\/main\.\.\.agent\/1-[0-9a-f]{6}\)/
    );
  });
});

describe('GitHub server errors and rate limits, retried by the Octokit plugins (the current sources)', () => {
  it('a pull request answered 500 once is retried and opened', async () => {
    const { run, w } = await runScenario({
      workload: 'word-stats',
      entry: ACTION_FROM_SOURCE,
      arrange: (world) => world.github.failNext({ method: 'POST', path: /\/pulls$/, status: 500 })
    });
    checkScenario(run, w, { code: 0, stopReason: 'success', faulted: 0, retryLines: 0 });
    expect(w.github.requestsTo('POST', /\/pulls$/).map((r) => r.status)).toEqual([500, 201]);
    expect(w.github.createdPulls).toHaveLength(1);
    expect(run.outputs.pr_url).toBeDefined();
  });

  it('a secondary rate limit on the first comment is waited out, with a warning in the log', async () => {
    const comments = /\/issues\/\d+\/comments$/;
    const { run, w } = await runScenario({
      workload: 'word-stats',
      entry: ACTION_FROM_SOURCE,
      arrange: (world) => world.github.failNext(secondaryRateLimit({ method: 'POST', path: comments }, 1))
    });
    checkScenario(run, w, { code: 0, stopReason: 'success', faulted: 0, retryLines: 0 });
    expect(w.github.requestsTo('POST', comments).map((r) => r.status)).toEqual([403, 201]);
    // The tracking comment itself got through (then became the report), not a fallback comment.
    expect(w.github.createdComments).toHaveLength(1);
    expect(w.github.createdComments[0]!.history[0]).toContain('compact-agent is working on this');
    expect(run.stdout).toMatch(/::warning::GitHub's secondary rate limit refused POST .*; waiting 1 s/);
  });
});

describe('artifact service faults during the final report', () => {
  it.each([
    {
      title: 'CreateArtifact 400: the run goes on, the report says the transcripts are missing',
      target: 'CreateArtifact'
    },
    {
      title: 'FinalizeArtifact 400: the run goes on, the report says the transcripts are missing',
      target: 'FinalizeArtifact'
    },
    {
      title: 'a blob upload 400: the run goes on, the report says the transcripts are missing',
      target: 'blob'
    }
  ] as const)('$title', async ({ target }) => {
    const { run, w } = await runScenario({
      workload: 'word-stats',
      arrange: (world) => world.artifacts.failNext({ target, status: 400 })
    });
    checkScenario(run, w, { code: 0, stopReason: 'success', faulted: 0, retryLines: 0, noArtifact: true });
    expect(w.github.createdComments[0]!.body).toMatch(
      /⚠️ The transcripts could not be uploaded \([\s\S]+\); they are missing from this run's artifacts\./
    );
    expect(run.stdout).toMatch(/::warning::The transcripts could not be uploaded/);
    expect(run.outputs.pr_url).toBeDefined();
  });
});
