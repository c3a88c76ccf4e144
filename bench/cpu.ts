import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { performance } from 'node:perf_hooks';
import type { Compactor } from '../src/compaction/compactor.js';
import { CompactionPipeline, type CompactionStore } from '../src/compaction/pipeline.js';
import { compactionSettings, type CompactionOptions } from '../src/compaction/settings.js';
import { resolveModelSpec } from '../src/config/models.js';
import type { ModelClient } from '../src/model/model-client.js';
import { RequestBuilder } from '../src/model/request-builder.js';
import { createDefaultTools } from '../src/tools/index.js';
import type { TokenCounter } from '../test-support/fake-anthropic/index.js';
import { percentile } from './figures.js';
import { referenceEstimate, referenceMicroCompact } from './strategies/reference.js';
import type { SeedFile } from './workload.js';
import type { StepSelection } from '../src/compaction/steps/step.js';
import { SUMMARIES_ONLY } from './strategies/layers.js';

export const CPU_HISTORY_TOKENS = 150_000;
const MEASURED_TURNS = 100;

/** Compaction work per turn, in milliseconds, at a history of 150k tokens: the median and the 95th percentile. */
export interface CpuFigure {
  readonly p50: number;
  readonly p95: number;
  readonly historyTokens: number;
}

/** A read_file exchange as the tools would produce it (numbered lines), for turn `index`. */
function exchange(file: SeedFile, index: number, lines = 400): MessageParam[] {
  const id = `toolu_cpu_${index}`;
  const numbered = file.text
    .split('\n')
    .slice(0, lines)
    .map((line, at) => `${String(at + 1).padStart(6)}\t${line}`)
    .join('\n');
  return [
    {
      role: 'assistant',
      content: [
        { type: 'text', text: `Reading ${file.path} (turn ${index}).` },
        { type: 'tool_use', id, name: 'read_file', input: { path: file.path } }
      ]
    },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: numbered }] }
  ];
}

/** Tokens of an exchange as the API counts them: the texts and the tool input, not the JSON around them. */
function exchangeTokens(pair: readonly MessageParam[], counter: TokenCounter): number {
  let tokens = 0;
  for (const message of pair) {
    if (typeof message.content === 'string') {
      tokens += counter.count(message.content);
      continue;
    }
    for (const block of message.content) {
      if (block.type === 'text') tokens += counter.count(block.text);
      if (block.type === 'tool_use')
        tokens += counter.count(JSON.stringify(block.input)) + counter.count(block.name);
      if (block.type === 'tool_result' && typeof block.content === 'string')
        tokens += counter.count(block.content);
    }
  }
  return tokens;
}

/** The task and enough real read_file exchanges to hold `target` tokens, by the real tokenizer. */
function historyOf(
  files: readonly SeedFile[],
  target: number,
  counter: TokenCounter
): { history: MessageParam[]; tokens: number } {
  const history: MessageParam[] = [{ role: 'user', content: 'Review the code base.' }];
  let tokens = 0;
  for (let index = 0; tokens < target; index++) {
    const pair = exchange(files[index % files.length]!, index);
    tokens += exchangeTokens(pair, counter);
    history.push(...pair);
  }
  return { history, tokens };
}

const unusedModel: ModelClient = {
  complete: () => Promise.reject(new Error('the CPU measurement makes no model call'))
};

const memoryStore: CompactionStore = {
  saveSegment: (number) => `segment-${number}.jsonl`,
  spill: (id) => `spill/${id}.txt`,
  readRecentFile: () => undefined,
  changedFiles: () => Promise.resolve([]),
  transcriptPath: 'transcript.jsonl'
};

/**
 * Times one compactor's per-turn work on a history of 150k tokens and more: each of 100 turns appends
 * a 40-line read and calls compact() as the loop does before a request. The history must stay that
 * big, so nothing is allowed to shrink it: summaries and clears are out of reach (a clear would leave
 * a small history), and the stateless reference is timed on the full history every turn without
 * keeping its result. What is timed is the code's own work, never a model call.
 */
async function timeCompactor(
  compact: (history: MessageParam[], turn: number, tokens: number) => Promise<MessageParam[]>,
  files: readonly SeedFile[],
  counter: TokenCounter
): Promise<CpuFigure> {
  const start = historyOf(files, CPU_HISTORY_TOKENS, counter);
  let history = start.history;
  let tokens = start.tokens;
  const samples: number[] = [];
  for (let turn = 0; turn < MEASURED_TURNS + 10; turn++) {
    const pair = exchange(files[(turn * 7 + 3) % files.length]!, 10_000 + turn, 40);
    tokens += exchangeTokens(pair, counter);
    history = [...history, ...pair];
    const started = performance.now();
    history = await compact(history, turn, tokens);
    const elapsed = performance.now() - started;
    if (turn >= 10) samples.push(elapsed); // the first turns warm up the JIT
  }
  return { p50: percentile(samples, 50), p95: percentile(samples, 95), historyTokens: start.tokens };
}

/** Our pipeline with the given options, fed the true token count as the API's usage would be. */
function pipelineTimer(options: Partial<CompactionOptions>, steps?: StepSelection) {
  const spec = resolveModelSpec('claude-sonnet-5-5');
  const tools = createDefaultTools({ bashTimeoutMs: 1000 });
  const requests = new RequestBuilder({
    model: 'claude-sonnet-5-5',
    maxTokens: 16_384,
    systemPrompt: 'You are a coding agent.',
    tools: tools.definitions
  });
  const pipeline: Compactor = new CompactionPipeline(
    compactionSettings({
      contextWindow: 10_000_000,
      maxOutputTokens: 16_384,
      thresholdTokens: 9_000_000,
      microClearAtLeast: 9_000_000,
      ...options
    }),
    { model: unusedModel, requests, prices: spec.prices, store: memoryStore, now: () => 0 },
    steps
  );
  return async (history: MessageParam[], turn: number, tokens: number) => {
    const usage = { input: 0, cacheWrite: 0, cacheRead: tokens, output: 40 };
    const result = await pipeline.compact(history, { kind: 'before_request' }, { turn, lastUsage: usage });
    return result.history;
  };
}

/** The reference's per-turn work: micro_compact over the whole history and the chars/4 estimate. */
async function referenceTimer(history: MessageParam[]): Promise<MessageParam[]> {
  const micro = referenceMicroCompact(history);
  referenceEstimate(micro.history);
  return history;
}

/**
 * CPU figures per strategy name; `none` does no work. The no-hysteresis and no-prefix-reuse
 * ablations run the default's per-turn code (they differ only when a clear or a summary happens).
 */
export async function measureCompactionCpu(
  files: readonly SeedFile[],
  counter: TokenCounter
): Promise<Record<string, CpuFigure>> {
  const ours = await timeCompactor(pipelineTimer({}), files, counter);
  return {
    none: await timeCompactor(async (history) => history, files, counter),
    reference: await timeCompactor(referenceTimer, files, counter),
    default: ours,
    'no-micro': await timeCompactor(pipelineTimer({}, SUMMARIES_ONLY), files, counter),
    'no-hysteresis': ours,
    'no-prefix-reuse': ours
  };
}
