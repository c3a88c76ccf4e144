/**
 * Request validation, as strict as the real Messages API (anthropic-version 2026-10-21).
 *
 * Pure: no I/O, no server state. `parseRequest` turns an untrusted JSON body into a typed
 * `ParsedRequest` or the first error message the real API would answer with (HTTP 400,
 * invalid_request_error). Texts under "observed" come from /work/shared/notes/protocols.md or from
 * real API answers quoted in public bug reports; the others follow the API's pydantic-style
 * wording ("<path>: Field required", "<path>: Input should be ...") but were not observed.
 */
import type {
  CacheControl,
  ContentBlockParam,
  Endpoint,
  JsonObject,
  MessageParam,
  ParsedRequest,
  TextBlockParam,
  ToolParam,
  ToolResultContentBlock
} from './types.js';

/** The version the SDK 1.x sends; it removed the sampling parameters. */
export const API_VERSION_2026 = '2026-10-21';
export const KNOWN_API_VERSIONS: readonly string[] = ['2023-01-01', '2023-06-01', API_VERSION_2026];
export const SAMPLING_PARAMS = ['temperature', 'top_p', 'top_k'] as const;
export const MAX_CACHE_BREAKPOINTS = 4;
export const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

/** Every error text in one place, so tests and other fakes can reuse the exact wording. */
export const errorText = {
  // observed
  toolUseWithoutResult: (messageIndex: number, ids: readonly string[]): string =>
    `messages.${messageIndex}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${ids.join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`,
  unexpectedToolResult: (messageIndex: number, blockIndex: number, id: string): string =>
    `messages.${messageIndex}.content.${blockIndex}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${id}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`,
  toolResultsNotFirst: (messageIndex: number, expected: number): string =>
    `messages.${messageIndex}: Did not find ${expected} \`tool_result\` block(s) at the beginning of this message. Messages following \`tool_use\` blocks must begin with a matching number of \`tool_result\` blocks.`,
  emptyContent: (messageIndex: number): string =>
    `messages.${messageIndex}: all messages must have non-empty content except for the optional final assistant message`,
  // Only the 'messages' variants of the two text rules were observed; 'system' is by analogy.
  textEmpty: (where: 'messages' | 'system'): string => `${where}: text content blocks must be non-empty`,
  textWhitespace: (where: 'messages' | 'system'): string =>
    `${where}: text content blocks must contain non-whitespace text`,
  finalAssistantTrailingWhitespace: 'messages: final assistant content cannot end with trailing whitespace',
  tooManyCacheControl: (found: number): string =>
    `A maximum of ${MAX_CACHE_BREAKPOINTS} blocks with cache_control may be provided. Found ${found}.`,
  promptTooLong: (tokens: number, maximum: number): string =>
    `prompt is too long: ${tokens} tokens > ${maximum} maximum`,
  // Observed as 'temperature: ...' and 'max_tokens: Field required'; other paths follow the same pattern.
  extraInput: (path: string): string => `${path}: Extra inputs are not permitted`,
  fieldRequired: (path: string): string => `${path}: Field required`,
  maxTokensBelowBudget:
    '`max_tokens` must be greater than `thinking.budget_tokens`. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking#max-tokens-and-context-window-size',
  messagesEmpty: 'messages: at least one message is required',
  versionMissing: 'anthropic-version: header is required',
  // not observed: pydantic-style or invented wording
  notA: (path: string, what: 'string' | 'integer' | 'list' | 'dictionary' | 'boolean' | 'number'): string =>
    `${path}: Input should be a valid ${what}`,
  greaterOrEqual: (path: string, min: number): string =>
    `${path}: Input should be greater than or equal to ${min}`,
  versionUnknown: (version: string): string => `anthropic-version: unknown version "${version}"`,
  firstMessageNotUser: 'messages: first message must use the "user" role',
  roleInvalid: (messageIndex: number): string =>
    `messages.${messageIndex}.role: Input should be 'user' or 'assistant'`,
  unknownBlockType: (path: string, tag: string, expected: readonly string[]): string =>
    `${path}: Input tag '${tag}' found using 'type' does not match any of the expected tags: ${expected.map((t) => `'${t}'`).join(', ')}`,
  literal: (path: string, values: readonly string[]): string =>
    `${path}: Input should be ${values.map((v) => `'${v}'`).join(' or ')}`,
  toolNamePattern: (toolIndex: number): string =>
    `tools.${toolIndex}.name: String should match pattern '^[a-zA-Z0-9_-]{1,64}$'`,
  toolNamesNotUnique: 'tools: Tool names must be unique.',
  duplicateToolUseId: (messageIndex: number, blockIndex: number, id: string): string =>
    `messages.${messageIndex}.content.${blockIndex}: \`tool_use\` ids must be unique. Found duplicate id: ${id}`,
  duplicateToolResult: (messageIndex: number, blockIndex: number, id: string): string =>
    `messages.${messageIndex}.content.${blockIndex}: each \`tool_use\` must have a single result. Found multiple \`tool_result\` blocks with id: ${id}`,
  blockInWrongRole: (messageIndex: number, blockIndex: number, type: string, role: string): string =>
    `messages.${messageIndex}.content.${blockIndex}: \`${type}\` blocks are not allowed in \`${role}\` messages`
} as const;

