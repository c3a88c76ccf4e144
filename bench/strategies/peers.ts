import { noCompaction } from '../../src/compaction/compactor.js';
import { autoCompactThreshold } from '../../src/compaction/settings.js';
import { defaultCompactor } from '../../src/agent/session.js';
import { ClearToolUses } from '../server-side/clear-tool-uses.js';
import { serverSide } from '../server-side/server-side.js';
import { ThresholdCompaction } from '../server-side/threshold-compaction.js';
import type { Strategy } from './index.js';

/**
 * The compaction a team would pick instead of ours, each from its own documentation and defaults
 * (pages read 2026-11-26; BENCHMARKS.md, "Peers"). The API's edits run on the server: the client
 * (our loop without compaction) sends its whole history and the bench's server view applies them
 * (server-side/).
 */
export const PEER_STRATEGIES: readonly Strategy[] = [
  {
    name: 'peer-api-threshold',
    description:
      'the API compacts at a token threshold (compact_20260112, trigger 150k): https://platform.claude.com/docs/en/build-with-claude/compaction-threshold',
    build: () => noCompaction,
    serverSide: () => serverSide(new ThresholdCompaction())
  },
  {
    name: 'peer-api-clear',
    description:
      'the API clears old tool results (clear_tool_uses_20250919: trigger 100k, keep 3): https://platform.claude.com/docs/en/build-with-claude/context-editing',
    build: () => noCompaction,
    serverSide: () => serverSide(new ClearToolUses())
  },
  {
    // The context-editing page points at server-side compaction as the primary strategy and lets
    // edits run together; clearing first keeps the context under the compaction trigger longer.
    name: 'peer-api-clear-compact',
    description: 'the API clears tool results (defaults) and compacts at its threshold (defaults), both on',
    build: () => noCompaction,
    serverSide: () => serverSide(new ClearToolUses(), new ThresholdCompaction())
  },
  {
    // Claude Code auto-compacts near the end of the window: context window - min(max output, 20k)
    // - 13k, about 967k tokens on a 1M-window model (dev.to "Claude Code /compact: what it costs
    // and what survives", quoting Claude Code's prompt-caching docs, read 2026-11-26; the same rule
    // in compaction.md). The summary is one request on the whole history, read from the cache while
    // it is warm, and it re-reads recent files after it; it has no per-turn clearing while the cache
    // is warm (its time-based clearing needs an idle gap the bench's 12-second turns never have).
    name: 'peer-claude-code',
    description:
      "Claude Code's auto-compact: summary near the window's end (967k on 1M), files re-read after",
    build: (parts, now) =>
      defaultCompactor(parts, now, {
        layers: { micro: false, auto: true },
        thresholdTokens: autoCompactThreshold(
          parts.config.modelSpec.contextWindow,
          parts.config.modelSpec.maxOutputTokens
        )
      })
  }
];
