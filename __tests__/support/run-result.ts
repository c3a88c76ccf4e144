import type { RunResult } from '../../src/agent/run-result.js';

/** A finished run for report and publishing tests: a short success on Sonnet 5.5; override what matters. */
export function runResult(overrides: Partial<RunResult> = {}): RunResult {
  return {
    model: {
      id: 'claude-sonnet-5-5',
      name: 'Claude Sonnet 5.5',
      pricedSince: '2026-10-07',
      checkedOn: '2026-11-23'
    },
    stopReason: 'success',
    turns: 3,
    usage: { input: 10, cacheWrite: 0, cacheRead: 0, output: 5 },
    costUsd: 0.01,
    durationMs: 5000,
    summary: 'Fixed it.',
    error: undefined,
    cancelled: false,
    contextTokensPerTurn: [100, 200],
    compactionLog: [],
    compactionThresholdTokens: 40_000,
    history: [],
    ...overrides
  };
}
