import { resolveModelSpec } from '../../src/config/models.js';
import { noCompaction, type Compactor } from '../../src/compaction/compactor.js';
import { runAgent, type AgentSettings } from '../../src/agent/loop.js';
import type { RunLimits } from '../../src/agent/limits.js';
import type { ModelClient } from '../../src/model/model-client.js';
import { RequestBuilder } from '../../src/model/request-builder.js';
import { thinkingSettings } from '../../src/model/thinking.js';
import { buildToolEnvironment } from '../../src/tools/environment.js';
import { createDefaultTools } from '../../src/tools/index.js';
import { Workspace } from '../../src/tools/workspace.js';
import type { TranscriptSink } from '../../src/transcript/writer.js';

export const GENEROUS_LIMITS: RunLimits = { maxTurns: 500, timeoutMs: 120_000, maxBudgetUsd: 1000 };

export function testSettings(limits: Partial<RunLimits> = {}, model = 'claude-sonnet-5-5'): AgentSettings {
  return { runId: 'test-run', modelSpec: resolveModelSpec(model), limits: { ...GENEROUS_LIMITS, ...limits } };
}

export interface HarnessOptions {
  readonly model: ModelClient;
  readonly repoRoot: string;
  readonly transcript: TranscriptSink;
  readonly compactor?: Compactor;
  readonly limits?: Partial<RunLimits>;
  readonly signal?: AbortSignal;
  readonly task?: string;
}

/** Runs the real loop with real tools on a temporary repository. */
export function runTestAgent(options: HarnessOptions) {
  const tools = createDefaultTools({ bashTimeoutMs: 20_000 });
  const requests = new RequestBuilder({
    model: 'claude-sonnet-5-5',
    maxTokens: 4096,
    systemPrompt: 'You are a test agent.',
    tools: tools.definitions,
    thinking: thinkingSettings(resolveModelSpec('claude-sonnet-5-5'), undefined)
  });
  return runAgent(options.task ?? 'Fix the bug.', testSettings(options.limits), {
    model: options.model,
    requests,
    tools,
    workspace: new Workspace(options.repoRoot),
    toolEnv: buildToolEnvironment(process.env),
    transcript: options.transcript,
    compactor: options.compactor ?? noCompaction,
    ...(options.signal ? { signal: options.signal } : {})
  });
}
