/**
 * On-demand compaction (beta `compact-2026-09-04`) as the fake serves it. Pure rules and texts; the
 * signing lives with the thinking binder (thinking-binding.ts), which shares the prefix chain.
 *
 * Sources (read 2026-11-26):
 * - https://platform.claude.com/docs/en/build-with-claude/compaction ("Use on-demand compaction
 *   wherever it is available"; the returned block goes first in messages, in place of the messages
 *   it summarizes).
 * - https://platform.claude.com/docs/en/build-with-claude/compaction-thinking-blocks (beta header,
 *   supported models and platforms in its front matter; kept-turn conditions: the first kept message
 *   has the other role than the last summarized one, nothing added or skipped between them, same
 *   `system` and `tools`; when a condition fails nothing fails at compaction time, the first later
 *   request that sends the kept thinking gets the binding 400).
 * - https://platform.claude.com/docs/en/build-with-claude/compaction-background (the swap: drop
 *   exactly the messages sent, put the returned message in their place, later turns stay after it).
 * - @anthropic-ai/sdk 1.12.0 type docs (resources/beta/messages, resources/messages): the block's
 *   fields (`content`, `encrypted_content`, `signature`, `tool_changes`), `compaction_delta` in
 *   streams, `stop_reason: "compaction"`, the 400s' `error.details.error_code` values
 *   (compaction_block_misplaced, _ambiguous, _content_mismatch, _signature_invalid,
 *   _incomplete_turn, _nothing_to_summarize) and "Cannot be combined with `context_management`".
 * The error codes are documented; the message texts are not: ours are guesses in the API's style.
 */
import { findModel } from '../../src/config/model-catalog.js';
import type { CompactionBlockParam, ContentBlockParam, MessageParam, ParsedRequest } from './types.js';
import { blocksOf, isJsonObject } from './validate.js';

export const ON_DEMAND_COMPACTION_BETA = 'compact-2026-09-04';

/** compaction-thinking-blocks front matter, `supportedModels` (read 2026-11-26). */
export const ON_DEMAND_COMPACTION_MODELS: ReadonlySet<string> = new Set([
  'claude-fable-5-1',
  'claude-mythos-5-1',
  'claude-fable-5',
  'claude-mythos-5',
  'claude-mythos-preview',
  'claude-opus-5-5',
  'claude-opus-5',
  'claude-opus-4-8',
  'claude-opus-4-7',
  'claude-opus-4-6',
  'claude-sonnet-5-5',
  'claude-sonnet-5',
  'claude-sonnet-4-6',
  'claude-haiku-5-5'
]);

/** Whether the model (id or alias) takes `compaction: {type: "summarize"}`. */
export function supportsOnDemandCompaction(model: string): boolean {
  const id = findModel(model)?.id ?? model;
  return ON_DEMAND_COMPACTION_MODELS.has(id);
}

export type CompactionErrorCode =
  | 'compaction_block_misplaced'
  | 'compaction_block_ambiguous'
  | 'compaction_content_mismatch'
  | 'compaction_signature_invalid'
  | 'compaction_incomplete_turn'
  | 'compaction_nothing_to_summarize';

export interface CompactionViolation {
  status: 400;
  errorType: 'invalid_request_error';
  kind: 'compaction' | 'beta_required';
  message: string;
  /** `error.details.error_code` (the SDK exposes it as `errorCode`); absent for the beta and field rules. */
  errorCode?: CompactionErrorCode;
}

/** Guesses in the API's style (the real wording is not published); each says what to do. */
export const compactionErrorText = {
  betaRequired: (what: 'compaction' | 'block'): string =>
    what === 'compaction'
      ? `compaction: This field requires the beta header \`anthropic-beta: ${ON_DEMAND_COMPACTION_BETA}\`.`
      : `messages.0.content.0: \`compaction\` blocks require the beta header \`anthropic-beta: ${ON_DEMAND_COMPACTION_BETA}\` on every request that carries them.`,
  unsupportedModel: (model: string): string =>
    `compaction: On-demand compaction is not supported on ${model}. Check the model's \`capabilities.compaction\` in the Models API.`,
  withContextManagement:
    'compaction: `compaction` cannot be combined with `context_management`. Send the compaction request without `context_management`.',
  badConfig: "compaction.type: Input should be 'summarize'",
  incompleteTurn: (messageIndex: number): string =>
    `messages.${messageIndex}: The compaction request ends on an \`assistant\` turn that is not finished: its \`tool_use\` blocks have no \`tool_result\`. Compact the messages of a request you already sent (they end on a \`user\` turn).`,
  nothingToSummarize: 'messages: There is no `user` or `assistant` content to summarize.',
  misplaced: (messageIndex: number, blockIndex: number): string =>
    `messages.${messageIndex}.content.${blockIndex}: A \`compaction\` block must be the first block of the conversation. Put the block first in \`messages\`, in place of the messages it summarizes.`,
  ambiguous:
    'messages: More than one `compaction` block with content. Send only the block the conversation returned last.',
  contentMismatch:
    "messages.0.content.0: The `compaction` block's `content` differs from the text its `signature` recorded. Send the block back unchanged.",
  signatureInvalid:
    "messages.0.content.0: The `compaction` block's `signature` does not verify. Send the block back exactly as the API returned it."
} as const;

const violation = (
  message: string,
  errorCode?: CompactionErrorCode,
  kind: CompactionViolation['kind'] = 'compaction'
): CompactionViolation => ({
  status: 400,
  errorType: 'invalid_request_error',
  kind,
  message,
  ...(errorCode ? { errorCode } : {})
});

