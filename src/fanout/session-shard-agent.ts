import { newRunId } from '../agent/run-id.js';
import { runSession } from '../agent/session.js';
import type { AgentConfig } from '../config/inputs.js';
import type { ShardAgent } from './shard-agent.js';
import { readInstructionsForRun } from '../instructions/for-run.js';

/**
 * The shard agent of a fan-out (the CLI's, and the action's shard job): the same session `compact-agent run` starts, in the
 * shard's worktree, with the shard's budget as its max_budget_usd and the repository's
 * instruction files as that worktree has them.
 */
export function sessionShardAgent(parts: {
  readonly config: AgentConfig;
  readonly env: NodeJS.ProcessEnv;
  readonly redact: (text: string) => string;
  readonly signal: AbortSignal;
  readonly onNotice: (line: string) => void;
}): ShardAgent {
  const { config } = parts;
  return async (run) => {
    const instructions = await readInstructionsForRun(
      { kind: 'checkout', root: run.workdir },
      config.instructionFiles,
      run.task
    );
    const outcome = await runSession({
      config: { ...config, limits: { ...config.limits, maxBudgetUsd: run.budgetUsd } },
      task: run.task,
      redact: parts.redact,
      repoDir: run.workdir,
      transcriptsDir: run.transcriptsDir,
      runId: newRunId(),
      env: parts.env,
      signal: parts.signal,
      readOnlyFolders: run.readOnlyFolders,
      onNotice: (line) => parts.onNotice(`${run.shardId}: ${parts.redact(line)}`),
      ...(instructions ? { instructions } : {})
    });
    return {
      stopReason: outcome.result.stopReason,
      costUsd: outcome.result.costUsd,
      error: outcome.result.error,
      runDir: outcome.runDir
    };
  };
}
