/**
 * What the GitHub Actions runner always sets for a JavaScript action, and the action cannot do
 * without: which event woke it, the event's payload, and the checkout to work in. Run by hand (node
 * dist/index.js), none is set, and the action would otherwise guess and report a misleading "skipped".
 */
export const RUNNER_VARIABLES = ['GITHUB_EVENT_NAME', 'GITHUB_EVENT_PATH', 'GITHUB_WORKSPACE'] as const;

export function missingRunnerVariables(env: NodeJS.ProcessEnv): string[] {
  return RUNNER_VARIABLES.filter((name) => !env[name]?.trim());
}

/** One paragraph for a person who started the action's entry point outside a workflow. */
export function outsideActionsMessage(missing: readonly string[]): string {
  return (
    `compact-agent's action entry (dist/index.js) runs inside a GitHub Actions workflow, and ` +
    `${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} not set, so this is not one. ` +
    'Use it from a workflow with uses: compact-agent/compact-agent@v0 (see docs/setup.md), or run the agent ' +
    'locally with the CLI: npx compact-agent run --repo . --prompt "..." (compact-agent help).'
  );
}
