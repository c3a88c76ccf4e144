import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import type { CompactionRun } from './compaction-run.js';
import { withLowerWindow, type CompactionSettings } from './settings.js';
import { TokenMeter } from './token-meter.js';
import { emptyWorkLedger, type WorkLedger } from './work-ledger.js';

/**
 * What the steps share across calls: the settings (replaced, never mutated, when the API reports a
 * smaller window), the token meter (which knows where the sent history ends) and the work ledger.
 * A rebuild bumps `generation`: positions recorded before it (a step's index into the history) are void.
 */
export class CompactionState {
  readonly meter: TokenMeter;
  readonly work: WorkLedger = emptyWorkLedger();
  lastRequestAt: number | undefined;
  generation = 0;

  /**
   * The history as the model will read it: as it is, or with the results the API cleared as their
   * placeholder (context editing), so the estimate counts the view the server keeps.
   */
  readonly view: (history: readonly MessageParam[]) => readonly MessageParam[];

  constructor(
    public settings: CompactionSettings,
    prefixChars: number,
    view?: (history: readonly MessageParam[]) => readonly MessageParam[]
  ) {
    this.view = view ?? ((history) => history);
    this.meter = new TokenMeter(prefixChars);
  }

  /** Where the sent history ends, as the meter recorded it (the meter owns it: one count, not two). */
  get sentCount(): number {
    return this.meter.sentCount;
  }

  /** The API knows the real window: a gateway or a model may allow less than the catalogue says. */
  lowerWindow(maximumTokens: number): void {
    this.settings = withLowerWindow(this.settings, maximumTokens);
  }

  /** Measured plus estimated, unless a sent message changed in this call: then all of it is estimated. */
  tokensOf(run: CompactionRun): number {
    const seen = this.view(run.history);
    return run.changedOldMessages ? this.meter.estimateRequest(seen) : this.meter.contextTokens(seen);
  }

  /** The history was rebuilt: every position and measurement made on the old one is void. */
  rebuilt(history: readonly MessageParam[]): void {
    this.generation++;
    this.work.indexedUpTo = history.length;
    this.meter.forget();
  }
}