export interface ValidateOptions {
  endpoint: Endpoint;
  /** The anthropic-version header; undefined when it is missing. */
  anthropicVersion: string | undefined;
  /** The context window, or one per model; the prompt-too-long check runs only when this and countPromptTokens are given. */
  contextWindow?: number | ((model: string) => number);
  countPromptTokens?: (request: ParsedRequest) => number;
}

export type ParseResult = { ok: true; request: ParsedRequest } | { ok: false; message: string };

/** Returns the first error message the real API would answer for this body, or null when it is valid. */
export function validateRequest(body: unknown, options: ValidateOptions): string | null {
  const result = parseRequest(body, options);
  return result.ok ? null : result.message;
}

// Top-level fields the SDK 1.x can send (MessageCreateParams / MessageCountTokensParams, beta included).
const MESSAGES_FIELDS = new Set([
  'model',
  'messages',
  'max_tokens',
  'system',
  'tools',
  'tool_choice',
  'stream',
  'metadata',
  'stop_sequences',
  'thinking',
  'cache_control',
  'container',
  'diagnostics',
  'inference_geo',
  'output_config',
  'output_format',
  'service_tier',
  'speed',
  'user_profile_id',
  'workspace_id',
  'context_management',
  'mcp_servers',
  'compaction'
]);
const COUNT_TOKENS_FIELDS = new Set([
  'model',
  'messages',
  'system',
  'tools',
  'tool_choice',
  'thinking',
  'cache_control',
  'output_config',
  'output_format',
  'speed',
  'context_management',
  'mcp_servers',
  // SDK 1.12: "count_tokens accepts this parameter and ignores it".
  'compaction'
]);

const MESSAGE_BLOCK_TYPES = [
  'text',
  'compaction',
  'image',
  'document',
  'search_result',
  'thinking',
  'redacted_thinking',
  'tool_use',
  'tool_result',
  'server_tool_use',
  'web_search_tool_result',
  'web_fetch_tool_result',
  'code_execution_tool_result',
  'bash_code_execution_tool_result',
  'text_editor_code_execution_tool_result',
  'tool_search_tool_result',
  'container_upload'
] as const;
const TOOL_RESULT_CONTENT_TYPES = [
  'text',
  'image',
  'search_result',
  'document',
  'tool_reference',
  'browser_state'
] as const;
const BLOCK_FIELDS: Record<string, ReadonlySet<string>> = {
  text: new Set(['type', 'text', 'cache_control', 'citations']),
  tool_use: new Set(['type', 'id', 'name', 'input', 'cache_control', 'caller', 'toolset_name']),
  tool_result: new Set(['type', 'tool_use_id', 'content', 'is_error', 'cache_control', 'toolset_name']),
  thinking: new Set(['type', 'thinking', 'signature']),
  redacted_thinking: new Set(['type', 'data']),
  compaction: new Set(['type', 'content', 'encrypted_content', 'signature', 'tool_changes', 'cache_control'])
};
const TOOL_CHOICE_TYPES = ['auto', 'any', 'tool', 'none'] as const;
const THINKING_TYPES = ['enabled', 'disabled', 'adaptive', 'between_tools'] as const;

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isOneOf<T extends string>(value: unknown, values: readonly T[]): value is T {
  return typeof value === 'string' && (values as readonly string[]).includes(value);
}

