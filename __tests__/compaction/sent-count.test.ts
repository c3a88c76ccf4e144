/**
 * Where the sent history ends has one owner, the token meter: the state's steps (spill, micro,
 * duplicates, the summary's unseen turn) read the same count, so they cannot disagree with the
 * measurement about which messages the model has already seen.
 */
import { CompactionState } from '../../src/compaction/compaction-state.js';
import { compactionSettings } from '../../src/compaction/settings.js';
import { codeText, user } from '../support/history-builders.js';

const state = () =>
  new CompactionState(compactionSettings({ contextWindow: 100_000, maxOutputTokens: 4000 }), 0);

it('what the meter records as sent is what the steps read as sent', () => {
  const compaction = state();
  const history = [user('Fix the parser.'), user(codeText(2_000)), user(codeText(2_000))];
  compaction.meter.recordSent(history, 0);
  expect(compaction.sentCount).toBe(3);
  expect(compaction.meter.sentCount).toBe(3);
});

it('a rebuilt history has nothing sent, for the meter and the steps alike', () => {
  const compaction = state();
  const history = [user('Fix the parser.'), user(codeText(2_000))];
  compaction.meter.recordSent(history, 0);
  compaction.rebuilt([user('Fix the parser.')]);
  expect(compaction.sentCount).toBe(0);
  expect(compaction.meter.sentCount).toBe(0);
});
