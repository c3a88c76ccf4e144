import type { ContentBlockParam, MessageParam } from '@anthropic-ai/sdk/resources/messages';
import type { ModelClient, ModelRequest } from '../model/model-client.js';
import { promptTokens } from '../model/usage.js';
import { blocksOf, historyChars } from './history.js';
import { INITIAL_CHARS_PER_TOKEN } from './token-meter.js';
import type { BlockPosition, ClearPrediction, ServerClears } from './server-clears.js';

/** The API allows 4 cache breakpoints per request (prompt-caching; protocols.md). */
const MAX_BREAKPOINTS = 4;

/**
 * The model client of a run whose tool results the API clears: every request that carries
 * `context_management` gets a cache breakpoint where the client predicts the server's clears, and
 * every answer's `applied_edits` settle what the server really cleared (ServerClears).
 *
 * The token count the prediction needs is one the client can trust: the API's own count of the last
 * request as the model read it (its usage, on the server's view), plus an estimate of what was added
 * since, at the ratio that count gives. A wrong guess costs one cache miss and is corrected by the
 * next answer's applied_edits.
 *
 * Why two marks (the bench measured both, docs/benchmarks/thinking-and-peers.md): the cache reads
 * only an entry an earlier request wrote at that prefix, so
 * - on every request, a write mark before the oldest result not cleared yet: the next clear starts
 *   there, and the prefix before it does not change until then;
 * - on the request the client predicts will clear, a read mark at the same place (before the first
 *   result cleared), so the unchanged prefix is read, not written again.
 * Marks our request already carries inside the range the server clears read nothing on that request,
 * so they give way when no slot is free.
 */
export function serverClearCaching(
  model: ModelClient,
  clears: ServerClears,
  prefixChars: number
): ModelClient {
  let measured: { tokens: number; chars: number } | undefined;
  const trustedCount = (view: readonly MessageParam[]): number => {
    const chars = prefixChars + historyChars(view);
    if (!measured) return Math.ceil(chars / INITIAL_CHARS_PER_TOKEN);
    const ratio = measured.chars / Math.max(1, measured.tokens);
    return measured.tokens + Math.ceil(Math.max(0, chars - measured.chars) / ratio);
  };
  const tokensOfChars = (chars: number): number =>
    Math.ceil(chars / (measured ? measured.chars / Math.max(1, measured.tokens) : INITIAL_CHARS_PER_TOKEN));
  return {
    async complete(request, hooks) {
      if (!request.contextManagement) return model.complete(request, hooks);
      const history = request.messages;
      const prediction = clears.predict(history, trustedCount(clears.view(history)), tokensOfChars);
      const next = clears.nextClearStart(history, prediction?.ids);
      const reply = await model.complete(withClearMarks(request, prediction, next), hooks);
      clears.settle(history, prediction, reply.appliedEdits ?? []);
      measured = {
        tokens: promptTokens(reply.usage),
        chars: prefixChars + historyChars(clears.view(history))
      };
      return reply;
    }
  };
}

/** The request with the read mark (on a predicted clear) and the write mark, within the 4 slots. */
export function withClearMarks(
  request: ModelRequest,
  prediction: ClearPrediction | undefined,
  next: BlockPosition | undefined
): ModelRequest {
  const messages = [...request.messages];
  let free = MAX_BREAKPOINTS - countBreakpoints(request);
  const marks: BlockPosition[] = [];
  if (prediction) {
    const read = blockBefore(messages, prediction.from);
    if (read) marks.push(read);
    // Our marks past the clear point (but the last message's) read nothing now: they give way.
    for (let index = prediction.from.message; index < messages.length - 1 && free < 2; index++) {
      const blocks = [...blocksOf(messages[index]!)];
      let changed = false;
      blocks.forEach((block, blockIndex) => {
        if (free >= 2 || !hasMark(block)) return;
        if (index === prediction.from.message && blockIndex < prediction.from.block) return;
        blocks[blockIndex] = withoutMark(block);
        changed = true;
        free++;
      });
      if (changed) messages[index] = { ...messages[index]!, content: blocks } as MessageParam;
    }
  }
  const write = next && blockBefore(messages, next);
  if (write && !marks.some((mark) => mark.message === write.message && mark.block === write.block))
    marks.push(write);
  for (const mark of marks) {
    if (isMarked(messages, mark) || free <= 0) continue;
    messages[mark.message] = markBlock(messages[mark.message]!, mark.block);
    free--;
  }
  return { ...request, messages };
}

/** The nearest block before `position` that can carry cache_control (thinking blocks cannot). */
export function blockBefore(
  messages: readonly MessageParam[],
  position: BlockPosition
): BlockPosition | undefined {
  let message = position.message;
  let block = position.block - 1;
  while (message >= 0) {
    const blocks = blocksOf(messages[message]!);
    for (; block >= 0; block--) {
      const type = blocks[block]!.type;
      if (type !== 'thinking' && type !== 'redacted_thinking') return { message, block };
    }
    message--;
    if (message >= 0) block = blocksOf(messages[message]!).length - 1;
  }
  return undefined;
}

export function isMarked(messages: readonly MessageParam[], position: BlockPosition): boolean {
  const block = blocksOf(messages[position.message]!)[position.block];
  return block !== undefined && hasMark(block);
}

export function markBlock(message: MessageParam, index: number): MessageParam {
  const blocks = [...blocksOf(message)];
  blocks[index] = { ...blocks[index]!, cache_control: { type: 'ephemeral' } } as ContentBlockParam;
  return { ...message, content: blocks } as MessageParam;
}

export function withoutMark(block: ContentBlockParam): ContentBlockParam {
  const copy: Record<string, unknown> = { ...block };
  delete copy.cache_control;
  return copy as unknown as ContentBlockParam;
}

export function hasMark(value: object): boolean {
  return 'cache_control' in value && !!(value as { cache_control?: unknown }).cache_control;
}

/** Breakpoints the request carries: tools, system blocks, message blocks, blocks inside results. */
export function countBreakpoints(request: ModelRequest): number {
  let count = request.tools.filter(hasMark).length + request.system.filter(hasMark).length;
  for (const message of request.messages) {
    for (const block of blocksOf(message)) {
      if (hasMark(block)) count++;
      if (block.type === 'tool_result' && Array.isArray(block.content))
        count += block.content.filter(hasMark).length;
    }
  }
  return count;
}
