import {
  CATALOGUE_CHECKED_ON,
  findModel,
  MODEL_CATALOGUE,
  type CatalogueRow,
  type PriceBand,
  type PriceSheet,
  type RefusedParameters
} from './model-catalog.js';
import { PROVIDER_NAMES, servesModel, type ProviderKind } from './provider-models.js';

/** Prices in USD per million tokens, with the band that applies to long prompts and the price date. */
export interface ModelPrices extends PriceSheet {
  readonly longPromptBand?: PriceBand;
  /** When these prices took effect; undefined when they came from inputs. */
  readonly pricedSince: string | undefined;
}

/** What the run needs to know about its model: the catalogue row, with any overrides applied. */
export interface ModelSpec {
  readonly id: string;
  readonly name: string;
  readonly contextWindow: number;
  readonly maxOutputTokens: number;
  readonly prices: ModelPrices;
  readonly minCacheableTokens: number;
  readonly thinking: CatalogueRow['thinking'];
  readonly refuses: RefusedParameters;
  /** Names of the inputs that replaced a catalogue value (negotiated rates, a gateway's window). */
  readonly overridden: readonly string[];
}

export const DEFAULT_MODEL = 'claude-sonnet-5-5';

/** Overrides from inputs; any field left out comes from the catalogue. */
export interface ModelSpecOverrides {
  readonly contextWindow?: number;
  readonly maxOutputTokens?: number;
  readonly inputPerMTok?: number;
  readonly outputPerMTok?: number;
  readonly cacheWritePerMTok?: number;
  readonly cacheWrite1hPerMTok?: number;
  readonly cacheReadPerMTok?: number;
}

const OVERRIDE_INPUTS: Record<keyof ModelSpecOverrides, string> = {
  contextWindow: 'context_window',
  maxOutputTokens: 'max_output_tokens',
  inputPerMTok: 'input_price_per_mtok',
  outputPerMTok: 'output_price_per_mtok',
  cacheWritePerMTok: 'cache_write_price_per_mtok',
  cacheWrite1hPerMTok: 'cache_write_1h_price_per_mtok',
  cacheReadPerMTok: 'cache_read_price_per_mtok'
};

/** An id of each cloud that contains a catalogue id, as the cloud spells them (an inference profile, a version). */
const CLOUD_ID_EXAMPLES: Readonly<Record<Exclude<ProviderKind, 'anthropic'>, string>> = {
  bedrock: 'global.anthropic.claude-sonnet-5-5',
  vertex: 'claude-sonnet-4-5@20250929'
};

/**
 * The one text for a model the catalogue does not list, whichever way it was asked for: `nameOf`
 * spells each input as the person sets it (`context_window` in a workflow, `--context-window` on the
 * command line), and on a cloud the id was passed through, so the text says so and names the ids that
 * cloud would have priced.
 */
export function unknownModelMessage(
  model: string,
  nameOf: (input: string) => string = (input) => input,
  provider: ProviderKind = 'anthropic'
): string {
  const current = MODEL_CATALOGUE.filter(
    (row) => row.status === 'current' && servesModel(provider, row.id)
  ).map((row) => row.id);
  const [contextWindow, input, output, cacheWrite, cacheWrite1h, cacheRead] = (
    [
      'contextWindow',
      'inputPerMTok',
      'outputPerMTok',
      'cacheWritePerMTok',
      'cacheWrite1hPerMTok',
      'cacheReadPerMTok'
    ] as const
  ).map((key) => nameOf(OVERRIDE_INPUTS[key]));
  const what =
    provider === 'anthropic'
      ? `its context window and prices are not in the model catalogue (checked ${CATALOGUE_CHECKED_ON}).`
      : `it is passed to ${PROVIDER_NAMES[provider]} as given, but it names no model of the catalogue ` +
        `(checked ${CATALOGUE_CHECKED_ON}), so its context window and prices are unknown.`;
  const known =
    `Use a known model (current: ${current.join(', ')})` +
    (provider === 'anthropic' ? '' : ` or an id that contains one (e.g. ${CLOUD_ID_EXAMPLES[provider]})`);
  return (
    `Unknown model "${model}": ${what} ${known}, or describe this one with ${contextWindow}, ${input} and ` +
    `${output} (optionally ${cacheWrite}, ${cacheWrite1h} and ${cacheRead}; without them, cache prices are ` +
    `derived as 1.25x, 2x and 0.1x of input).`
  );
}

