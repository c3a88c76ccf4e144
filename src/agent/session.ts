import path from 'node:path';
import type { AgentConfig } from '../config/inputs.js';
import { noCompaction, type Compactor } from '../compaction/compactor.js';
import { AnthropicModelClient } from '../model/anthropic-client.js';
import type { ModelClient } from '../model/model-client.js';
import { buildToolEnvironment } from '../tools/environment.js';
import { createDefaultTools } from '../tools/index.js';
import { Workspace } from '../tools/workspace.js';
import { TranscriptWriter } from '../transcript/writer.js';
import { runAgent, type ProgressUpdate } from './loop.js';
import type { RunResult } from './run-result.js';
import { buildSystemPrompt } from './system-prompt.js';

export interface SessionOptions {
  readonly config: AgentConfig;
  readonly task: string;
  readonly repoDir: string;
  /** Parent of the run folder; transcripts go to `<transcriptsDir>/<runId>/`. */
  readonly transcriptsDir: string;
  readonly runId: string;
  readonly env: NodeJS.ProcessEnv;
  readonly signal?: AbortSignal;
  readonly onProgress?: (update: ProgressUpdate) => void;
  /** Handed in so tests and the benchmark can swap the model and the compaction strategy. */
  readonly model?: ModelClient;
  readonly compactor?: Compactor;
}

export interface SessionOutcome {
  readonly result: RunResult;
  readonly runDir: string;
  readonly transcriptPath: string;
}

/** Assembles one run from its parts (model, tools, workspace, transcript) and runs it to the end. */
export async function runSession(options: SessionOptions): Promise<SessionOutcome> {
  const { config } = options;
  const runDir = path.join(options.transcriptsDir, options.runId);
  const transcript = new TranscriptWriter(runDir);
  try {
    const result = await runAgent(
      options.task,
      {
        runId: options.runId,
        model: config.model,
        modelSpec: config.modelSpec,
        maxOutputTokens: config.maxOutputTokens,
        systemPrompt: buildSystemPrompt(),
        limits: config.limits
      },
      {
        model:
          options.model ??
          new AnthropicModelClient({
            apiKey: config.apiKey,
            ...(config.baseURL !== undefined ? { baseURL: config.baseURL } : {})
          }),
        tools: createDefaultTools({ bashTimeoutMs: config.bashTimeoutMs }),
        workspace: new Workspace(options.repoDir),
        toolEnv: buildToolEnvironment(options.env, config.bashEnvPassthrough),
        transcript,
        compactor: options.compactor ?? noCompaction,
        ...(options.signal ? { signal: options.signal } : {}),
        ...(options.onProgress ? { onProgress: options.onProgress } : {})
      }
    );
    return { result, runDir, transcriptPath: transcript.path };
  } finally {
    transcript.close();
  }
}
