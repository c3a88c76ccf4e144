import { resolveModelSpec } from '../../src/config/models.js';
import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import type { CompactionStore } from '../../src/compaction/pipeline.js';
import { CompactionPipeline } from '../../src/compaction/pipeline.js';
import { compactionSettings, type CompactionOptions } from '../../src/compaction/settings.js';
import type { SummaryRequestShape } from '../../src/compaction/summarizer.js';
import type { ModelCallHooks, ModelClient, ModelReply, ModelRequest } from '../../src/model/model-client.js';
import { RequestBuilder } from '../../src/model/request-builder.js';
import { thinkingSettings } from '../../src/model/thinking.js';
import { createDefaultTools } from '../../src/tools/index.js';
import { withoutSteps, type StepSelection } from '../../src/compaction/steps/step.js';

/** The summary layers only: no micro clear, no duplicate notes. */
export const SUMMARIES_ONLY = withoutSteps('micro', 'duplicate');

export const STRUCTURED_SUMMARY = [
  '## Task and intent',
  'Refactor the parser.',
  '## Decisions',
  'Keep the public API.',
  '## Files and code',
  'src/parser.ts',
  '## Errors and fixes',
  'none',
  '## Current state',
  'half done',
  '## Pending work',
  'tests',
  '## Next step',
  'run npm test'
].join('\n');

/** A model for compaction unit tests: answers summary requests, or fails, and records what it got. */
export class SummaryModel implements ModelClient {
  readonly requests: ModelRequest[] = [];
  constructor(private readonly behaviour: 'summarize' | 'fail' = 'summarize') {}

  async complete(request: ModelRequest, _hooks?: ModelCallHooks): Promise<ModelReply> {
    this.requests.push(structuredClone(request));
    if (this.behaviour === 'fail') throw new Error('529 overloaded');
    return {
      id: `msg_${this.requests.length}`,
      content: [{ type: 'text', text: STRUCTURED_SUMMARY }],
      stopReason: 'end_turn',
      usage: { input: 2000, cacheWrite: 0, cacheRead: 30_000, output: 400 }
    };
  }
}

export class MemoryStore implements CompactionStore {
  readonly segments: Array<readonly MessageParam[]> = [];
  readonly spilled = new Map<string, string>();
  readonly transcriptPath = '.transcripts/run/transcript.jsonl';
  constructor(private readonly files: Record<string, string> = {}) {}

  saveSegment(number: number, history: readonly MessageParam[]): string {
    this.segments.push(structuredClone(history));
    return `.transcripts/run/segments/segment-${number}.json`;
  }
  readonly spill = (id: string, text: string) => {
    this.spilled.set(id, text);
    return `.transcripts/run/tool-results/${id}.txt`;
  };
  readRecentFile(path: string): string | undefined {
    const text = this.files[path];
    return text === undefined ? undefined : `     1\t${text}`;
  }
  async changedFiles(): Promise<string[]> {
    return [' M src/parser.ts'];
  }
}

/** Sonnet 5.5's request shape, thinking included (its blocks are bound to the conversation). */
export const requestBuilder = () =>
  new RequestBuilder({
    model: 'claude-sonnet-5-5',
    maxTokens: 4000,
    systemPrompt: 'You are a test agent.',
    tools: createDefaultTools().definitions,
    thinking: thinkingSettings(resolveModelSpec('claude-sonnet-5-5'), undefined)
  });

/** Settings, plus which steps run (all unless a test switches some off). */
export type PipelineOptions = Partial<CompactionOptions> & { readonly steps?: StepSelection };

export function pipeline(
  { steps, ...options }: PipelineOptions = {},
  model: ModelClient = new SummaryModel(),
  store: CompactionStore = new MemoryStore(),
  now: () => number = () => 0,
  summaryRequest?: SummaryRequestShape
) {
  const requests = requestBuilder();
  const compactor = new CompactionPipeline(
    compactionSettings({ contextWindow: 100_000, maxOutputTokens: 4000, ...options }),
    {
      model,
      requests,
      prices: resolveModelSpec('claude-sonnet-4-5').prices,
      store,
      now,
      ...(summaryRequest ? { summaryRequest } : {})
    },
    steps
  );
  return { compactor, requests, model, store };
}
