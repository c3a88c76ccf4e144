/** Why a run ended. `success` is the model's own end_turn; every other reason is a limit or a failure. */
export type StopReason =
  'success' | 'error_max_turns' | 'error_timeout' | 'error_max_budget_usd' | 'error_during_execution';
