/**
 * Property-based tests of the compaction pipeline over random valid histories.
 *
 * The oracle is the strict validator of the fake Anthropic API: whatever compaction returns must be
 * a history the real API accepts, and so must the summary requests compaction itself sends. Besides
 * that: the task stays first and verbatim, every tool_use keeps its tool_result (checked here
 * independently of the validator), the caller's history is never mutated, and cleared results
 * become placeholders that name the call, keep is_error and leave the agent's tool_use blocks alone.
 */
import type {
  ContentBlockParam,
  MessageParam,
  ToolResultBlockParam,
  ToolUseBlockParam
} from '@anthropic-ai/sdk/resources/messages';
import fc from 'fast-check';
import type {
  CompactionContext,
  CompactionEvent,
  CompactionLayer,
  CompactionResult,
  CompactionTrigger
} from '../../src/compaction/compactor.js';
import { CompactionPipeline, type CompactionStore } from '../../src/compaction/pipeline.js';
import { compactionSettings, type CompactionSettings } from '../../src/compaction/settings.js';
import type { SpillWriter } from '../../src/compaction/spill.js';
import { resolveModelSpec, type ModelPrices } from '../../src/config/models.js';
import type { ModelClient, ModelReply, ModelRequest } from '../../src/model/model-client.js';
import { RequestBuilder } from '../../src/model/request-builder.js';
import type { TokenUsage } from '../../src/model/usage.js';
import { createDefaultTools } from '../../src/tools/index.js';
import { validateRequest } from '../../test-support/fake-anthropic/validate.js';
import {
  describeHistory,
  historyArbitrary,
  keyInputOf,
  resultContentText,
  type GeneratedHistory
} from '../support/history-arbitraries.js';
import { withoutSteps, type StepSelection } from '../../src/compaction/steps/step.js';

// ---------------------------------------------------------------------------------------------
// Set-up: small settings so compaction really happens on these histories.

const RUNS = { generator: 200, incremental: 200, single: 200, micro: 150 };
const VALIDATE = { endpoint: 'messages', anthropicVersion: '2026-10-21' } as const;
const MAX_BREAKPOINTS = 4;
const TOOL_DEFINITIONS = createDefaultTools().definitions;
const PRICES: ModelPrices = resolveModelSpec('claude-sonnet-4-5').prices;
const SYSTEM_PROMPT = 'You are a coding agent working in a git repository. Use the tools; be brief.';
const TRANSCRIPT_PATH = '.transcripts/run/transcript.jsonl';
const SPILL_DIR = '.transcripts/run/tool-results';

function smallSettings(): CompactionSettings {
  return compactionSettings({
    contextWindow: 40_000,
    maxOutputTokens: 4_000,
    thresholdTokens: 12_000,
    microKeepRecent: 2,
    microClearAtLeast: 500
  });
}

const SUMMARY_TEXT = [
  '## Task and intent',
  'Fix the failing test in test/app.test.ts without changing the test.',
  '## Decisions',
  'Normalise paths in src/utils/pattern.ts instead of special-casing the test.',
  '## Files and code',
  '- src/utils/pattern.ts: `isDynamicPattern` ignores hidden directories.',
  '## Errors and fixes',
  '- `npm test`: expected 3, received 2 (still failing).',
  '## Current state',
  'The cause is found; no edit made yet.',
  '## Pending work',
  'Edit the pattern check, run the tests.',
  '## Next step',
  'Edit src/utils/pattern.ts line 42.'
].join('\n');
const SUMMARY_USAGE: TokenUsage = { input: 100, cacheWrite: 0, cacheRead: 0, output: 50 };

/**
 * How the fake model answers one summary compaction: well ('ok'), well but cut at max_tokens
 * ('cut'), after one failed attempt ('retry'), or not at all ('fail': every attempt fails, so the
 * pipeline falls back). Failures rotate between an exception, an empty reply and a tool call.
 */
type SummaryPlan = 'ok' | 'cut' | 'retry' | 'fail';
const FAILURES = ['throw', 'empty', 'tool_call'] as const;

/** The request body as the SDK serialises it (see AnthropicModelClient), frozen at call time. */
function sdkBody(request: ModelRequest): Record<string, unknown> {
  return JSON.parse(
    JSON.stringify({
      model: request.model,
      max_tokens: request.maxTokens,
      system: [...request.system],
      tools: [...request.tools],
      messages: [...request.messages],
      ...(request.thinking ? { thinking: request.thinking } : {}),
      ...(request.effort ? { output_config: { effort: request.effort } } : {})
    })
  ) as Record<string, unknown>;
}

