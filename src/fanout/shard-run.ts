import type { GitRepository } from '../git/repository.js';
import { errorMessage } from '../errors/error-message.js';
import type { FanoutManifest, ManifestShard } from './manifest.js';
import type { ShardAgent, ShardAgentOutcome } from './shard-agent.js';
import type { ShardResult } from './shard-result.js';
import { retryTask, shardTask } from './shard-task.js';
import { openShardRepository, type ShardRepository } from './shard-repository.js';
import { runValidation, type ValidationRunner } from './validation.js';
import { guardedChanges, type GuardedChanges } from './worktree-changes.js';

export interface ShardRunOptions {
  readonly repo: GitRepository;
  readonly base: string;
  readonly manifest: FanoutManifest;
  readonly shard: ManifestShard;
  /** This attempt's share of the cap: every agent run of the shard (retries included) spends from it. */
  readonly budgetUsd: number;
  readonly agent: ShardAgent;
  readonly transcriptsDir: string;
  readonly validation: ValidationRunner;
  readonly validationTimeoutMs: number;
  readonly signal: AbortSignal;
  /** Called after each agent run with what it cost: the ledger counts spend even if the shard later fails. */
  readonly onSpend: (costUsd: number, runDir: string) => void;
}

/** A shard whose box wrote a redirecting file in its `.git`: its change is not taken. */
class ShardRedirectedError extends Error {
  constructor(what: string, problem: string) {
    super(
      `The shard's ${what} redirected its repository's git (${problem}), so its change is not taken: such a ` +
        "file sends git to another folder's objects, settings or files. The transcript shows which command " +
        'did it; change the prompt or the validation command, then resume.'
    );
    this.name = 'ShardRedirectedError';
  }
}

/**
 * One shard, start to result, in its own repository at the base (openShardRepository): the agent,
 * the scope guard, then the validation command; a failing validation gives the agent its errors and
 * another try, while retries and budget last. After each boxed program the shard's `.git` is checked
 * for files that redirect git; one found fails the shard. The folder is removed afterwards; the
 * result carries the patch.
 */
export async function runShard(options: ShardRunOptions): Promise<ShardResult> {
  const { shard, manifest } = options;
  let worktree: ShardRepository | undefined;
  const runs: string[] = [];
  let spent = 0;
  let outcome: ShardAgentOutcome | undefined;
  let changes: GuardedChanges | undefined;
  const refused = new Set<string>();
  let validation: ShardResult['validation'];
  const firstTask = shardTask(manifest.prompt, shard, manifest.shards.length);
  try {
    worktree = await openShardRepository(options.repo, options.base, shard.id);
    const checkRedirection = (what: string) => {
      const problem = worktree!.redirection();
      if (problem !== undefined) throw new ShardRedirectedError(what, problem);
    };
    let task = firstTask;
    for (let attempt = 1; ; attempt++) {
      outcome = await options.agent({
        shardId: shard.id,
        task,
        workdir: worktree.root,
        budgetUsd: Math.max(0, options.budgetUsd - spent),
        transcriptsDir: options.transcriptsDir,
        readOnlyFolders: worktree.sharedObjects
      });
      spent += outcome.costUsd;
      runs.push(outcome.runDir);
      options.onSpend(outcome.costUsd, outcome.runDir);
      checkRedirection('agent');
      changes = await guardedChanges(worktree.git, options.base, shard.paths);
      for (const file of changes.refused) refused.add(file);
      const command = manifest.validationCommand;
      if (outcome.stopReason !== 'success' || command === undefined) break;
      const check = await runValidation(
        command,
        worktree.root,
        options.validation,
        options.validationTimeoutMs,
        options.signal,
        worktree.sharedObjects
      );
      checkRedirection('validation command');
      validation = {
        command,
        passed: check.passed,
        attempts: attempt,
        ...(check.passed ? {} : { lastFailure: check.output })
      };
      if (check.passed || attempt > manifest.validationRetries || spent >= options.budgetUsd) break;
      task = retryTask(firstTask, command, check.output);
    }
  } catch (error) {
    return result(options, {
      status: 'failed',
      stopReason: error instanceof ShardRedirectedError ? 'repository_redirected' : 'error_during_execution',
      error: errorMessage(error).slice(0, 4000),
      spent,
      runs,
      changes,
      refused,
      validation
    });
  } finally {
    await worktree?.close();
  }
  const stopReason = outcome!.stopReason;
  const status =
    stopReason === 'error_max_budget_usd'
      ? 'over-budget'
      : stopReason !== 'success' || validation?.passed === false
        ? 'failed'
        : 'done';
  return result(options, {
    status,
    stopReason: validation?.passed === false ? 'validation_failed' : stopReason,
    error: outcome!.error?.slice(0, 4000),
    spent,
    runs,
    changes,
    refused,
    validation
  });
}

function result(
  options: ShardRunOptions,
  parts: {
    status: ShardResult['status'];
    stopReason: string;
    error: string | undefined;
    spent: number;
    runs: string[];
    changes: GuardedChanges | undefined;
    refused: ReadonlySet<string>;
    validation: ShardResult['validation'];
  }
): ShardResult {
  return {
    shardId: options.shard.id,
    planId: options.manifest.planId,
    status: parts.status,
    base: options.base,
    costUsd: parts.spent,
    budgetUsd: options.budgetUsd,
    stopReason: parts.stopReason,
    ...(parts.error ? { error: parts.error } : {}),
    files: [...(parts.changes?.files ?? [])],
    refusedPaths: [...parts.refused].sort(),
    ...(parts.validation ? { validation: parts.validation } : {}),
    runs: parts.runs,
    // A failed shard's partial change is kept for inspection; only `done` shards are landed.
    patch: parts.changes?.patch ?? ''
  };
}
