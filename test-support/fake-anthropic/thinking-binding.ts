/**
 * Preserved thinking: thinking blocks bound to the model and the conversation that produced them.
 *
 * Every thinking / redacted_thinking block the fake sends carries a signature that is an HMAC, under
 * a per-server secret, of the model and of everything before the block: system, tools, and every
 * message block before it (the reply's own earlier blocks included). A request that replays a block
 * is checked against its own prefix, so an edited tool result, a summary in place of turns, a
 * dropped turn or an omitted earlier thinking block makes that block and every later one invalid
 * (their prefix contains the change). cache_control markers are not part of the prefix: moving a
 * breakpoint is not an edit.
 *
 * Docs: https://platform.claude.com/docs/en/build-with-claude/preserved-thinking and
 * .../preserved-thinking/prefix-checks. The canonical form below is the fake's own: the real API's
 * is not published. It ignores JSON key order, `citations: null`, a tool_use's `caller`, and the
 * string-or-blocks form of a content, which the SDK round-trips differently from what it received.
 */
import { createHash, createHmac, randomBytes } from 'node:crypto';
import type {
  BindingReason,
  CompactionBlockParam,
  ContentBlockParam,
  JsonObject,
  MessageParam,
  ParsedRequest,
  Role,
  TextBlockParam,
  ThinkingDroppedTransformation,
  ToolParam,
  WireContentBlock
} from './types.js';
import { blocksOf } from './validate.js';

export const THINKING_BINDING_BETA = 'thinking-binding-controls-2026-08-01';

export interface InvalidThinkingBlock {
  messageIndex: number;
  blockIndex: number;
  reason: BindingReason;
}

const SIGNATURE_VERSION = 'fake-thinking-v1';
const COMPACTION_VERSION = 'fake-compaction-v1';

/** What a compaction block's signature records: enough to continue the prefix of its kept turns. */
interface CompactionPayload {
  v: typeof COMPACTION_VERSION;
  m: string;
  /** The prefix digest after the summarized messages (system, tools and every summarized block). */
  d: string;
  /** The digest of system + tools when it was written: they must not change afterwards. */
  hd: string;
  /** The role of the last summarized message: the first kept one must have the other role. */
  r: Role;
  /** HMAC of the above and of the summary text. */
  h: string;
}

interface SignaturePayload {
  v: typeof SIGNATURE_VERSION;
  /** The model that wrote the block. */
  m: string;
  /** HMAC of model, prefix and the block's text. */
  h: string;
  /** A redacted block's hidden text (redacted_thinking data only). */
  t?: string;
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof value !== 'object' || value === null) return value;
  const sorted: JsonObject = {};
  for (const key of Object.keys(value).sort()) {
    if (key === 'cache_control') continue;
    const field = (value as JsonObject)[key];
    if (field !== undefined) sorted[key] = sortKeys(field);
  }
  return sorted;
}

/** Canonical JSON: sorted keys, no cache_control, undefined fields left out. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

/** The block as the binding sees it: only the fields that carry meaning. */
function canonicalBlock(block: ContentBlockParam | WireContentBlock): unknown {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: block.text };
    case 'tool_use':
      return { type: 'tool_use', id: block.id, name: block.name, input: block.input };
    case 'tool_result': {
      const content =
        block.content === undefined
          ? []
          : typeof block.content === 'string'
            ? block.content === ''
              ? []
              : [{ type: 'text', text: block.content }]
            : block.content.map((c) => (c.type === 'text' ? { type: 'text', text: c.text } : c));
      return {
        type: 'tool_result',
        tool_use_id: block.tool_use_id,
        content,
        is_error: block.is_error ?? false
      };
    }
    case 'thinking':
      return { type: 'thinking', thinking: block.thinking, signature: block.signature };
    case 'redacted_thinking':
      return { type: 'redacted_thinking', data: block.data };
    default:
      return block;
  }
}

function canonicalSystem(system: string | TextBlockParam[] | undefined): unknown {
  if (system === undefined || system === '') return [];
  if (typeof system === 'string') return [{ type: 'text', text: system }];
  return system.map((b) => ({ type: 'text', text: b.text }));
}

/** A running hash of a prompt prefix, extended one block at a time (linear in the conversation). */
class PrefixChain {
  private digest: string;
  /** The digest of system + tools alone. */
  readonly head: string;

  constructor(head: Pick<ParsedRequest, 'system' | 'tools'>) {
    this.head = createHash('sha256')
      .update(
        canonicalJson({ system: canonicalSystem(head.system), tools: head.tools ?? ([] as ToolParam[]) })
      )
      .digest('hex');
    this.digest = this.head;
  }