/** cache_control markers anywhere in a body (tools, system, blocks, blocks nested in tool results). */
function countBreakpoints(value: unknown): number {
  if (Array.isArray(value)) return value.reduce((sum: number, item) => sum + countBreakpoints(item), 0);
  if (typeof value !== 'object' || value === null) return 0;
  let count = 0;
  for (const [key, inner] of Object.entries(value)) {
    if (key === 'cache_control') count += inner === null || inner === undefined ? 0 : 1;
    else count += countBreakpoints(inner);
  }
  return count;
}

class FakeSummaryModel implements ModelClient {
  /** Every request body received, as sent. */
  readonly bodies: Array<Record<string, unknown>> = [];
  private compaction = 0;
  private attempt = 0;

  /** `plans[i]` is how the i-th summary compaction goes; past the list every compaction succeeds. */
  constructor(
    private readonly plans: readonly SummaryPlan[],
    private readonly attemptsPerCompaction: number
  ) {}

  async complete(request: ModelRequest): Promise<ModelReply> {
    const call = this.bodies.length;
    this.bodies.push(sdkBody(request));
    const plan = this.plans[this.compaction] ?? 'ok';
    const attempt = this.attempt++;
    const fails = plan === 'fail' || (plan === 'retry' && attempt === 0);
    if (!fails || attempt + 1 >= this.attemptsPerCompaction) {
      this.compaction++;
      this.attempt = 0;
    }
    const id = `msg_summary_${call + 1}`;
    if (!fails) {
      const stopReason = plan === 'cut' ? 'max_tokens' : 'end_turn';
      return { id, content: [{ type: 'text', text: SUMMARY_TEXT }], stopReason, usage: SUMMARY_USAGE };
    }
    switch (FAILURES[call % FAILURES.length]!) {
      case 'throw':
        throw new Error('529 overloaded_error: Overloaded');
      case 'empty':
        return { id, content: [], stopReason: 'end_turn', usage: SUMMARY_USAGE };
      case 'tool_call':
        return {
          id,
          content: [
            { type: 'tool_use', id: `toolu_summary_${call}`, name: 'read_file', input: { path: 'a' } }
          ],
          stopReason: 'tool_use',
          usage: SUMMARY_USAGE
        };
    }
  }
}

class MemoryStore implements CompactionStore {
  readonly segments: Array<readonly MessageParam[]> = [];
  readonly spilled = new Map<string, string>();
  readonly transcriptPath = TRANSCRIPT_PATH;
  readonly spill: SpillWriter = (toolUseId, text) => {
    this.spilled.set(toolUseId, text);
    return `${SPILL_DIR}/${toolUseId}.txt`;
  };

  saveSegment(number: number, history: readonly MessageParam[]): string {
    this.segments.push(history);
    return `.transcripts/run/segments/${String(number).padStart(3, '0')}.json`;
  }

  readRecentFile(path: string): string | undefined {
    if (path.includes('deleted')) return undefined;
    return [`     1\t// ${path}`, '     2\texport const answer = 42;', '     3\t'].join('\n');
  }

  async changedFiles(): Promise<string[] | undefined> {
    return ['M src/a.ts'];
  }
}

interface Harness {
  readonly pipeline: CompactionPipeline;
  readonly model: FakeSummaryModel;
  readonly store: MemoryStore;
  readonly requests: RequestBuilder;
  readonly clock: { now: number };
}

function createHarness(
  settings: CompactionSettings,
  plans: readonly SummaryPlan[] = [],
  steps?: StepSelection
): Harness {
  const model = new FakeSummaryModel(plans, settings.summaryAttempts);
  const store = new MemoryStore();
  const requests = new RequestBuilder({
    model: 'claude-sonnet-5-5',
    maxTokens: 4_000,
    systemPrompt: SYSTEM_PROMPT,
    tools: TOOL_DEFINITIONS
  });
  const clock = { now: 1_750_000_000_000 };
  const pipeline = new CompactionPipeline(
    settings,
    {
      model,
      requests,
      prices: PRICES,
      store,
      now: () => clock.now
    },
    steps
  );
  return { pipeline, model, store, requests, clock };
}

