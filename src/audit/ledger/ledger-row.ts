import type { UsageRecord } from '../../transcript/events.js';

/**
 * What the audit found of a run's record: `intact` (the artifact's hash chain holds and ends at the
 * head its report published, and the report's cost is the transcript's), `unverified` (the chain
 * holds, but no report of the agent's workflow vouches for where it ends, or the run could not be
 * checked against that workflow: `detail` says which), `tampered` (the chain breaks, or ends
 * elsewhere, or two reports carry the run's state, or the report's cost is not the transcript's:
 * `detail` says which),
 * `expired` (GitHub deleted the artifact at the end of its retention: the row keeps what the report
 * holds), `missing` (no artifact: never uploaded, or deleted), `unreadable` (GitHub or the zip could
 * not be read: `detail` says why).
 */
export const VERDICTS = ['intact', 'unverified', 'tampered', 'expired', 'missing', 'unreadable'] as const;
export type Verdict = (typeof VERDICTS)[number];

/**
 * The kinds of run the ledger names; `unknown` when neither the report nor the transcript says. A
 * CI fix runs in fix mode: its report's own section tells it apart (cifix/ci-fix-report.ts).
 */
export type RunKindName = 'fix' | 'ci-fix' | 'plan' | 'review' | 'unknown';

/** One run of the agent: who asked, what it did and cost, and whether its record holds. */
export interface LedgerRow {
  /** The workflow run's id, and the attempt when known (`123-1`). */
  readonly runId: string;
  readonly runUrl: string;
  /** When the run reported (or its artifact was made), ISO 8601. */
  readonly time: string | undefined;
  readonly thread: number | undefined;
  readonly threadUrl: string | undefined;
  readonly reportUrl: string | undefined;
  readonly requester: string | undefined;
  readonly kind: RunKindName;
  /** How the run ended: the transcript's stop reason, else the report's status line. */
  readonly outcome: string | undefined;
  readonly pullRequest: number | undefined;
  readonly turns: number | undefined;
  readonly usage: UsageRecord | undefined;
  /** What the run cost: its report's figure when there is one, else its transcript's. */
  readonly costUsd: number | undefined;
  /** Tool name and calls. */
  readonly tools: readonly { readonly name: string; readonly calls: number }[];
  /** Commands the tool limits refused: the rule and the command's first words. */
  readonly deniedCommands: readonly string[];
  /** Hosts the sandbox's proxy refused, `host:port`. */
  readonly refusedHosts: readonly string[];
  readonly filesChanged: readonly string[];
  readonly verdict: Verdict;
  /** Why the verdict: where the chain breaks, why it could not be read, or what was checked. */
  readonly detail: string;
  /** The head the report published (undefined: no report, or one from before heads were published). */
  readonly publishedHead: string | undefined;
}