  get current(): string {
    return this.digest;
  }

  /** Continue from a prefix a compaction block stands for (the summarized messages). */
  resume(digest: string): void {
    this.digest = digest;
  }

  /** A condition of the kept turns failed: nothing signed before matches any more. */
  poison(): void {
    this.digest = createHash('sha256').update('broken').update(this.digest).digest('hex');
  }

  append(role: Role, block: ContentBlockParam | WireContentBlock): void {
    this.digest = createHash('sha256')
      .update(this.digest)
      .update(canonicalJson({ role, block: canonicalBlock(block) }))
      .digest('hex');
  }
}

function encode(payload: SignaturePayload): string {
  return Buffer.from(JSON.stringify(payload)).toString('base64');
}

function decode(value: string): SignaturePayload | undefined {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(value, 'base64').toString('utf8'));
    if (typeof parsed !== 'object' || parsed === null) return undefined;
    const { v, m, h, t } = parsed as Record<string, unknown>;
    if (v !== SIGNATURE_VERSION || typeof m !== 'string' || typeof h !== 'string') return undefined;
    if (t !== undefined && typeof t !== 'string') return undefined;
    return { v, m, h, ...(t !== undefined ? { t } : {}) };
  } catch {
    return undefined;
  }
}

/** The hidden text of a redacted_thinking block the fake wrote ('' for data it did not write). */
export function redactedThinkingText(data: string): string {
  return decode(data)?.t ?? '';
}

function decodeCompaction(value: string | null | undefined): CompactionPayload | undefined {
  if (!value) return undefined;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(value, 'base64').toString('utf8'));
    if (typeof parsed !== 'object' || parsed === null) return undefined;
    const { v, m, d, hd, r, h } = parsed as Record<string, unknown>;
    if (v !== COMPACTION_VERSION || typeof m !== 'string' || typeof d !== 'string') return undefined;
    if (typeof hd !== 'string' || (r !== 'user' && r !== 'assistant') || typeof h !== 'string')
      return undefined;
    return { v, m, d, hd, r, h };
  } catch {
    return undefined;
  }
}

/** Signs what the fake sends and checks what comes back; one per server (its secret). */
export class ThinkingBinder {
  constructor(private readonly secret: Buffer = randomBytes(32)) {}

  private compactionMac(payload: Omit<CompactionPayload, 'h'>, content: string): string {
    return createHmac('sha256', this.secret)
      .update(JSON.stringify([payload.m, payload.d, payload.hd, payload.r, content]))
      .digest('base64url');
  }

  /**
   * The signature of a compaction block written for `request`: it records where the summarized
   * prefix ended, so thinking in the kept turns that follow the block stays valid (the docs'
   * conditions are checked when the block comes back, in `verify`).
   */
  signCompaction(request: ParsedRequest, content: string): string {
    const chain = this.chainOver(request);
    const last = request.messages.at(-1)!;
    const payload = {
      v: COMPACTION_VERSION,
      m: request.model,
      d: chain.current,
      hd: chain.head,
      r: last.role
    } as const;
    return Buffer.from(JSON.stringify({ ...payload, h: this.compactionMac(payload, content) })).toString(
      'base64'
    );
  }

  /** Whether a returned compaction block is ours and unchanged. */
  verifyCompaction(block: CompactionBlockParam): 'ok' | 'content_mismatch' | 'invalid' {
    const payload = decodeCompaction(block.signature);
    if (!payload) return 'invalid';
    return payload.h === this.compactionMac(payload, block.content ?? '') ? 'ok' : 'content_mismatch';
  }

  /**
   * Starts the chain of a request. A request that opens with a (verified) compaction block continues
   * from the prefix the block summarized, so kept turns keep their thinking; when `system` or `tools`
   * changed since, the chain is broken instead. Returns the block's last summarized role.
   */
  private startChain(request: ParsedRequest): { chain: PrefixChain; skipFirst: boolean; role?: Role } {
    const chain = new PrefixChain(request);
    const first = request.messages[0];
    const block = first ? blocksOf(first)[0] : undefined;
    if (block?.type !== 'compaction') return { chain, skipFirst: false };
    const payload = decodeCompaction(block.signature);
    if (!payload) {
      chain.poison();
      return { chain, skipFirst: true };
    }
    const headChanged = payload.hd !== chain.head;
    chain.resume(payload.d);
    if (headChanged) chain.poison();
    return { chain, skipFirst: true, role: payload.r };
  }