// ---------------------------------------------------------------------------------------------
// Checks. Each throws an Error whose message says which step broke what, with both histories.

type Stats = Record<CompactionLayer, number> & {
  calls: number;
  placeholders: number;
  summaryRequests: number;
  /** Summary requests that carried only the task and the latest turns (the history did not fit). */
  trimmedSummaries: number;
};

function newStats(): Stats {
  return {
    micro: 0,
    auto: 0,
    manual: 0,
    spill: 0,
    fallback: 0,
    calls: 0,
    placeholders: 0,
    summaryRequests: 0,
    trimmedSummaries: 0
  };
}

function blocksOf(message: MessageParam): readonly ContentBlockParam[] {
  return typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
}

function describeTrigger(trigger: CompactionTrigger): string {
  return JSON.stringify(trigger);
}

function describeEvents(events: readonly CompactionEvent[]): string {
  return events
    .map((e) => `${e.layer} (${e.reason}; ids ${JSON.stringify(e.tool_use_ids ?? [])})`)
    .join('; ');
}

/** The first path at which two JSON-like values differ, for readable mutation failures. */
function firstDifference(a: unknown, b: unknown, path = '$'): string | undefined {
  if (Object.is(a, b)) return undefined;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) {
    const show = (value: unknown) => JSON.stringify(value)?.slice(0, 120) ?? String(value);
    return `${path}: ${show(a)} (now) vs ${show(b)} (before)`;
  }
  if (Array.isArray(a) !== Array.isArray(b)) return `${path}: array vs object`;
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  for (const key of new Set([...Object.keys(left), ...Object.keys(right)])) {
    if (!(key in left) || !(key in right)) return `${path}.${key}: present on one side only`;
    const difference = firstDifference(left[key], right[key], `${path}.${key}`);
    if (difference) return difference;
  }
  return undefined;
}

/**
 * Structural equality of JSON-like values. (node:util isDeepStrictEqual also compares prototypes,
 * and jest's VM realm gives structuredClone copies a different Object.prototype.)
 */
function isDeepStrictEqual(a: unknown, b: unknown): boolean {
  return firstDifference(a, b) === undefined;
}

/** Tool pairing, checked on the messages as they are (not merged by role), independently of the validator. */
function pairingProblems(messages: readonly MessageParam[]): string[] {
  const problems: string[] = [];
  messages.forEach((message, index) => {
    const blocks = blocksOf(message);
    if (message.role === 'assistant') {
      const uses = blocks.filter((block): block is ToolUseBlockParam => block.type === 'tool_use');
      if (uses.length === 0) return;
      const next = messages[index + 1];
      const nextBlocks = next && next.role === 'user' ? blocksOf(next) : [];
      const answered = new Set(
        nextBlocks.flatMap((block) => (block.type === 'tool_result' ? [block.tool_use_id] : []))
      );
      for (const use of uses)
        if (!answered.has(use.id))
          problems.push(
            `messages.${index}: tool_use ${use.id} (${use.name}) has no tool_result in the next message`
          );
      const leading = nextBlocks.findIndex((block) => block.type !== 'tool_result');
      const leadingResults = leading === -1 ? nextBlocks.length : leading;
      if (next && leadingResults < uses.length)
        problems.push(
          `messages.${index + 1}: only ${leadingResults} tool_result(s) lead it, ${uses.length} expected`
        );
      return;
    }
    const previous = messages[index - 1];
    const offered = new Set(
      previous && previous.role === 'assistant'
        ? blocksOf(previous).flatMap((block) => (block.type === 'tool_use' ? [block.id] : []))
        : []
    );
    blocks.forEach((block, blockIndex) => {
      if (block.type === 'tool_result' && !offered.has(block.tool_use_id))
        problems.push(
          `messages.${index}.content.${blockIndex}: tool_result ${block.tool_use_id} has no tool_use in the previous message`
        );
    });
  });
  return problems;
}

interface CallRecord {
  readonly label: string;
  readonly task: string;
  readonly input: MessageParam[];
  readonly trigger: CompactionTrigger;
  readonly result: CompactionResult;
}

function violation(call: CallRecord, property: string, detail: string): Error {
  return new Error(
    [
      `${call.label}, trigger ${describeTrigger(call.trigger)}: property ${property} broken:`,
      detail,
      `events: ${describeEvents(call.result.events) || 'none'}`,
      `--- input ${describeHistory(call.input)}`,
      `--- output ${describeHistory(call.result.history)}`
    ].join('\n')
  );
}