/** The `compaction` field of a request, when it asks for an on-demand compaction. */
export function compactionConfig(request: ParsedRequest): { instructions?: string } | undefined {
  const config = request.raw.compaction;
  if (config === undefined || config === null) return undefined;
  if (!isJsonObject(config) || config.type !== 'summarize') return {};
  const instructions = typeof config.instructions === 'string' ? config.instructions.trim() : '';
  return instructions === '' ? {} : { instructions };
}

/** The refusals of a compaction request (beta, model, context_management, an unfinished turn). */
export function checkCompactionRequest(
  request: ParsedRequest,
  betas: readonly string[]
): CompactionViolation | undefined {
  const config = request.raw.compaction;
  if (config === undefined || config === null) return undefined;
  if (!isJsonObject(config) || config.type !== 'summarize')
    return violation(compactionErrorText.badConfig, undefined);
  if (!betas.includes(ON_DEMAND_COMPACTION_BETA))
    return violation(compactionErrorText.betaRequired('compaction'), undefined, 'beta_required');
  if (!supportsOnDemandCompaction(request.model))
    return violation(compactionErrorText.unsupportedModel(request.model));
  if (request.raw.context_management !== undefined && request.raw.context_management !== null)
    return violation(compactionErrorText.withContextManagement);
  const last = request.messages.at(-1);
  if (last?.role === 'assistant' && blocksOf(last).some((block) => block.type === 'tool_use'))
    return violation(
      compactionErrorText.incompleteTurn(request.messages.length - 1),
      'compaction_incomplete_turn'
    );
  const content = request.messages.flatMap(blocksOf).filter((block) => block.type !== 'compaction');
  if (content.length === 0)
    return violation(compactionErrorText.nothingToSummarize, 'compaction_nothing_to_summarize');
  return undefined;
}

export interface LocatedCompactionBlock {
  messageIndex: number;
  blockIndex: number;
  block: CompactionBlockParam;
}

export function compactionBlocks(messages: readonly MessageParam[]): LocatedCompactionBlock[] {
  const found: LocatedCompactionBlock[] = [];
  messages.forEach((message, messageIndex) =>
    blocksOf(message).forEach((block: ContentBlockParam, blockIndex) => {
      if (block.type === 'compaction') found.push({ messageIndex, blockIndex, block });
    })
  );
  return found;
}

/**
 * Where compaction blocks may stand: only first in `messages`, only one with content, only with the
 * beta header. `verify` checks the block against its signature (content unchanged, signature ours).
 */
export function checkCompactionBlocks(
  request: ParsedRequest,
  betas: readonly string[],
  verify: (block: CompactionBlockParam) => 'ok' | 'content_mismatch' | 'invalid'
): CompactionViolation | undefined {
  const blocks = compactionBlocks(request.messages);
  if (blocks.length === 0) return undefined;
  const misplaced = blocks.find((b) => b.messageIndex !== 0 || b.blockIndex !== 0);
  if (misplaced)
    return violation(
      compactionErrorText.misplaced(misplaced.messageIndex, misplaced.blockIndex),
      'compaction_block_misplaced'
    );
  if (!betas.includes(ON_DEMAND_COMPACTION_BETA))
    return violation(compactionErrorText.betaRequired('block'), undefined, 'beta_required');
  const result = verify(blocks[0]!.block);
  if (result === 'content_mismatch')
    return violation(compactionErrorText.contentMismatch, 'compaction_content_mismatch');
  if (result === 'invalid')
    return violation(compactionErrorText.signatureInvalid, 'compaction_signature_invalid');
  return undefined;
}

/**
 * The fake's summary when the test gives none: readable, deterministic, and short. It names what it
 * summarized (and carries an earlier block's summary forward), so a test can see what was replaced.
 */
export function defaultCompactionSummary(request: ParsedRequest, instructions: string | undefined): string {
  const earlier = compactionBlocks(request.messages)[0]?.block.content;
  const lastUser = [...request.messages].reverse().find((m) => m.role === 'user');
  const lastText = lastUser
    ? blocksOf(lastUser)
        .flatMap((b) => (b.type === 'text' ? [b.text] : b.type === 'tool_result' ? ['(a tool result)'] : []))
        .join(' ')
        .slice(0, 200)
    : '';
  return [
    `Summary of ${request.messages.length} messages.`,
    ...(earlier ? [`Before them: ${earlier.slice(0, 400)}`] : []),
    ...(instructions ? [`Instructions followed: ${instructions.slice(0, 200)}`] : []),
    `Last user turn: ${lastText}`
  ].join('\n');
}

/**
 * Where the docs are silent (read 2026-11-26), the fake's choices, here only:
 * - Usage of a compaction answer: not documented for on-demand compaction (the SDK documents
 *   `usage.iterations` compaction entries for threshold compaction only). The request's prompt is
 *   billed as input through the usage model (so a cached prefix is read), the summary as output
 *   tokens, in the top-level usage like any message.
 * - Caching after the swap: not documented. The block is an ordinary first block of the prompt for
 *   the usage model, so the first request after a swap writes a new prefix (nothing before the
 *   block matches the old cache) and later ones read it.
 * - The signature in a stream: not documented; it comes with content_block_start (sse.ts).
 */
export const COMPACTION_USAGE_CHOICE = 'top-level usage: prompt as input (usage model), summary as output';
