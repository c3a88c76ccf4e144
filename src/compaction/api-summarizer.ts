import type { MessageParam, TextBlockParam } from '@anthropic-ai/sdk/resources/messages';
import { asContentBlock, compactionBlockOf, type CompactionBlockParam } from '../model/compaction-block.js';
import { addUsage, costUsd, type TokenUsage } from '../model/usage.js';
import { errorMessage } from '../errors/error-message.js';
import type { CompactionLayer } from './compactor.js';
import { withoutDanglingNotes } from './duplicates.js';
import { keptTaskText, taskOf } from './history.js';
import { unseenTurnStart, type RestoredFile } from './rebuild.js';
import type { StepCall } from './steps/step.js';
import { summaryInstruction } from './summary.js';
import { restoreFiles, type Summarizer, type SummarizerDependencies } from './summarizer.js';
import { renderWorkLedger } from './work-ledger.js';

/**
 * The API's on-demand compaction as our summary engine (compaction_engine: api).
 *
 * The compaction request is the request we last sent, unchanged: same system, tools and messages
 * (its prefix is read from the prompt cache), plus `compaction: {type: "summarize"}`; results micro
 * cleared earlier in this call are summarized as they were sent, so a clear never holds it back. The turn the
 * model has not seen yet (its latest reply and the results of its calls) is left out and kept after
 * the block, unchanged, so its thinking stays valid: it follows the summarized messages directly and
 * has the other role (the summarized request ends on a user turn, the kept turn opens with the
 * model's reply). Docs: build-with-claude/compaction-thinking-blocks (read 2026-11-26).
 *
 * Our own parts (the task verbatim, the work ledger, files re-read from disk, where the segment and
 * the transcript are) cannot stand between the block and the kept turn without breaking that
 * thinking, so they go after it: text blocks at the end of the last user message, after its
 * tool results. Nothing is sent before the block (the API refuses a block that is not first).
 *
 * When the API cannot compact (an error, no summary, a request that would not fit), our own
 * summarizer does this compaction instead, with its fallback and circuit breaker.
 */
export class ApiSummarizer {
  private compactions = 0;

  constructor(
    private readonly deps: SummarizerDependencies,
    private readonly client: Summarizer
  ) {}

  async summarize(call: StepCall, layer: CompactionLayer, reason: string, focus?: string): Promise<void> {
    const { run, state, context } = call;
    if (run.history.length < 2) return;
    const started = this.deps.now();
    const before = state.tokensOf(run);
    const split = this.keptFrom(call);
    const summarized = split < run.history.length ? run.received.slice(0, split) : run.history;
    const { settings, meter } = state;
    if (meter.estimateRequest(summarized) + settings.summaryMaxTokens > settings.contextWindow)
      return this.client.summarize(call, layer, `${reason}; too big for the API's compaction request`, focus);

    const request = this.deps.requests.buildCompaction(
      summarized,
      settings.summaryMaxTokens,
      focus ? summaryInstruction(focus) : undefined
    );
    let block: CompactionBlockParam | undefined;
    let usage: TokenUsage | undefined;
    let failure: string | undefined;
    try {
      const reply = await this.deps.model.complete(request, {
        ...(context.signal ? { signal: context.signal } : {}),
        ...(context.onRetry ? { onRetry: context.onRetry } : {})
      });
      run.exchanges.push({ messages: summarized, history: run.history, reply: reply.content });
      usage = reply.usage;
      run.usage = addUsage(run.usage, reply.usage);
      block = reply.content.map(compactionBlockOf).find((b) => b !== undefined);
      // A block with null content is a failed compaction (SDK docs); an empty one is refused later.
      if (!block || !block.content)
        failure = `no summary came back (stop_reason ${reply.stopReason ?? 'none'})`;
    } catch (error) {
      if (context.signal?.aborted) throw context.signal.reason ?? error;
      run.exchanges.push({ messages: summarized, history: run.history, reply: undefined });
      failure = errorMessage(error);
    }
    if (failure !== undefined || !block?.content || !usage)
      return this.client.summarize(call, layer, `${reason}; the API's compaction failed (${failure})`, focus);

    this.compactions++;
    const segment = this.client.saveSegment(run.history);
    const kept = withoutDanglingNotes(keptTurn(run, split), run.history);
    const next = await this.rebuild(call, block, kept, segment);
    run.adoptApiCompaction(next);
    run.changedOldMessages = true;
    state.rebuilt(run.history);
    run.event({
      layer,
      reason: `${reason}; summary by the API (on-demand compaction)`,
      tokens_before: before,
      tokens_after: meter.estimateRequest(next),
      summary_tokens: usage.output,
      summary_cost_usd: costUsd(usage, this.deps.prices),
      duration_ms: this.deps.now() - started,
      segment_path: segment,
      focus: focus ?? null,
      summary: block.content
    });
  }

