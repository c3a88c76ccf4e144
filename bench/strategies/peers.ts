import { noCompaction } from '../../src/compaction/compactor.js';
import { autoCompactThreshold } from '../../src/compaction/settings.js';
import { defaultCompactor } from '../../src/agent/session.js';
import { ClearToolUses } from '../server-side/clear-tool-uses.js';
import { serverSide } from '../server-side/server-side.js';
import { ThresholdCompaction } from '../server-side/threshold-compaction.js';
import type { Strategy } from './strategy.js';
import { SUMMARIES_ONLY } from './layers.js';

/**
 * The compaction a team would pick instead of ours, each from its own documentation and defaults
 * (pages read 2026-11-26; docs/benchmarks/thinking-and-peers.md, "Peers"). The API's edits run on the server: the client
 * (our loop without compaction) sends its whole history and the bench's server view applies them
 * (server-side/).
 */
/** Claude Code's default window, whatever the model's own (1M needs the `[1m]` model suffix). */
const CLAUDE_CODE_WINDOW = 200_000;

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
    // Claude Code auto-compacts at its effective window minus 13k, the effective window being the
    // window minus min(max output, 20k) (anthropics/claude-code issue #31806, the function as read
    // from the binary; the jojoprison/mnemo v1.2.16 release note gives the same rule; both read
    // 2026-11-26). Its default window is 200k; a 1M window needs the model's `[1m]` suffix
    // (xsyetopz/claudetto wiki "Compaction And Context", Claude Code 2.1.296, read 2026-11-26). So on
    // Sonnet 5.5 by default: 200k - 20k - 13k = 167k. The summary is one request on the whole
    // history, read from the cache while it is warm, and recent files are re-read after it (dev.to
    // "Claude Code /compact: what it costs and what survives", 2026-11-26); ours does both the same
    // way. No per-turn clearing while the cache is warm: its time-based clearing needs an idle gap
    // the bench's 12-second turns never have. Each of its summaries is written whole (its prompt asks
    // for the whole conversation), so ours' anchored updates are off here.
    name: 'peer-claude-code',
    description:
      "Claude Code's auto-compact with its default 200k window: a summary at 167k, files re-read after",
    build: (parts, now) =>
      defaultCompactor(
        parts,
        now,
        {
          summaryUpdates: false,
          thresholdTokens: autoCompactThreshold(CLAUDE_CODE_WINDOW, parts.config.modelSpec.maxOutputTokens)
        },
        { steps: SUMMARIES_ONLY }
      )
  }
];