  /** Walks the request's blocks with the chain, applying the kept-turn role rule after a block. */
  private walk(
    request: ParsedRequest,
    visit: (chain: PrefixChain, role: Role, block: ContentBlockParam, m: number, k: number) => void
  ): PrefixChain {
    const { chain, skipFirst, role } = this.startChain(request);
    request.messages.forEach((message: MessageParam, messageIndex) => {
      const blocks = blocksOf(message);
      // The first kept message with the summarized one's role would be merged into it by the API.
      const firstKept =
        skipFirst && (messageIndex === 1 ? blocksOf(request.messages[0]!).length === 1 : false);
      if (firstKept && role !== undefined && message.role === role) chain.poison();
      blocks.forEach((block, blockIndex) => {
        if (skipFirst && messageIndex === 0 && blockIndex === 0) return;
        visit(chain, message.role, block, messageIndex, blockIndex);
        chain.append(message.role, block);
      });
    });
    return chain;
  }

  private mac(model: string, prefix: string, text: string): string {
    return createHmac('sha256', this.secret)
      .update(JSON.stringify([model, prefix, text]))
      .digest('base64url');
  }

  /**
   * Fills in the signature of the reply's thinking blocks listed in `unsigned` (index → text to
   * bind; for redacted_thinking, its hidden text), bound to the request as sent plus the reply's
   * earlier blocks. Blocks not listed keep what the script gave (a foreign or forged block).
   */
  signReply(
    request: ParsedRequest,
    content: WireContentBlock[],
    unsigned: ReadonlyMap<number, string>
  ): WireContentBlock[] {
    const chain = this.chainOver(request);
    return content.map((block, index) => {
      const text = unsigned.get(index);
      let signed = block;
      if (text !== undefined && block.type === 'thinking') {
        const h = this.mac(request.model, chain.current, text);
        signed = { ...block, signature: encode({ v: SIGNATURE_VERSION, m: request.model, h }) };
      } else if (text !== undefined && block.type === 'redacted_thinking') {
        const h = this.mac(request.model, chain.current, text);
        signed = { ...block, data: encode({ v: SIGNATURE_VERSION, m: request.model, h, t: text }) };
      }
      chain.append('assistant', signed);
      return signed;
    });
  }

  /** Every replayed thinking / redacted_thinking block that fails the model or the prefix check, in order. */
  verify(request: ParsedRequest): InvalidThinkingBlock[] {
    const invalid: InvalidThinkingBlock[] = [];
    this.walk(request, (chain, _role, block, messageIndex, blockIndex) => {
      if (block.type === 'thinking' || block.type === 'redacted_thinking') {
        const reason = this.check(request.model, chain.current, block);
        if (reason) invalid.push({ messageIndex, blockIndex, reason });
      }
    });
    return invalid;
  }

  private check(
    model: string,
    prefix: string,
    block: Extract<ContentBlockParam, { type: 'thinking' | 'redacted_thinking' }>
  ): BindingReason | undefined {
    const payload = decode(block.type === 'thinking' ? block.signature : block.data);
    // A signature the fake never wrote (a made-up or edited one) fails like an edited prefix.
    if (!payload) return 'prefix_binding_mismatch';
    // Simplification: a model reads only its own blocks (the docs list a few cross-model reads).
    if (payload.m !== model) return 'model_binding_mismatch';
    const text = block.type === 'thinking' ? block.thinking : (payload.t ?? '');
    return payload.h === this.mac(model, prefix, text) ? undefined : 'prefix_binding_mismatch';
  }

  private chainOver(request: ParsedRequest): PrefixChain {
    return this.walk(request, () => undefined);
  }
}

/** The request without the given blocks (what the model sees after drop_block). */
export function withoutBlocks(request: ParsedRequest, drop: readonly InvalidThinkingBlock[]): ParsedRequest {
  if (drop.length === 0) return request;
  const dropped = new Set(drop.map((d) => `${d.messageIndex}.${d.blockIndex}`));
  const messages = request.messages.map((message, m): MessageParam => {
    if (typeof message.content === 'string') return message;
    return { role: message.role, content: message.content.filter((_, k) => !dropped.has(`${m}.${k}`)) };
  });
  return { ...request, messages };
}

export function droppedTransformations(
  drop: readonly InvalidThinkingBlock[]
): ThinkingDroppedTransformation[] {
  return drop.map((d) => ({
    type: 'thinking_dropped',
    path: `messages.${d.messageIndex}.content.${d.blockIndex}`,
    reason: d.reason
  }));
}
