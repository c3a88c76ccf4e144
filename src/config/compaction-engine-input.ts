/**
 * The `compaction_engine` input (`--compaction-engine`): who writes the summary of auto and manual
 * compaction.
 * - `client`: our summarizer (a normal request on the cached prefix, then our rebuild);
 * - `api`: the API's on-demand compaction (beta compact-2026-09-04), which keeps the thinking of the
 *   turns kept after its block (src/compaction/api-summarizer.ts);
 * - `auto`: `api` where the Models API says the model supports it on the Claude API, `client`
 *   elsewhere (src/compaction/engine-choice.ts).
 */
export const COMPACTION_ENGINES = ['client', 'api', 'auto'] as const;
export type CompactionEngineChoice = (typeof COMPACTION_ENGINES)[number];

/** Empty takes `fallback`; anything else must be one of the engines (case-insensitive). */
export function parseCompactionEngine(
  raw: string,
  shown: string,
  fallback: CompactionEngineChoice,
  problems: string[]
): CompactionEngineChoice {
  const value = raw.trim().toLowerCase();
  if (value === '') return fallback;
  const engine = COMPACTION_ENGINES.find((name) => name === value);
  if (engine) return engine;
  problems.push(
    `${shown} must be client (our summarizer), api (the API's on-demand compaction) or auto ` +
      `(the API's where the model supports it), got "${raw.trim()}".`
  );
  return fallback;
}