/** Thrown inside the parser to stop at the first error; never escapes parseRequest. */
class Rejection {
  constructor(readonly message: string) {}
}

function reject(message: string): never {
  throw new Rejection(message);
}

export function parseRequest(body: unknown, options: ValidateOptions): ParseResult {
  try {
    return { ok: true, request: parseOrThrow(body, options) };
  } catch (error) {
    if (error instanceof Rejection) return { ok: false, message: error.message };
    throw error;
  }
}

function parseOrThrow(body: unknown, options: ValidateOptions): ParsedRequest {
  const version = options.anthropicVersion;
  if (version === undefined || version === '') reject(errorText.versionMissing);
  if (!KNOWN_API_VERSIONS.includes(version)) reject(errorText.versionUnknown(version));
  if (!isJsonObject(body)) reject(errorText.notA('body', 'dictionary'));

  const allowed = options.endpoint === 'messages' ? MESSAGES_FIELDS : COUNT_TOKENS_FIELDS;
  // Older versions still take the sampling parameters (count_tokens never did).
  const samplingAllowed = options.endpoint === 'messages' && version !== API_VERSION_2026;
  for (const key of Object.keys(body)) {
    if (allowed.has(key)) continue;
    if (samplingAllowed && isOneOf(key, SAMPLING_PARAMS)) continue;
    reject(errorText.extraInput(key));
  }

  if (!('model' in body)) reject(errorText.fieldRequired('model'));
  if (typeof body.model !== 'string') reject(errorText.notA('model', 'string'));

  let maxTokens: number | undefined;
  if (options.endpoint === 'messages') {
    if (!('max_tokens' in body)) reject(errorText.fieldRequired('max_tokens'));
    maxTokens = parseInteger(body.max_tokens, 'max_tokens', 1);
  }
  if (samplingAllowed) {
    for (const key of SAMPLING_PARAMS) if (key in body) parseNumber(body[key], key);
  }

  let stream = false;
  if ('stream' in body) {
    if (typeof body.stream !== 'boolean') reject(errorText.notA('stream', 'boolean'));
    stream = body.stream;
  }
  if ('stop_sequences' in body) {
    if (!Array.isArray(body.stop_sequences)) reject(errorText.notA('stop_sequences', 'list'));
    body.stop_sequences.forEach((s: unknown, i: number) => {
      if (typeof s !== 'string') reject(errorText.notA(`stop_sequences.${i}`, 'string'));
    });
  }
  if ('metadata' in body && !isJsonObject(body.metadata)) reject(errorText.notA('metadata', 'dictionary'));
  if ('thinking' in body) checkThinking(body.thinking, maxTokens);
  if ('tool_choice' in body) checkToolChoice(body.tool_choice);
  if ('cache_control' in body && body.cache_control !== null)
    checkCacheControl(body.cache_control, 'cache_control');

  if (!('messages' in body)) reject(errorText.fieldRequired('messages'));
  if (!Array.isArray(body.messages)) reject(errorText.notA('messages', 'list'));
  const messages = body.messages.map((m: unknown, i: number) => parseMessage(m, i));
  const system = 'system' in body && body.system !== null ? parseSystem(body.system) : undefined;
  const tools = 'tools' in body && body.tools !== null ? parseTools(body.tools) : undefined;

  if (messages.length === 0) reject(errorText.messagesEmpty);
  // A compaction block stands first, in the assistant message the compaction answered with.
  if (messages[0]?.role !== 'user' && blocksOf(messages[0]!)[0]?.type !== 'compaction')
    reject(errorText.firstMessageNotUser);
  checkContent(messages);
  // A compaction request ending on an open tool call gets its own refusal (compaction.ts).
  const compacting = 'compaction' in body && body.compaction !== null;
  checkToolPairing(messages, compacting);

  const breakpoints =
    countCacheControls(messages, system, tools) + ('cache_control' in body && body.cache_control ? 1 : 0);
  if (breakpoints > MAX_CACHE_BREAKPOINTS) reject(errorText.tooManyCacheControl(breakpoints));

  const request: ParsedRequest = {
    endpoint: options.endpoint,
    model: body.model,
    stream,
    messages,
    raw: body,
    ...(maxTokens !== undefined ? { max_tokens: maxTokens } : {}),
    ...(system !== undefined ? { system } : {}),
    ...(tools !== undefined ? { tools } : {})
  };

  // count_tokens measures prompts of any size (that is what it is for), so only messages is capped.
  // With context editing the window applies to the prompt after the edits (context-editing.ts).
  if (
    options.endpoint === 'messages' &&
    options.contextWindow !== undefined &&
    options.countPromptTokens &&
    (body.context_management === undefined || body.context_management === null)
  ) {
    const window =
      typeof options.contextWindow === 'number'
        ? options.contextWindow
        : options.contextWindow(request.model);
    const tokens = options.countPromptTokens(request);
    if (tokens > window) reject(errorText.promptTooLong(tokens, window));
  }
  return request;
}

