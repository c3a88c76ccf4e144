import type { MessageParam, ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages';
import type { AppliedEdit, ServerClearSettings } from '../model/context-editing.js';
import { blocksOf, toolResultText } from './history.js';

/**
 * What the placeholder costs in our estimate. Its wording is not documented (the fake's guess is in
 * test-support/fake-anthropic/context-editing.ts); a wrong size only moves a prediction, which the
 * API's applied_edits then correct.
 */
const PLACEHOLDER_CHARS = 60;
const PLACEHOLDER_TEXT = '[tool result cleared by context management]';

/** Where a block sits: its message and its index among that message's blocks. */
export interface BlockPosition {
  readonly message: number;
  readonly block: number;
}

/** A clear the client expects on one request: the results, oldest first, and where it starts. */
export interface ClearPrediction {
  readonly ids: readonly string[];
  readonly from: BlockPosition;
  /** What the clear frees, by the caller's estimate. */
  readonly freedTokens: number;
}

interface ResultSite extends BlockPosition {
  readonly id: string;
  readonly text: string;
}

/**
 * The client's model of the API's tool-result clearing (context editing, src/model/context-editing.ts).
 * The rule is deterministic and the client knows the settings it sent, so it runs the rule on each
 * request (`predict`) to place a cache breakpoint before the clear; the API's `applied_edits` then
 * say how many results the server really cleared (`settle`), and that count replaces the prediction.
 * The server clears oldest first, so "n results cleared" names them: the first n in tool-use order.
 */
export class ServerClears {
  private readonly cleared = new Set<string>();
  private newlyCleared: string[] = [];
  readonly stats = { predicted: 0, confirmed: 0, corrected: 0, clears: 0 };

  constructor(readonly settings: ServerClearSettings) {}

  /** The history as the server shows it to the model: what it cleared is its placeholder. */
  view(history: readonly MessageParam[]): MessageParam[] {
    if (this.cleared.size === 0) return [...history];
    return history.map((message) => {
      if (message.role !== 'user' || typeof message.content === 'string') return message;
      if (
        !message.content.some((block) => block.type === 'tool_result' && this.cleared.has(block.tool_use_id))
      )
        return message;
      return {
        ...message,
        content: message.content.map((block) =>
          block.type === 'tool_result' && this.cleared.has(block.tool_use_id)
            ? ({ ...block, content: PLACEHOLDER_TEXT } satisfies ToolResultBlockParam)
            : block
        )
      };
    });
  }

  /**
   * The clear the server will make on a request whose view (with the earlier clears applied) counts
   * `viewTokens`: every result outside the kept tool uses, if at least clear_at_least would go.
   */
  predict(
    history: readonly MessageParam[],
    viewTokens: number,
    tokensOfChars: (chars: number) => number
  ): ClearPrediction | undefined {
    if (viewTokens <= this.settings.triggerTokens) return undefined;
    const candidates = this.sites(history, true);
    const first = candidates[0];
    if (first === undefined) return undefined;
    const freed = candidates.reduce(
      (sum, site) => sum + Math.max(0, tokensOfChars(site.text.length) - tokensOfChars(PLACEHOLDER_CHARS)),
      0
    );
    if (freed < this.settings.clearAtLeastTokens) return undefined;
    return {
      ids: candidates.map((site) => site.id),
      from: { message: first.message, block: first.block },
      freedTokens: freed
    };
  }

  /** Where the clear after the known ones will start, whenever it comes: the oldest result not cleared. */
  nextClearStart(history: readonly MessageParam[], also: readonly string[] = []): BlockPosition | undefined {
    const skip = new Set(also);
    const site = this.sites(history, false).find((candidate) => !skip.has(candidate.id));
    return site && { message: site.message, block: site.block };
  }

  /**
   * After the reply: the API's applied_edits for this request. `cleared_tool_uses` counts the results
   * cleared in the request's view, so the first that many results are what the server cleared; the
   * prediction is checked against it and replaced by it.
   */
  settle(
    history: readonly MessageParam[],
    prediction: ClearPrediction | undefined,
    applied: readonly AppliedEdit[]
  ): void {
    const reported = applied.reduce(
      (sum, edit) => sum + (edit.type === 'clear_tool_uses' ? edit.clearedToolUses : 0),
      0
    );
    const inHistory = this.allSites(history);
    const actual = inHistory.slice(0, reported).map((site) => site.id);
    const before = inHistory.filter((site) => this.cleared.has(site.id)).map((site) => site.id);
    const expected = new Set([...before, ...(prediction?.ids ?? [])]);
    if (prediction) this.stats.predicted++;
    const right = expected.size === actual.length && actual.every((id) => expected.has(id));
    if (!right) this.stats.corrected++;
    else if (prediction) this.stats.confirmed++;
    for (const site of inHistory) this.cleared.delete(site.id);
    for (const id of actual) this.cleared.add(id);
    const fresh = actual.filter((id) => !before.includes(id));
    if (fresh.length > 0) {
      this.stats.clears++;
      this.newlyCleared.push(...fresh);
    }
  }

  /** The results the server cleared since the last call (for the work ledger). */
  takeNewlyCleared(): string[] {
    const ids = this.newlyCleared;
    this.newlyCleared = [];
    return ids;
  }

  isCleared(toolUseId: string): boolean {
    return this.cleared.has(toolUseId);
  }

  /** Results not cleared yet, oldest first, outside the kept tool uses when `keepRecent`. */
  private sites(history: readonly MessageParam[], keepRecent: boolean): ResultSite[] {
    const all = this.allSites(history);
    const uses = history.flatMap((message) =>
      message.role === 'assistant' ? blocksOf(message).filter((block) => block.type === 'tool_use') : []
    );
    const kept = new Set(
      keepRecent
        ? uses.slice(-this.settings.keepToolUses).map((use) => (use.type === 'tool_use' ? use.id : ''))
        : []
    );
    return all.filter((site) => !kept.has(site.id) && !this.cleared.has(site.id));
  }

  /** Every tool result in the order of its tool use. */
  private allSites(history: readonly MessageParam[]): ResultSite[] {
    const order: string[] = [];
    const results = new Map<string, ResultSite>();
    history.forEach((message, messageIndex) => {
      blocksOf(message).forEach((block, blockIndex) => {
        if (block.type === 'tool_use') order.push(block.id);
        if (block.type === 'tool_result')
          results.set(block.tool_use_id, {
            id: block.tool_use_id,
            text: toolResultText(block),
            message: messageIndex,
            block: blockIndex
          });
      });
    });
    return order.flatMap((id) => {
      const site = results.get(id);
      return site ? [site] : [];
    });
  }
}
