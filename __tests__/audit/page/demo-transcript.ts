import { readFileSync } from 'node:fs';
import path from 'node:path';
import { runSession, type SessionOutcome } from '../../../src/agent/session.js';
import type { CompactionEvent } from '../../../src/compaction/compactor.js';
import { parseAgentConfig } from '../../../src/config/inputs.js';
import { DEFAULT_MODEL, resolveModelSpec } from '../../../src/config/models.js';
import { AnthropicModelClient } from '../../../src/model/anthropic-client.js';
import { createPromptCache, startFakeAnthropic } from '../../../test-support/fake-anthropic/index.js';
import { DEMO_COMPACTION_INPUTS } from '../../../demo/demo-thresholds.js';
import { createWordStatsSession } from '../../../demo/word-stats-session.js';
import { createTempRepo, type TempRepo } from '../../support/temp-repo.js';

/** A transcript the agent really wrote: the demo's session, in process, with its lowered thresholds. */
export interface DemoTranscript {
  readonly outcome: SessionOutcome;
  readonly text: string;
  /** The compaction log the run wrote beside the transcript. */
  readonly log: readonly CompactionEvent[];
  readonly threshold: number;
  remove(): void;
}

export async function demoTranscript(): Promise<DemoTranscript> {
  const repo: TempRepo = createTempRepo(path.resolve('examples', 'word-stats'));
  const model = resolveModelSpec(DEFAULT_MODEL);
  const fake = await startFakeAnthropic({
    script: createWordStatsSession(),
    usageModel: createPromptCache({ minCacheableTokens: model.minCacheableTokens })
  });
  try {
    const inputs: Record<string, string> = { ...DEMO_COMPACTION_INPUTS };
    const outcome = await runSession({
      config: parseAgentConfig((name) => inputs[name] ?? '', { ANTHROPIC_API_KEY: 'k' }),
      task: 'the word count test fails on text with several spaces; please fix it',
      repoDir: repo.root,
      transcriptsDir: path.join(repo.root, '.transcripts'),
      runId: 'demo-audit',
      env: process.env,
      model: new AnthropicModelClient({ apiKey: 'k', baseURL: fake.url, retryBaseDelayMs: 1 })
    });
    return {
      outcome,
      text: readFileSync(outcome.transcriptPath, 'utf8'),
      log: readFileSync(outcome.compactionLogPath, 'utf8')
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line) as CompactionEvent),
      threshold: Number(DEMO_COMPACTION_INPUTS.compaction_threshold_tokens),
      remove: () => repo.remove()
    };
  } finally {
    await fake.close();
  }
}
