/** What the runner tells the action through its environment, read in one place. */
export interface RunnerEnv {
  readonly eventName: string;
  readonly eventPath: string | undefined;
  readonly repository: { readonly owner: string; readonly name: string } | undefined;
  readonly runId: string;
  readonly runAttempt: string;
  readonly serverUrl: string;
  readonly apiUrl: string | undefined;
  readonly workspace: string;
}

export function readRunnerEnv(env: NodeJS.ProcessEnv): RunnerEnv {
  const [owner, name] = (env.GITHUB_REPOSITORY ?? '').split('/');
  return {
    eventName: env.GITHUB_EVENT_NAME ?? 'workflow_dispatch',
    eventPath: env.GITHUB_EVENT_PATH || undefined,
    repository: owner && name ? { owner, name } : undefined,
    runId: env.GITHUB_RUN_ID ?? `local-${Date.now()}`,
    runAttempt: env.GITHUB_RUN_ATTEMPT ?? '1',
    serverUrl: env.GITHUB_SERVER_URL ?? 'https://github.com',
    apiUrl: env.GITHUB_API_URL || undefined,
    workspace: env.GITHUB_WORKSPACE ?? process.cwd()
  };
}

export function runUrl(runner: RunnerEnv): string {
  const repository = runner.repository
    ? `${runner.repository.owner}/${runner.repository.name}`
    : 'unknown/unknown';
  return `${runner.serverUrl}/${repository}/actions/runs/${runner.runId}`;
}
