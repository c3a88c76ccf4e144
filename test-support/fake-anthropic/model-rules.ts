/**
 * Per-model request rules, read from the model catalogue (src/config/model-catalog.ts): which model
 * ids exist, and which settings a model answers with a 400. Pure: no I/O, no server state.
 *
 * Sources: https://platform.claude.com/docs/en/models/sonnet-5-5/migration-guide ("five settings
 * that return a 400 error: thinking budgets, sampling parameters, assistant prefill, forced tool
 * choice, and thinking: {"type": "disabled"}"; Sonnet 5.5 accepts thinking.type "adaptive" and
 * "between_tools") and https://platform.claude.com/docs/en/build-with-claude/preserved-thinking.
 * Only the unknown-model text and the thinking-binding text were observed; the others are guesses
 * in the API's style, marked below.
 */
import { findModel, type CatalogueRow, type Effort } from '../../src/config/model-catalog.js';
import { THINKING_BINDING_BETA } from './thinking-binding.js';
import type { ParsedRequest, RejectionKind } from './types.js';
import { isJsonObject, SAMPLING_PARAMS } from './validate.js';

/** Models whose docs accept `thinking: {type: "between_tools"}` (the Sonnet 5.5 migration guide). */
export const BETWEEN_TOOLS_MODELS: ReadonlySet<string> = new Set(['claude-sonnet-5-5']);
const ALL_EFFORTS: readonly Effort[] = ['low', 'medium', 'high', 'xhigh', 'max'];

export const modelErrorText = {
  // observed (404 not_found_error)
  unknownModel: (model: string): string => `model: ${model}`,
  // observed (protocols.md, the preserved-thinking docs)
  thinkingBinding: (messageIndex: number, blockIndex: number): string =>
    `messages.${messageIndex}.content.${blockIndex}: Invalid \`signature\` in \`thinking\` block. The block is bound to a different conversation. Remove the block, or set \`thinking.block_binding.prefix_mismatch_behavior\` to "drop_block".`,
  // guesses: the real wording was not found; each names the setting, the model and the way out
  forcedToolChoice: (model: string, type: string): string =>
    `tool_choice: \`tool_choice.type\` "${type}" (forced tool use) is not supported on ${model}. Use "auto" or "none", and ask for the tool in the prompt.`,
  prefill: (model: string): string =>
    `messages: Prefilling the assistant message is not supported on ${model}. The conversation must end with a user message.`,
  manualThinking: (model: string): string =>
    `thinking.type.enabled: Manual thinking with \`budget_tokens\` is not supported on ${model}. Use \`thinking: {"type": "adaptive"}\` and \`output_config.effort\` instead.`,
  disabledThinking: (model: string): string =>
    `thinking.type.disabled: Thinking cannot be turned off on ${model}. Omit \`thinking\` or use \`thinking: {"type": "adaptive"}\`.`,
  betweenTools: (model: string): string =>
    `thinking.type.between_tools: \`between_tools\` thinking is not supported on ${model}. Use \`thinking: {"type": "adaptive"}\`.`,
  effortUnsupported: (model: string): string =>
    `output_config.effort: Effort is not supported on ${model}. Remove \`output_config.effort\`.`,
  effortNotAllowed: (model: string, efforts: readonly string[]): string =>
    `output_config.effort: Input should be ${efforts.map((e) => `'${e}'`).join(', ')} on ${model}.`,
  samplingParameter: (model: string, parameter: string): string =>
    `${parameter}: Sampling parameters are not supported on ${model}. Steer the output with the prompt and \`output_config.effort\`.`,
  blockBindingWithoutBeta: `thinking.block_binding: This field requires the beta header \`anthropic-beta: ${THINKING_BINDING_BETA}\`.`
} as const;

export interface ModelRuleViolation {
  status: 400 | 404;
  errorType: 'invalid_request_error' | 'not_found_error';
  kind: RejectionKind;
  message: string;
}

/** The `anthropic-beta` header as a list (the SDK joins its `betas` with commas). */
export function betasOf(header: string | undefined): string[] {
  return (header ?? '')
    .split(',')
    .map((b) => b.trim())
    .filter((b) => b !== '');
}