/** (3a)-(3c): the next request validates, the task leads verbatim, every tool pair is whole. */
function checkOutputHistory(call: CallRecord, requests: RequestBuilder): void {
  const history = call.result.history;
  const body = sdkBody(requests.build(history));
  const rejected = validateRequest(body, VALIDATE);
  if (rejected !== null) throw violation(call, '(a) the next request validates', `validator: ${rejected}`);

  const first = history[0];
  const firstBlock = first ? blocksOf(first)[0] : undefined;
  if (first?.role !== 'user' || firstBlock?.type !== 'text' || firstBlock.text !== call.task)
    throw violation(
      call,
      '(b) the task is the first block of the first message, verbatim',
      `first block: ${JSON.stringify(firstBlock)?.slice(0, 200)}; task: ${JSON.stringify(call.task).slice(0, 200)}`
    );

  const problems = pairingProblems(history);
  if (problems.length > 0)
    throw violation(call, '(c) every tool_use has its tool_result and back', problems.join('\n'));
}

/** (3d): the summary requests are real requests too. */
function checkSummaryRequests(call: CallRecord, bodies: readonly Record<string, unknown>[]): void {
  bodies.forEach((body, index) => {
    const rejected = validateRequest(body, VALIDATE);
    if (rejected !== null)
      throw violation(call, '(d) the summary request validates', `summary request ${index + 1}: ${rejected}`);
    const breakpoints = countBreakpoints(body);
    if (breakpoints > MAX_BREAKPOINTS)
      throw violation(
        call,
        '(d) a summary request carries at most 4 cache_control breakpoints',
        `summary request ${index + 1} has ${breakpoints}`
      );
  });
}

/** (3e): the caller's array and messages are exactly as they were. */
function checkNotMutated(call: CallRecord, before: readonly MessageParam[]): void {
  if (!isDeepStrictEqual(call.input, before))
    throw violation(
      call,
      '(e) the input history is not mutated',
      firstDifference(call.input, before) ?? 'deep-equal fails'
    );
}

const SPILL_MARK = 'characters omitted. The full output';

/**
 * (4): tool_use blocks are never changed or invented; a tool_result that changed is either a
 * placeholder (names the call, keeps is_error, reported by a micro event), a note pointing at an
 * earlier result of the same tool with the very same text (a micro event too), or a spill preview.
 * Returns how many results this call cleared.
 */