  /**
   * Where the kept turns start: the unseen turn when there is one that fits, so the summarized part
   * is exactly the request already sent (it ends on a user turn); else nothing is kept.
   */
  private keptFrom({ run, state }: StepCall): number {
    const unseen = unseenTurnStart(
      run.history,
      state.sentCount,
      Math.floor((state.settings.thresholdTokens * 3) / 4),
      (message) => state.meter.estimateMessages([message])
    );
    return unseen ?? run.history.length;
  }

  /** Block first, kept turns unchanged, then our parts at the end of the last user message. */
  private async rebuild(
    { run, state }: StepCall,
    block: CompactionBlockParam,
    kept: readonly MessageParam[],
    segment: string
  ): Promise<MessageParam[]> {
    const { settings, meter } = state;
    const ledger = renderWorkLedger(state.work, await this.deps.store.changedFiles());
    const files = restoreFiles(state, kept, settings.restoreRecentFiles, (path, maxTokens) =>
      this.deps.store.readRecentFile(path, maxTokens, (chars) => meter.estimate(chars))
    );
    const ours = (restored: readonly RestoredFile[]): TextBlockParam[] => [
      { type: 'text', text: keptTaskText(taskOf(run.history)) },
      { type: 'text', text: this.header(segment, run.turn) },
      { type: 'text', text: ledger },
      ...restored.map((file): TextBlockParam => ({
        type: 'text',
        text: `<recent-file path="${file.path}" note="re-read from disk after the compaction">\n${file.text}\n</recent-file>`
      }))
    ];
    const withFiles = withOurParts(
      [{ role: 'assistant', content: [asContentBlock(block)] }, ...kept],
      ours(files)
    );
    // The kept turn cannot be shortened (its thinking would go), so when the result is not well under
    // the threshold the files go, as our summarizer's rebuild does: else the next summary comes soon.
    return files.length > 0 && meter.estimateRequest(withFiles) > settings.thresholdTokens / 2
      ? withOurParts([{ role: 'assistant', content: [asContentBlock(block)] }, ...kept], ours([]))
      : withFiles;
  }

  private header(segment: string, turn: number): string {
    return [
      `<conversation-summary compaction="${this.compactions}" turn="${turn}" by="api">`,
      'Earlier messages were compacted by the API: its summary is the compaction block at the start of the',
      `conversation. Full transcript: ${this.deps.store.transcriptPath}; the history as it was before this`,
      `compaction: ${segment}. Read them with read_file if a detail is missing.`,
      '</conversation-summary>'
    ].join('\n');
  }
}

/** Our parts at the end of the last user message (after its tool results), or as a new user message. */
function withOurParts(start: readonly MessageParam[], parts: TextBlockParam[]): MessageParam[] {
  const history = [...start];
  const last = history.at(-1)!;
  if (last.role !== 'user' || history.length === 1) {
    history.push({
      role: 'user',
      content: [...parts, { type: 'text', text: 'Continue the task from the next step in the summary.' }]
    });
    return history;
  }
  const content =
    typeof last.content === 'string' ? [{ type: 'text' as const, text: last.content }] : last.content;
  history[history.length - 1] = { role: 'user', content: [...content, ...parts] };
  return history;
}

/**
 * The turn kept after the block: the model's reply as it wrote it (its thinking bound to the request
 * summarized, which is the request as sent, before this call's clears) and its results as this call
 * left them (spilled or pointed at an earlier copy; no step clears a result the model has not read).
 */
function keptTurn(run: StepCall['run'], split: number): MessageParam[] {
  if (split >= run.history.length) return [];
  return [run.received[split]!, ...run.history.slice(split + 1)];
}