function parseInteger(value: unknown, path: string, min: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value)) reject(errorText.notA(path, 'integer'));
  if (value < min) reject(errorText.greaterOrEqual(path, min));
  return value;
}

function parseNumber(value: unknown, path: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) reject(errorText.notA(path, 'number'));
  return value;
}

function checkThinking(thinking: unknown, maxTokens: number | undefined): void {
  if (!isJsonObject(thinking)) reject(errorText.notA('thinking', 'dictionary'));
  if (!isOneOf(thinking.type, THINKING_TYPES)) reject(errorText.literal('thinking.type', THINKING_TYPES));
  if ('block_binding' in thinking && thinking.block_binding !== null) {
    const path = `thinking.${thinking.type}.block_binding`;
    if (!isJsonObject(thinking.block_binding)) reject(errorText.notA(path, 'dictionary'));
    const behavior = thinking.block_binding.prefix_mismatch_behavior;
    if (behavior !== undefined && behavior !== null && !isOneOf(behavior, ['error', 'drop_block']))
      reject(errorText.literal(`${path}.prefix_mismatch_behavior`, ['error', 'drop_block']));
  }
  if (thinking.type !== 'enabled') return;
  const budget = parseInteger(thinking.budget_tokens, 'thinking.enabled.budget_tokens', 1024);
  if (maxTokens !== undefined && maxTokens <= budget) reject(errorText.maxTokensBelowBudget);
}

function checkToolChoice(choice: unknown): void {
  if (!isJsonObject(choice)) reject(errorText.notA('tool_choice', 'dictionary'));
  if (!isOneOf(choice.type, TOOL_CHOICE_TYPES)) {
    reject(errorText.unknownBlockType('tool_choice', String(choice.type), TOOL_CHOICE_TYPES));
  }
  if (choice.type === 'tool' && typeof choice.name !== 'string') {
    reject(errorText.fieldRequired('tool_choice.tool.name'));
  }
}

function checkCacheControl(value: unknown, path: string): asserts value is CacheControl {
  if (!isJsonObject(value)) reject(errorText.notA(path, 'dictionary'));
  if (value.type !== 'ephemeral') reject(errorText.literal(`${path}.type`, ['ephemeral']));
  if ('ttl' in value && !isOneOf(value.ttl, ['5m', '1h']))
    reject(errorText.literal(`${path}.ttl`, ['5m', '1h']));
}

function checkExtraFields(block: JsonObject, path: string, type: string): void {
  const fields = BLOCK_FIELDS[type];
  if (!fields) return;
  for (const key of Object.keys(block))
    if (!fields.has(key)) reject(errorText.extraInput(`${path}.${type}.${key}`));
}

function parseTextBlock(block: JsonObject, path: string): TextBlockParam {
  checkExtraFields(block, path, 'text');
  if (typeof block.text !== 'string') reject(errorText.notA(`${path}.text.text`, 'string'));
  if ('cache_control' in block && block.cache_control !== null)
    checkCacheControl(block.cache_control, `${path}.text.cache_control`);
  return block as unknown as TextBlockParam;
}