function checkToolBlocks(call: CallRecord): number {
  const uses = new Map<string, ToolUseBlockParam>();
  const results = new Map<string, ToolResultBlockParam>();
  for (const message of call.input)
    for (const block of blocksOf(message)) {
      if (block.type === 'tool_use') uses.set(block.id, block);
      if (block.type === 'tool_result') results.set(block.tool_use_id, block);
    }
  const events = call.result.events;
  const microIds = new Set(events.filter((e) => e.layer === 'micro').flatMap((e) => e.tool_use_ids ?? []));
  const spillIds = new Set(events.filter((e) => e.layer === 'spill').flatMap((e) => e.tool_use_ids ?? []));
  const clearedNow = new Set<string>();
  const inOutput = new Set<string>();
  const fail = (detail: string) =>
    violation(call, '(4) tool calls survive; cleared results are placeholders', detail);

  for (const message of call.result.history)
    for (const block of blocksOf(message)) {
      if (block.type === 'tool_use') {
        const original = uses.get(block.id);
        if (!original) throw fail(`tool_use ${block.id} was not in the input`);
        if (!isDeepStrictEqual(block, original))
          throw fail(`tool_use ${block.id} changed: ${firstDifference(block, original)}`);
        continue;
      }
      if (block.type !== 'tool_result') continue;
      const id = block.tool_use_id;
      inOutput.add(id);
      const original = results.get(id);
      if (!original) throw fail(`tool_result ${id} was not in the input`);
      if (isDeepStrictEqual(block, original)) continue;
      const use = uses.get(id)!;
      const before = resultContentText(original);
      const after = typeof block.content === 'string' ? block.content : undefined;
      if (before.startsWith('[cleared: '))
        throw fail(`${id}: a placeholder was changed again: ${JSON.stringify(after ?? block.content)}`);
      if (Boolean(block.is_error) !== Boolean(original.is_error))
        throw fail(`${id}: is_error was ${String(original.is_error)}, is now ${String(block.is_error)}`);
      if (after?.startsWith('[cleared: ')) {
        const key = keyInputOf(use.name, use.input);
        const named = key ? `${use.name} ${key.trim()}` : use.name;
        if (!after.startsWith(`[cleared: ${named}`))
          throw fail(`${id}: placeholder ${JSON.stringify(after)} does not name the call "${named}"`);
        if (!microIds.has(id)) throw fail(`${id} was cleared but no micro event lists it`);
        clearedNow.add(id);
      } else if (after?.startsWith('[unchanged: ')) {
        // A repeat: the result it points at must be in the output, whole, with the very same text.
        if (!microIds.has(id)) throw fail(`${id} was replaced by a repeat note but no micro event lists it`);
        const earlierId = / for tool_use (\S+), which is still above/.exec(after)?.[1];
        const earlier = call.result.history
          .flatMap((message) => blocksOf(message))
          .find((other) => other.type === 'tool_result' && other.tool_use_id === earlierId) as
          ToolResultBlockParam | undefined;
        if (!earlier || resultContentText(earlier) !== before)
          throw fail(
            `${id}: the repeat note points at ${String(earlierId)}, which does not hold the same text`
          );
        if (uses.get(earlierId!)?.name !== use.name)
          throw fail(`${id}: the repeat note points at a result of another tool`);
        clearedNow.add(id);
      } else if (after?.includes(SPILL_MARK) && spillIds.has(id)) {
        if (before.length <= 50_000) throw fail(`${id} was spilled at only ${before.length} characters`);
        if (!after.includes(`${SPILL_DIR}/${id}.txt`)) throw fail(`${id}: the spill preview lacks its path`);
      } else {
        throw fail(
          `${id}: the result changed but is neither a placeholder nor a spill preview: ${firstDifference(block, original)}`
        );
      }
    }
  for (const id of microIds)
    if (inOutput.has(id) && !clearedNow.has(id))
      throw fail(`${id} is listed by a micro event but its result was not replaced`);
  return clearedNow.size;
}

/** Compacts once, the way the loop does, and checks every property of that call. */
async function compactAndCheck(
  harness: Harness,
  stats: Stats,
  task: string,
  input: MessageParam[],
  trigger: CompactionTrigger,
  context: CompactionContext,
  label: string
): Promise<CompactionResult> {
  const rejectedInput = validateRequest(sdkBody(harness.requests.build(input)), VALIDATE);
  if (rejectedInput !== null)
    throw new Error(
      `${label}: the history handed to compact is itself invalid (${rejectedInput})\n${describeHistory(input)}`
    );
  const before = structuredClone(input);
  const bodiesBefore = harness.model.bodies.length;
  const result = await harness.pipeline.compact(input, trigger, context);
  const call: CallRecord = { label, task, input, trigger, result };
  checkNotMutated(call, before);
  checkOutputHistory(call, harness.requests);
  const summaryBodies = harness.model.bodies.slice(bodiesBefore);
  checkSummaryRequests(call, summaryBodies);
  stats.placeholders += checkToolBlocks(call);
  stats.calls++;
  stats.summaryRequests += summaryBodies.length;
  for (const body of summaryBodies)
    if ((body.messages as unknown[]).length < input.length) stats.trimmedSummaries++;
  for (const event of result.events) stats[event.layer]++;
  return result;
}

// ---------------------------------------------------------------------------------------------
// Driving the pipeline like the loop does.

type Extra = 'none' | 'manual' | 'overflow';

/** What happens around one compaction point: time passing, an extra trigger, the usage the API reports. */
interface Step {
  readonly idleMs: number;
  readonly extra: Extra;
  readonly focus: string | undefined;
  readonly charsPerToken: number;
  readonly overflowMaximum: number | undefined;
  readonly overflowMeasured: boolean;
}

const DEFAULT_STEP: Step = {
  idleMs: 4_000,
  extra: 'none',
  focus: undefined,
  charsPerToken: 3,
  overflowMaximum: undefined,
  overflowMeasured: true
};

const focusArbitrary = fc.option(
  fc.constantFrom(
    'the exact tsc errors and the files they point at',
    'which tests still fail, with their assertion messages',
    ' ',
    'keep "quotes", <tags> and `code` — verbatim'
  ),
  { nil: undefined }
);

