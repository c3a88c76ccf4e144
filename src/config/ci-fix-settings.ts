import { parseBooleanInput } from './boolean-input.js';
import type { InputReader } from './inputs.js';

/** The config file's `ci_fix:` block (config-file-keys.ts): how far a CI fix may go on one pull request. */
export interface CiFixSettings {
  /** A pull request the action did not open is fixed only when it carries this label. */
  readonly label: string;
  /** Fix runs per pull request; 0 turns CI fixing off (a re-run of flaky jobs still happens). */
  readonly maxAttempts: number;
  /** Re-run the failed jobs once before any model run: a flaky failure then costs nothing. */
  readonly rerunFirst: boolean;
}

export const CI_FIX_DEFAULTS: CiFixSettings = { label: 'agent-fix-ci', maxAttempts: 2, rerunFirst: true };

export function readCiFixSettings(read: InputReader, problems: string[]): CiFixSettings {
  const rawAttempts = read('ci_fix_max_attempts').trim();
  const attempts = rawAttempts === '' ? CI_FIX_DEFAULTS.maxAttempts : Number(rawAttempts);
  if (!Number.isInteger(attempts) || attempts < 0)
    problems.push(
      `ci_fix.max_attempts must be a whole number, 0 or more (0 turns CI fixing off), got "${rawAttempts}".`
    );
  const label = read('ci_fix_label').trim() || CI_FIX_DEFAULTS.label;
  return {
    label,
    maxAttempts: Number.isInteger(attempts) && attempts >= 0 ? attempts : CI_FIX_DEFAULTS.maxAttempts,
    rerunFirst:
      parseBooleanInput(
        read('ci_fix_rerun_first'),
        'ci_fix.rerun_first',
        CI_FIX_DEFAULTS.rerunFirst,
        problems
      ) ?? CI_FIX_DEFAULTS.rerunFirst
  };
}