function parseMessage(value: unknown, i: number): MessageParam {
  const path = `messages.${i}`;
  if (!isJsonObject(value)) reject(errorText.notA(path, 'dictionary'));
  for (const key of Object.keys(value)) {
    if (key !== 'role' && key !== 'content') reject(errorText.extraInput(`${path}.${key}`));
  }
  if (!('role' in value)) reject(errorText.fieldRequired(`${path}.role`));
  if (!isOneOf(value.role, ['user', 'assistant'])) reject(errorText.roleInvalid(i));
  if (!('content' in value)) reject(errorText.fieldRequired(`${path}.content`));
  const content = value.content;
  if (typeof content === 'string') return { role: value.role, content };
  if (!Array.isArray(content)) reject(errorText.notA(`${path}.content`, 'list'));
  return {
    role: value.role,
    content: content.map((b: unknown, k: number) => parseBlock(b, `${path}.content.${k}`))
  };
}

function parseBlock(value: unknown, path: string): ContentBlockParam {
  if (!isJsonObject(value)) reject(errorText.notA(path, 'dictionary'));
  if (!isOneOf(value.type, MESSAGE_BLOCK_TYPES)) {
    reject(errorText.unknownBlockType(path, String(value.type), MESSAGE_BLOCK_TYPES));
  }
  const type = value.type;
  checkExtraFields(value, path, type);
  if ('cache_control' in value && value.cache_control !== null) {
    checkCacheControl(value.cache_control, `${path}.${type}.cache_control`);
  }
  switch (type) {
    case 'text':
      return parseTextBlock(value, path);
    case 'tool_use':
      if (typeof value.id !== 'string') reject(errorText.notA(`${path}.tool_use.id`, 'string'));
      if (typeof value.name !== 'string') reject(errorText.notA(`${path}.tool_use.name`, 'string'));
      if (!isJsonObject(value.input)) reject(errorText.notA(`${path}.tool_use.input`, 'dictionary'));
      break;
    case 'tool_result':
      if (typeof value.tool_use_id !== 'string')
        reject(errorText.notA(`${path}.tool_result.tool_use_id`, 'string'));
      if ('is_error' in value && typeof value.is_error !== 'boolean') {
        reject(errorText.notA(`${path}.tool_result.is_error`, 'boolean'));
      }
      if ('content' in value && typeof value.content !== 'string') {
        if (!Array.isArray(value.content)) reject(errorText.notA(`${path}.tool_result.content`, 'list'));
        value.content.forEach((c: unknown, j: number) =>
          parseToolResultContent(c, `${path}.tool_result.content.${j}`)
        );
      }
      break;
    case 'thinking':
      if (typeof value.thinking !== 'string') reject(errorText.notA(`${path}.thinking.thinking`, 'string'));
      if (typeof value.signature !== 'string') reject(errorText.notA(`${path}.thinking.signature`, 'string'));
      break;
    case 'redacted_thinking':
      if (typeof value.data !== 'string') reject(errorText.notA(`${path}.redacted_thinking.data`, 'string'));
      break;
    case 'compaction':
      for (const field of ['content', 'encrypted_content', 'signature'] as const) {
        const v = value[field];
        if (v !== undefined && v !== null && typeof v !== 'string')
          reject(errorText.notA(`${path}.compaction.${field}`, 'string'));
      }
      break;
    default:
      break;
  }
  // The checks above are exactly the fields of the block type, so the cast is safe.
  return value as unknown as ContentBlockParam;
}

function parseToolResultContent(value: unknown, path: string): ToolResultContentBlock {
  if (!isJsonObject(value)) reject(errorText.notA(path, 'dictionary'));
  if (!isOneOf(value.type, TOOL_RESULT_CONTENT_TYPES)) {
    reject(errorText.unknownBlockType(path, String(value.type), TOOL_RESULT_CONTENT_TYPES));
  }
  if (value.type === 'text') return parseTextBlock(value, path);
  if ('cache_control' in value && value.cache_control !== null) {
    checkCacheControl(value.cache_control, `${path}.${value.type}.cache_control`);
  }
  return value as unknown as ToolResultContentBlock;
}