function stepArbitrary(extras: boolean): fc.Arbitrary<Step> {
  return fc.record({
    idleMs: fc.oneof(
      { weight: 6, arbitrary: fc.integer({ min: 0, max: 90_000 }) },
      { weight: 1, arbitrary: fc.integer({ min: 300_001, max: 3_600_000 }) }
    ),
    extra: extras
      ? fc.oneof(
          { weight: 10, arbitrary: fc.constant<Extra>('none') },
          { weight: 1, arbitrary: fc.constant<Extra>('manual') },
          { weight: 1, arbitrary: fc.constant<Extra>('overflow') }
        )
      : fc.constant<Extra>('none'),
    focus: focusArbitrary,
    charsPerToken: fc.double({ min: 2, max: 4.5, noNaN: true }),
    overflowMaximum: fc.option(fc.integer({ min: 12_000, max: 40_000 }), { nil: undefined }),
    overflowMeasured: fc.boolean()
  });
}

const plansArbitrary: fc.Arbitrary<SummaryPlan[]> = fc.array(
  fc.oneof(
    { weight: 4, arbitrary: fc.constant<SummaryPlan>('ok') },
    { weight: 1, arbitrary: fc.constant<SummaryPlan>('cut') },
    { weight: 1, arbitrary: fc.constant<SummaryPlan>('retry') },
    { weight: 2, arbitrary: fc.constant<SummaryPlan>('fail') }
  ),
  { maxLength: 6 }
);

/** Characters the API would see for this history, prefix included (the fake usage is derived from it). */
function promptChars(requests: RequestBuilder, history: readonly MessageParam[]): number {
  return requests.prefixChars() + JSON.stringify(history).length;
}

function simulatedUsage(promptCharacters: number, reply: MessageParam | undefined, step: Step): TokenUsage {
  const prompt = Math.max(1, Math.ceil(promptCharacters / step.charsPerToken));
  const fresh = Math.ceil(prompt * 0.1);
  const output = reply ? Math.ceil(JSON.stringify(reply.content).length / step.charsPerToken) : 1;
  return { input: fresh, cacheWrite: 0, cacheRead: prompt - fresh, output };
}

/**
 * Feeds the generated history to one pipeline the way the loop does: at every point where the
 * history ends with a user message, an optional manual compaction (a `compact` tool call), the
 * before_request compaction, and an optional overflow compaction (a prompt-too-long 400). The loop
 * keeps appending its new messages to the history compaction RETURNED.
 */
async function runLikeTheLoop(
  generated: GeneratedHistory,
  steps: readonly Step[],
  plans: readonly SummaryPlan[],
  settings: CompactionSettings,
  stats: Stats
): Promise<void> {
  const harness = createHarness(settings, plans);
  const full = generated.messages;
  let history: MessageParam[] = [];
  let lastUsage: TokenUsage | undefined;
  let next = 0;
  for (let point = 0; next < full.length; point++) {
    do history.push(full[next++]!);
    while (full[next - 1]!.role !== 'user' && next < full.length);
    const step = steps[point] ?? DEFAULT_STEP;
    harness.clock.now += step.idleMs;
    const context: CompactionContext = { turn: point, lastUsage };
    const label = `point ${point} (after message ${next - 1} of the generated history)`;
    if (step.extra === 'manual') {
      const trigger: CompactionTrigger = { kind: 'manual', focus: step.focus };
      history = (await compactAndCheck(harness, stats, generated.task, history, trigger, context, label))
        .history;
    }
    const before: CompactionTrigger = { kind: 'before_request' };
    history = (await compactAndCheck(harness, stats, generated.task, history, before, context, label))
      .history;
    if (step.extra === 'overflow') {
      const actual = Math.ceil(promptChars(harness.requests, history) / step.charsPerToken);
      const trigger: CompactionTrigger = {
        kind: 'overflow',
        actualTokens: step.overflowMeasured ? actual : undefined,
        maximumTokens: step.overflowMaximum
      };
      history = (await compactAndCheck(harness, stats, generated.task, history, trigger, context, label))
        .history;
    }
    lastUsage = simulatedUsage(promptChars(harness.requests, history), full[next], step);
  }
}

/** A generated history must itself be valid: checked on the raw messages, without any src code involved. */
function expectValidGenerated(generated: GeneratedHistory): void {
  const rejected = validateRequest({ model: 'm', max_tokens: 1, messages: generated.messages }, VALIDATE);
  if (rejected !== null) throw new Error(`the generator produced an invalid history: ${rejected}`);
}

