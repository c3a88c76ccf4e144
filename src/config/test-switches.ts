import type { WritePaceLimits } from '../github/api/paced-writes.js';

/**
 * Every switch the test runner sets in the action's environment, in one place. Each is honoured only
 * when the GitHub API is a loopback IP literal: a fake on the runner itself, never GitHub. The runner
 * sets GITHUB_API_URL to api.github.com or the GHES host, and neither the repository's files nor the
 * agent's shell (a child of the action) can change the action's own environment, so a workflow can
 * neither make the action hammer GitHub nor poll it faster through them. Only IP literals count, not
 * "localhost": a shell with sudo could point that name anywhere through /etc/hosts.
 */

/**
 * Asks for GitHub writes without the throttling plugin's spacing (one write a second, one notifying
 * write every 3 s, GitHub's advice against secondary rate limits): every spawned-action test would
 * otherwise wait seconds on its loopback fake for nothing.
 */
export const UNSPACED_LOOPBACK_WRITES_VARIABLE = 'COMPACT_AGENT_UNSPACED_LOOPBACK_WRITES';
/** The least time between two paced GitHub writes (a fan-out's land role), in ms: a loopback fake's own limit. */
export const WRITE_GAP_MS_VARIABLE = 'COMPACT_AGENT_WRITE_GAP_MS';
/** Shorten how often a queued run looks at the runs before it, and how long it waits for them. */
export const QUEUE_POLL_MS_VARIABLE = 'COMPACT_AGENT_QUEUE_POLL_MS';
export const QUEUE_MAX_WAIT_MS_VARIABLE = 'COMPACT_AGENT_QUEUE_MAX_WAIT_MS';

/** An IP-literal loopback URL (127.0.0.0/8 or [::1]): a fake on the runner itself, never GitHub. */
export function isLoopbackIpUrl(url: string | undefined): boolean {
  if (url === undefined || !URL.canParse(url)) return false;
  const { hostname } = new URL(url);
  return /^127(?:\.\d{1,3}){3}$/.test(hostname) || hostname === '[::1]';
}

/** Whether the GitHub client spaces its writes: always, unless asked for a loopback API. */
export function spacesWrites(apiUrl: string | undefined, env: NodeJS.ProcessEnv): boolean {
  return !(env[UNSPACED_LOOPBACK_WRITES_VARIABLE] === '1' && isLoopbackIpUrl(apiUrl));
}

/** How long a queued run waits for the runs before it on its thread, and how often it looks. */
export interface QueueTiming {
  readonly pollMs: number;
  readonly maxWaitMs: number;
}

/** The queue's timing: `production`, shortened by the test runner's switches against a loopback API. */
export function queueTimingFor(
  apiUrl: string | undefined,
  env: NodeJS.ProcessEnv,
  production: QueueTiming
): QueueTiming {
  if (!isLoopbackIpUrl(apiUrl)) return production;
  const shortened = (name: string, fallback: number) => {
    const value = Number(env[name]);
    return Number.isSafeInteger(value) && value > 0 ? value : fallback;
  };
  return {
    pollMs: shortened(QUEUE_POLL_MS_VARIABLE, production.pollMs),
    maxWaitMs: shortened(QUEUE_MAX_WAIT_MS_VARIABLE, production.maxWaitMs)
  };
}

/**
 * The write pacer's limits (src/github/api/paced-writes.ts): GitHub's, with the gap between writes
 * shortened by the test runner's switch only against a loopback API (whose fake then refuses writes
 * closer than that gap, as GitHub refuses closer than a second).
 */
export function writePaceFor(
  apiUrl: string | undefined,
  env: NodeJS.ProcessEnv,
  production: WritePaceLimits
): WritePaceLimits {
  if (!isLoopbackIpUrl(apiUrl)) return production;
  const gap = Number(env[WRITE_GAP_MS_VARIABLE]);
  return Number.isSafeInteger(gap) && gap > 0 ? { ...production, minGapMs: gap } : production;
}