function parseSystem(value: unknown): string | TextBlockParam[] {
  if (typeof value === 'string') return value;
  if (!Array.isArray(value)) reject(errorText.notA('system', 'list'));
  const blocks = value.map((b: unknown, k: number) => {
    const path = `system.${k}`;
    if (!isJsonObject(b)) reject(errorText.notA(path, 'dictionary'));
    if (b.type !== 'text') reject(errorText.unknownBlockType(path, String(b.type), ['text']));
    return parseTextBlock(b, path);
  });
  for (const b of blocks) {
    if (b.text === '') reject(errorText.textEmpty('system'));
    if (b.text.trim() === '') reject(errorText.textWhitespace('system'));
  }
  return blocks;
}

function parseTools(value: unknown): ToolParam[] {
  if (!Array.isArray(value)) reject(errorText.notA('tools', 'list'));
  const names = new Set<string>();
  return value.map((t: unknown, i: number) => {
    const path = `tools.${i}`;
    if (!isJsonObject(t)) reject(errorText.notA(path, 'dictionary'));
    if (!('name' in t)) reject(errorText.fieldRequired(`${path}.name`));
    if (typeof t.name !== 'string') reject(errorText.notA(`${path}.name`, 'string'));
    if (!TOOL_NAME_PATTERN.test(t.name)) reject(errorText.toolNamePattern(i));
    // Anthropic-defined tools (bash_20250124, web_search_..., ...) carry a versioned type and no schema.
    const custom = t.type === undefined || t.type === null || t.type === 'custom';
    if (!custom && typeof t.type !== 'string') reject(errorText.notA(`${path}.type`, 'string'));
    if (custom) {
      if ('description' in t && typeof t.description !== 'string')
        reject(errorText.notA(`${path}.description`, 'string'));
      if (!('input_schema' in t)) reject(errorText.fieldRequired(`${path}.input_schema`));
      if (!isJsonObject(t.input_schema)) reject(errorText.notA(`${path}.input_schema`, 'dictionary'));
      if (t.input_schema.type !== 'object')
        reject(errorText.literal(`${path}.input_schema.type`, ['object']));
    }
    if ('cache_control' in t && t.cache_control !== null)
      checkCacheControl(t.cache_control, `${path}.cache_control`);
    if (names.has(t.name)) reject(errorText.toolNamesNotUnique);
    names.add(t.name);
    return t as ToolParam;
  });
}

/** Content is a string or blocks; a string counts as one text block (the API converts it so). */
export function blocksOf(message: MessageParam): ContentBlockParam[] {
  return typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
}

function checkText(text: string): void {
  if (text === '') reject(errorText.textEmpty('messages'));
  if (text.trim() === '') reject(errorText.textWhitespace('messages'));
}

function checkContent(messages: readonly MessageParam[]): void {
  const last = messages.length - 1;
  messages.forEach((message, i) => {
    const blocks = blocksOf(message);
    if (blocks.length === 0 && !(i === last && message.role === 'assistant'))
      reject(errorText.emptyContent(i));
    blocks.forEach((block, k) => {
      if (block.type === 'text') checkText(block.text);
      if (block.type === 'tool_result' && Array.isArray(block.content)) {
        for (const c of block.content) if (c.type === 'text') checkText(c.text);
      }
      if (block.type === 'tool_use' && message.role !== 'assistant')
        reject(errorText.blockInWrongRole(i, k, 'tool_use', 'user'));
      if (block.type === 'tool_result' && message.role !== 'user') {
        reject(errorText.blockInWrongRole(i, k, 'tool_result', 'assistant'));
      }
    });
    // A prefilled final assistant turn must not end in whitespace (the model would continue after it).
    const lastBlock = blocks.at(-1);
    if (
      i === last &&
      message.role === 'assistant' &&
      lastBlock?.type === 'text' &&
      /\s$/.test(lastBlock.text)
    ) {
      reject(errorText.finalAssistantTrailingWhitespace);
    }
  });
}

interface Located {
  messageIndex: number;
  blockIndex: number;
  block: ContentBlockParam;
}