// ---------------------------------------------------------------------------------------------

describe('compaction properties over random valid histories', () => {
  it('the generator only produces histories the strict validator accepts, ending with a user message', () => {
    let tools = 0;
    let errors = 0;
    let longResults = 0;
    let blockResults = 0;
    let repeated = 0;
    let stringTasks = 0;
    fc.assert(
      fc.property(historyArbitrary(), (generated) => {
        const messages = generated.messages;
        expect(validateRequest({ model: 'm', max_tokens: 1, messages }, VALIDATE)).toBeNull();
        expect(pairingProblems(messages)).toEqual([]);
        expect(messages.at(-1)!.role).toBe('user');
        const first = blocksOf(messages[0]!)[0];
        expect(first).toEqual({ type: 'text', text: generated.task });
        if (typeof messages[0]!.content === 'string') stringTasks++;
        const keys = new Set<string>();
        for (const message of messages)
          for (const block of blocksOf(message)) {
            if (block.type === 'tool_use') {
              tools++;
              const key = `${block.name}:${keyInputOf(block.name, block.input)?.replace(/^\.\//, '').trim()}`;
              if (keys.has(key)) repeated++;
              keys.add(key);
            }
            if (block.type === 'tool_result') {
              if (block.is_error) errors++;
              if (Array.isArray(block.content)) blockResults++;
              if (resultContentText(block).length >= 1_500) longResults++;
            }
          }
      }),
      { numRuns: RUNS.generator }
    );
    // The generator covers what the properties need: errors, long results, block results, repeats.
    expect(tools).toBeGreaterThan(RUNS.generator);
    expect(errors).toBeGreaterThan(0);
    expect(longResults).toBeGreaterThan(0);
    expect(blockResults).toBeGreaterThan(0);
    expect(repeated).toBeGreaterThan(0);
    expect(stringTasks).toBeGreaterThan(0);
    expect(stringTasks).toBeLessThan(RUNS.generator);
  });

  it('compacting before every request like the loop (with manual and overflow compactions at random points) keeps every request valid, the task first, tool pairs whole, the input unmutated', async () => {
    const stats = newStats();
    await fc.assert(
      fc.asyncProperty(
        historyArbitrary(),
        fc.array(stepArbitrary(true), { maxLength: 20 }),
        plansArbitrary,
        async (generated, steps, plans) => {
          expectValidGenerated(generated);
          await runLikeTheLoop(generated, steps, plans, smallSettings(), stats);
        }
      ),
      { numRuns: RUNS.incremental }
    );
    // The settings make every layer really run on these histories, so the checks above had work to do.
    expect(stats.micro).toBeGreaterThan(0);
    expect(stats.auto).toBeGreaterThan(0);
    expect(stats.manual).toBeGreaterThan(0);
    expect(stats.fallback).toBeGreaterThan(0);
    expect(stats.placeholders).toBeGreaterThan(0);
    expect(stats.summaryRequests).toBeGreaterThan(0);
  });

  it('a single compaction of a whole history with any trigger (before_request, manual with or without focus, overflow) keeps the request valid, the task first, tool pairs whole, the input unmutated', async () => {
    const stats = newStats();
    const triggerArbitrary: fc.Arbitrary<CompactionTrigger> = fc.oneof(
      fc.constant<CompactionTrigger>({ kind: 'before_request' }),
      focusArbitrary.map((focus): CompactionTrigger => ({ kind: 'manual', focus })),
      fc
        .record({
          actualTokens: fc.option(fc.integer({ min: 1, max: 120_000 }), { nil: undefined }),
          maximumTokens: fc.option(fc.integer({ min: 16_000, max: 40_000 }), { nil: undefined })
        })
        .map((overflow): CompactionTrigger => ({ kind: 'overflow', ...overflow }))
    );
    const usageArbitrary = fc.option(
      fc.record({
        input: fc.nat({ max: 5_000 }),
        cacheWrite: fc.nat({ max: 5_000 }),
        cacheRead: fc.nat({ max: 40_000 }),
        output: fc.nat({ max: 4_000 })
      }),
      { nil: undefined }
    );
    await fc.assert(
      fc.asyncProperty(
        historyArbitrary(),
        triggerArbitrary,
        usageArbitrary,
        fc.nat({ max: 60 }),
        plansArbitrary,
        async (generated, trigger, lastUsage, turn, plans) => {
          expectValidGenerated(generated);
          const harness = createHarness(smallSettings(), plans);
          await compactAndCheck(
            harness,
            stats,
            generated.task,
            generated.messages,
            trigger,
            { turn, lastUsage },
            'single call'
          );
        }
      ),
      { numRuns: RUNS.single }
    );
    expect(stats.micro).toBeGreaterThan(0);
    expect(stats.auto).toBeGreaterThan(0);
    expect(stats.manual).toBeGreaterThan(0);
    expect(stats.fallback).toBeGreaterThan(0);
    expect(stats.spill).toBeGreaterThan(0);
    // Some summary requests had to drop the middle of the history to fit the (lowered) window.
    expect(stats.trimmedSummaries).toBeGreaterThan(0);
  });

  it('micro-compaction alone: cleared results become placeholders naming the call ("[cleared: read_file <path>"), keep is_error, spare the newest message, and leave every other block as it was', async () => {
    const stats = newStats();
    let errorsCleared = 0;
    await fc.assert(
      fc.asyncProperty(
        historyArbitrary({ maxTurns: 16 }),
        fc.array(stepArbitrary(false), { maxLength: 20 }),
        async (generated, steps) => {
          expectValidGenerated(generated);
          const harness = createHarness(smallSettings(), [], withoutSteps('auto'));
          const full = generated.messages;
          let history: MessageParam[] = [];
          let lastUsage: TokenUsage | undefined;
          let next = 0;
          for (let point = 0; next < full.length; point++) {
            do history.push(full[next++]!);
            while (full[next - 1]!.role !== 'user' && next < full.length);
            const step = steps[point] ?? DEFAULT_STEP;
            harness.clock.now += step.idleMs;
            const trigger: CompactionTrigger = { kind: 'before_request' };
            const label = `point ${point}`;
            const result = await compactAndCheck(
              harness,
              stats,
              generated.task,
              history,
              trigger,
              { turn: point, lastUsage },
              label
            );
            // Without summaries the history keeps its shape: same messages, only tool_result contents change.
            const call: CallRecord = { label, task: generated.task, input: history, trigger, result };
            const fail = (detail: string) =>
              violation(call, 'micro-compaction changes only tool_result contents', detail);
            if (result.events.some((event) => event.segment_path !== null))
              throw fail('a summary ran although the auto layer is off and no manual trigger was given');
            if (result.history.length !== history.length)
              throw fail(`length ${history.length} became ${result.history.length}`);
            result.history.forEach((message, index) => {
              const original = history[index]!;
              if (message.role !== original.role) throw fail(`messages.${index} changed role`);
              if (message.role === 'assistant' && !isDeepStrictEqual(message, original))
                throw fail(`assistant messages.${index} changed: ${firstDifference(message, original)}`);
              const blocks = blocksOf(message);
              const originalBlocks = blocksOf(original);
              if (blocks.length !== originalBlocks.length)
                throw fail(`messages.${index} changed its block count`);
              blocks.forEach((block, blockIndex) => {
                const originalBlock = originalBlocks[blockIndex]!;
                if (block.type !== originalBlock.type)
                  throw fail(`messages.${index}.content.${blockIndex} changed type`);
                if (block.type !== 'tool_result' && !isDeepStrictEqual(block, originalBlock))
                  throw fail(`messages.${index}.content.${blockIndex} (${block.type}) changed`);
                if (block.type === 'tool_result' && originalBlock.type === 'tool_result') {
                  const cleared =
                    typeof block.content === 'string' &&
                    block.content.startsWith('[cleared: ') &&
                    !resultContentText(originalBlock).startsWith('[cleared: ');
                  if (cleared && index === history.length - 1)
                    throw fail(
                      `${block.tool_use_id} in the newest message (not yet seen by the model) was cleared`
                    );
                  if (cleared && originalBlock.is_error) errorsCleared++;
                }
              });
            });
            history = result.history;
            lastUsage = simulatedUsage(promptChars(harness.requests, history), full[next], step);
          }
        }
      ),
      { numRuns: RUNS.micro }
    );
    expect(stats.micro).toBeGreaterThan(0);
    expect(stats.placeholders).toBeGreaterThan(RUNS.micro);
    expect(errorsCleared).toBeGreaterThan(0);
    expect(stats.auto + stats.manual + stats.fallback).toBe(0);
  });
});