export class UnknownModelError extends Error {
  constructor(readonly model: string) {
    super(unknownModelMessage(model));
    this.name = 'UnknownModelError';
  }
}

/**
 * The unknown model's defaults: what the API documents for most models (writes 1.25x and 2x input,
 * reads 0.1x), and the strictest request rules, which cost nothing to follow.
 */
function unknownRow(model: string, overrides: ModelSpecOverrides): CatalogueRow | undefined {
  const { contextWindow, inputPerMTok: input, outputPerMTok: output } = overrides;
  if (contextWindow === undefined || input === undefined || output === undefined) return undefined;
  return {
    id: model,
    aliases: [],
    name: model,
    status: 'current',
    contextWindow,
    maxOutputTokens: 16_384,
    prices: {
      inputPerMTok: input,
      outputPerMTok: output,
      cacheWritePerMTok: input * 1.25,
      cacheWrite1hPerMTok: input * 2,
      cacheReadPerMTok: input * 0.1
    },
    pricedSince: '',
    minCacheableTokens: 1024,
    // No thinking field for a model we know nothing of (a gateway may refuse it); thinking it still
    // sends back is stripped after edits, which costs nothing when there is none.
    thinking: { mode: 'manual', boundToConversation: true, efforts: [] },
    refuses: {
      forcedToolChoice: true,
      prefill: true,
      manualThinking: true,
      disabledThinking: true,
      samplingParameters: true
    },
    source: 'inputs',
    checkedOn: ''
  };
}

/** The catalogue row of `model` with the overrides applied; throws UnknownModelError before any call. */
export function resolveModelSpec(model: string, overrides: ModelSpecOverrides = {}): ModelSpec {
  const row = findModel(model) ?? unknownRow(model, overrides);
  if (!row) throw new UnknownModelError(model);
  const overridden = (Object.keys(OVERRIDE_INPUTS) as (keyof ModelSpecOverrides)[])
    .filter((key) => overrides[key] !== undefined)
    .map((key) => OVERRIDE_INPUTS[key]);
  const priceOverridden = overridden.some((name) => name.includes('price'));
  const prices: PriceSheet = {
    inputPerMTok: overrides.inputPerMTok ?? row.prices.inputPerMTok,
    outputPerMTok: overrides.outputPerMTok ?? row.prices.outputPerMTok,
    cacheWritePerMTok: overrides.cacheWritePerMTok ?? row.prices.cacheWritePerMTok,
    cacheWrite1hPerMTok: overrides.cacheWrite1hPerMTok ?? row.prices.cacheWrite1hPerMTok,
    cacheReadPerMTok: overrides.cacheReadPerMTok ?? row.prices.cacheReadPerMTok
  };
  return {
    id: row.id,
    name: row.name,
    contextWindow: overrides.contextWindow ?? row.contextWindow,
    maxOutputTokens: overrides.maxOutputTokens ?? row.maxOutputTokens,
    prices: {
      ...prices,
      // A negotiated rate replaces the list prices, bands included.
      ...(row.longPromptBand && !priceOverridden ? { longPromptBand: row.longPromptBand } : {}),
      pricedSince: priceOverridden || row.pricedSince === '' ? undefined : row.pricedSince
    },
    minCacheableTokens: row.minCacheableTokens,
    thinking: row.thinking,
    refuses: row.refuses,
    overridden
  };
}