/** The row of the request's model, or the 404 the API answers for an id it does not serve. */
export function lookUpModel(model: string): { row: CatalogueRow } | { violation: ModelRuleViolation } {
  const row = findModel(model);
  if (row) return { row };
  return {
    violation: {
      status: 404,
      errorType: 'not_found_error',
      kind: 'unknown_model',
      message: modelErrorText.unknownModel(model)
    }
  };
}

const refused = (message: string): ModelRuleViolation => ({
  status: 400,
  errorType: 'invalid_request_error',
  kind: 'refused_parameter',
  message
});

/** The first setting of a /v1/messages request that `row`'s model refuses, or undefined. */
export function refusedParameter(
  request: ParsedRequest,
  row: CatalogueRow,
  betas: readonly string[]
): ModelRuleViolation | undefined {
  const { raw } = request;
  const model = request.model;
  const thinking = isJsonObject(raw.thinking) ? raw.thinking : undefined;
  if (thinking?.type === 'enabled' && row.refuses.manualThinking)
    return refused(modelErrorText.manualThinking(model));
  if (thinking?.type === 'disabled' && row.refuses.disabledThinking)
    return refused(modelErrorText.disabledThinking(model));
  if (thinking?.type === 'between_tools' && !BETWEEN_TOOLS_MODELS.has(row.id))
    return refused(modelErrorText.betweenTools(model));

  const effortViolation = checkEffort(raw.output_config, row, model);
  if (effortViolation) return effortViolation;

  const choice = isJsonObject(raw.tool_choice) ? raw.tool_choice : undefined;
  if ((choice?.type === 'any' || choice?.type === 'tool') && row.refuses.forcedToolChoice)
    return refused(modelErrorText.forcedToolChoice(model, choice.type));
  if (request.messages.at(-1)?.role === 'assistant' && row.refuses.prefill)
    return refused(modelErrorText.prefill(model));
  if (row.refuses.samplingParameters) {
    // Under 2026-10-21 these are already "Extra inputs"; older versions reach this rule.
    const sampling = SAMPLING_PARAMS.find((p) => p in raw);
    if (sampling) return refused(modelErrorText.samplingParameter(model, sampling));
  }
  if (thinking && thinking.block_binding !== undefined && thinking.block_binding !== null) {
    if (!betas.includes(THINKING_BINDING_BETA))
      return { ...refused(modelErrorText.blockBindingWithoutBeta), kind: 'beta_required' };
  }
  return undefined;
}

function checkEffort(
  outputConfig: unknown,
  row: CatalogueRow,
  model: string
): ModelRuleViolation | undefined {
  if (outputConfig === undefined || outputConfig === null) return undefined;
  if (!isJsonObject(outputConfig))
    return { ...refused('output_config: Input should be a valid dictionary'), kind: 'invalid_request' };
  const effort = outputConfig.effort;
  if (effort === undefined || effort === null) return undefined;
  if (typeof effort !== 'string' || !(ALL_EFFORTS as readonly string[]).includes(effort)) {
    return {
      ...refused(`output_config.effort: Input should be ${ALL_EFFORTS.map((e) => `'${e}'`).join(', ')}`),
      kind: 'invalid_request'
    };
  }
  if (row.thinking.efforts.length === 0) return refused(modelErrorText.effortUnsupported(model));
  if (!(row.thinking.efforts as readonly string[]).includes(effort))
    return refused(modelErrorText.effortNotAllowed(model, row.thinking.efforts));
  return undefined;
}

/** drop_block is honoured only with the beta header (without it the request was refused above). */
export function dropsInvalidBlocks(request: ParsedRequest, betas: readonly string[]): boolean {
  const thinking = isJsonObject(request.raw.thinking) ? request.raw.thinking : undefined;
  const binding = thinking && isJsonObject(thinking.block_binding) ? thinking.block_binding : undefined;
  return binding?.prefix_mismatch_behavior === 'drop_block' && betas.includes(THINKING_BINDING_BETA);
}
