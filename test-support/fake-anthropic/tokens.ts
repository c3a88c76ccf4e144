/**
 * Token counting with the real Claude BPE (@anthropic-ai/tokenizer), memoized per string.
 *
 * Long agent runs re-send the same 150k-token prompt hundreds of times, and BPE costs about
 * 0.7 µs per character, so every rendered piece (one block, one tool) is counted once and looked
 * up afterwards. A prompt's count is the sum of its pieces: the real API adds a few framing
 * tokens per message that we leave out, so a lone text block counts exactly countTokens(text).
 */
import { getTokenizer } from '@anthropic-ai/tokenizer';
import type {
  CacheControl,
  ContentBlockParam,
  MessageParam,
  ParsedRequest,
  ReplyBlock,
  Role,
  TextBlockParam,
  ToolParam,
  WireContentBlock
} from './types.js';
import { blocksOf } from './validate.js';

type Tokenizer = ReturnType<typeof getTokenizer>;

export interface TokenCounterOptions {
  /** Most strings kept (default 20,000). */
  maxEntries?: number;
  /** Most characters kept across entries (default 64 M, about 130 MB of UTF-16). */
  maxChars?: number;
}

export class TokenCounter {
  private tokenizer: Tokenizer | undefined;
  private readonly memo = new Map<string, number>();
  private memoChars = 0;
  private readonly maxEntries: number;
  private readonly maxChars: number;
  /** Strings actually run through BPE (memo misses); lets tests check the memo works. */
  encodeCalls = 0;

  constructor(options: TokenCounterOptions = {}) {
    this.maxEntries = options.maxEntries ?? 20_000;
    this.maxChars = options.maxChars ?? 64_000_000;
  }

  /** Same result as countTokens() from @anthropic-ai/tokenizer, without rebuilding the tokenizer per call. */
  count(text: string): number {
    if (text === '') return 0;
    const hit = this.memo.get(text);
    if (hit !== undefined) {
      // Re-insert so eviction drops the least recently used string first.
      this.memo.delete(text);
      this.memo.set(text, hit);
      return hit;
    }
    this.tokenizer ??= getTokenizer();
    this.encodeCalls++;
    const tokens = this.tokenizer.encode(text.normalize('NFKC'), 'all').length;
    this.remember(text, tokens);
    return tokens;
  }

  get size(): number {
    return this.memo.size;
  }

  /** Frees the WASM tokenizer; the counter stays usable (it is rebuilt on the next miss). */
  dispose(): void {
    this.tokenizer?.free();
    this.tokenizer = undefined;
  }

  private remember(text: string, tokens: number): void {
    if (text.length > this.maxChars) return;
    this.memo.set(text, tokens);
    this.memoChars += text.length;
    for (const oldest of this.memo.keys()) {
      if (this.memo.size <= this.maxEntries && this.memoChars <= this.maxChars) break;
      this.memo.delete(oldest);
      this.memoChars -= oldest.length;
    }
  }
}

/** One countable piece of the prompt, in the API's render order (tools → system → messages). */
export interface PromptSegment {
  /** Where it comes from: 'tools.0', 'system', 'system.1', 'messages.3.content.2'. */
  path: string;
  kind: 'tool' | 'system' | 'message';
  /** For message segments. */
  role?: Role;
  messageIndex?: number;
  /** The text that was counted. */
  text: string;
  tokens: number;
  cacheControl: CacheControl | null;
  /** The tool, system block or message block itself (system given as a string: the string). */
  source: ToolParam | TextBlockParam | ContentBlockParam | string;
}

/**
 * Identity of a segment for exact-prefix matching (prompt caching): kind, role and every field of
 * its source except cache_control. Computed on demand because it costs a JSON.stringify per block.
 */
export function segmentKey(segment: PromptSegment): string {
  const source =
    typeof segment.source === 'string' ? segment.source : JSON.stringify(withoutCacheControl(segment.source));
  return `${segment.kind}:${segment.role ?? ''}:${source}`;
}

function withoutCacheControl(value: object): Record<string, unknown> {
  const copy: Record<string, unknown> = { ...value };
  delete copy.cache_control;
  return copy;
}

/** The text a tool definition is counted as: its JSON without cache_control. */
export function renderTool(tool: ToolParam): string {
  return JSON.stringify(withoutCacheControl(tool));
}

/** The text a message block is counted as. */
export function renderBlock(block: ContentBlockParam | ReplyBlock | WireContentBlock): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'tool_use':
      return `${block.name}\n${JSON.stringify(block.input)}`;
    case 'tool_result':
      if (block.content === undefined) return '';
      if (typeof block.content === 'string') return block.content;
      return block.content
        .map((c) => (c.type === 'text' ? c.text : JSON.stringify(withoutCacheControl(c))))
        .join('\n');
    case 'thinking':
      return block.thinking;
    case 'redacted_thinking':
      return block.data ?? '';
    default:
      // Images, documents and server-tool blocks: counted as their JSON (an overestimate for base64 images).
      return JSON.stringify(withoutCacheControl(block));
  }
}

function cacheControlOf(value: { cache_control?: CacheControl | null }): CacheControl | null {
  return value.cache_control ?? null;
}

/** Splits the prompt into counted segments; a prompt cache simulator can compute prefix sums over them. */
export function renderPrompt(
  request: Pick<ParsedRequest, 'tools' | 'system' | 'messages'>,
  counter: TokenCounter
): PromptSegment[] {
  const segments: PromptSegment[] = [];
  (request.tools ?? []).forEach((tool, i) => {
    const text = renderTool(tool);
    segments.push({
      path: `tools.${i}`,
      kind: 'tool',
      text,
      tokens: counter.count(text),
      cacheControl: cacheControlOf(tool),
      source: tool
    });
  });
  const system = request.system;
  if (typeof system === 'string') {
    if (system !== '') {
      segments.push({
        path: 'system',
        kind: 'system',
        text: system,
        tokens: counter.count(system),
        cacheControl: null,
        source: system
      });
    }
  } else if (system) {
    system.forEach((block, i) => {
      segments.push({
        path: `system.${i}`,
        kind: 'system',
        text: block.text,
        tokens: counter.count(block.text),
        cacheControl: cacheControlOf(block),
        source: block
      });
    });
  }
  request.messages.forEach((message: MessageParam, m) => {
    blocksOf(message).forEach((block, k) => {
      const text = renderBlock(block);
      segments.push({
        path: `messages.${m}.content.${k}`,
        kind: 'message',
        role: message.role,
        messageIndex: m,
        text,
        tokens: counter.count(text),
        cacheControl: cacheControlOf(block),
        source: block
      });
    });
  });
  return segments;
}

export function sumTokens(segments: readonly PromptSegment[]): number {
  return segments.reduce((total, s) => total + s.tokens, 0);
}

/** The whole prompt's token count (what count_tokens answers and input usage is made of). */
export function countPromptTokens(
  request: Pick<ParsedRequest, 'tools' | 'system' | 'messages'>,
  counter: TokenCounter
): number {
  return sumTokens(renderPrompt(request, counter));
}

/** output_tokens of a reply; rendered like input blocks so a reply re-sent next turn counts the same. */
export function countReplyTokens(
  content: readonly (ReplyBlock | WireContentBlock)[],
  counter: TokenCounter
): number {
  return content.reduce((total, block) => total + counter.count(renderBlock(block)), 0);
}
