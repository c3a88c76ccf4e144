import { toolExchangesFrom } from '../history.js';
import type { ServerClears } from '../server-clears.js';
import { clearedResultsNote } from '../work-ledger.js';
import type { CompactionStep, StepCall } from './step.js';

/**
 * When the API cleared tool results (its applied_edits, settled by ServerClears), before the next
 * request: the facts the work ledger keeps from them (failed commands and where they failed) go into
 * the newest user message, which is not sent yet, so no prefix changes and no thinking is invalidated.
 * Our summaries rebuild the whole ledger as before; this carries it between them, as the server clears.
 */
export function serverClearStep(clears: ServerClears): CompactionStep {
  return {
    name: 'server-clear',
    appliesTo: (trigger) => trigger.kind === 'before_request',
    run({ run, state }: StepCall) {
      const ids = clears.takeNewlyCleared();
      if (ids.length === 0) return;
      const cleared = new Set(ids);
      const exchanges = toolExchangesFrom(run.history, 0).filter(({ use }) => cleared.has(use.id));
      const chars = exchanges.reduce(
        (sum, { result }) => sum + JSON.stringify(result.content ?? '').length,
        0
      );
      const note = clearedResultsNote(exchanges, cleared);
      const last = run.history.length - 1;
      const newest = run.history[last];
      if (note !== undefined && newest?.role === 'user' && last >= state.sentCount) {
        const content =
          typeof newest.content === 'string'
            ? [{ type: 'text' as const, text: newest.content }]
            : newest.content;
        const history = [...run.history];
        history[last] = { ...newest, content: [...content, { type: 'text', text: note }] };
        run.edit(history, last);
      }
      run.event({
        layer: 'micro',
        reason: `the API cleared ${ids.length} tool result(s) (context editing, applied_edits)${note ? '; the failures among them were noted in the work ledger' : ''}`,
        tokens_before: state.meter.estimate(chars),
        tokens_after: state.meter.estimate(60 * exchanges.length),
        results_cleared: ids.length,
        tool_use_ids: ids
      });
    }
  };
}