interface Turn {
  role: MessageParam['role'];
  firstMessageIndex: number;
  items: Located[];
}

/** Consecutive same-role messages are merged by the API before pairing is checked, so pair on merged turns. */
function toTurns(messages: readonly MessageParam[]): Turn[] {
  const turns: Turn[] = [];
  messages.forEach((message, messageIndex) => {
    let turn = turns.at(-1);
    if (!turn || turn.role !== message.role) {
      turn = { role: message.role, firstMessageIndex: messageIndex, items: [] };
      turns.push(turn);
    }
    blocksOf(message).forEach((block, blockIndex) => turn.items.push({ messageIndex, blockIndex, block }));
  });
  return turns;
}

function checkToolPairing(messages: readonly MessageParam[], openLastTurnAllowed = false): void {
  const turns = toTurns(messages);
  const allToolUseIds = new Set<string>();
  turns.forEach((turn, t) => {
    if (turn.role === 'user') {
      const previous = turns[t - 1];
      const offered = new Set(previous ? toolUses(previous).map((u) => u.id) : []);
      const answered = new Set<string>();
      for (const { messageIndex, blockIndex, block } of turn.items) {
        if (block.type !== 'tool_result') continue;
        if (!offered.has(block.tool_use_id))
          reject(errorText.unexpectedToolResult(messageIndex, blockIndex, block.tool_use_id));
        if (answered.has(block.tool_use_id))
          reject(errorText.duplicateToolResult(messageIndex, blockIndex, block.tool_use_id));
        answered.add(block.tool_use_id);
      }
      return;
    }
    const uses = toolUses(turn);
    if (uses.length === 0) return;
    for (const use of uses) {
      if (allToolUseIds.has(use.id))
        reject(errorText.duplicateToolUseId(use.messageIndex, use.blockIndex, use.id));
      allToolUseIds.add(use.id);
    }
    const next = turns[t + 1];
    if (!next && openLastTurnAllowed) return;
    const results = new Set<string>();
    for (const { block } of next?.items ?? [])
      if (block.type === 'tool_result') results.add(block.tool_use_id);
    const missing = uses.filter((u) => !results.has(u.id));
    const firstMissing = missing[0];
    if (firstMissing) {
      reject(
        errorText.toolUseWithoutResult(
          firstMissing.messageIndex,
          missing.map((u) => u.id)
        )
      );
    }
    // All answered; they must also lead the next turn, one per tool_use.
    const leading = next ? next.items.findIndex((item) => item.block.type !== 'tool_result') : 0;
    const leadingCount = leading === -1 ? (next?.items.length ?? 0) : leading;
    if (next && leadingCount < uses.length)
      reject(errorText.toolResultsNotFirst(next.firstMessageIndex, uses.length));
  });
}

function toolUses(turn: Turn): Array<{ id: string; messageIndex: number; blockIndex: number }> {
  const uses: Array<{ id: string; messageIndex: number; blockIndex: number }> = [];
  for (const { messageIndex, blockIndex, block } of turn.items) {
    if (block.type === 'tool_use') uses.push({ id: block.id, messageIndex, blockIndex });
  }
  return uses;
}

function hasCacheControl(block: { cache_control?: CacheControl | null }): boolean {
  return block.cache_control !== undefined && block.cache_control !== null;
}

/** Breakpoints anywhere in the prompt: tools, system blocks, message blocks and blocks nested in tool results. */
export function countCacheControls(
  messages: readonly MessageParam[],
  system: string | readonly TextBlockParam[] | undefined,
  tools: readonly ToolParam[] | undefined
): number {
  let count = 0;
  for (const tool of tools ?? []) if (hasCacheControl(tool)) count++;
  if (Array.isArray(system)) for (const block of system) if (hasCacheControl(block)) count++;
  for (const message of messages) {
    if (typeof message.content === 'string') continue;
    for (const block of message.content) {
      if (hasCacheControl(block)) count++;
      if (block.type === 'tool_result' && Array.isArray(block.content)) {
        for (const inner of block.content) if (hasCacheControl(inner)) count++;
      }
    }
  }
  return count;
}
