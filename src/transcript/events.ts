import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { z } from 'zod';
import { COMPACTION_LAYERS } from '../compaction/compaction-count.js';
import type { CompactionEvent, CompactionLayer } from '../compaction/compactor.js';
import type { McpServerRecord } from '../tools/mcp/index.js';

/**
 * The one definition of a transcript event: the writer's types are inferred from these schemas and
 * the audit reader checks every line against them. docs/auditing.md ("The transcript") documents this format; fields are only
 * ever added, never renamed, and a field added after the first writer is optional here, so a
 * transcript from before it still reads.
 */

const count = z.number().int().nonnegative();
const tokens = z.number().nonnegative();
const usd = z.number().nonnegative();
const readonlyStrings = z.array(z.string()).readonly();

/** Token counts per class, snake_case as they appear on disk. */
export const usageRecord = z.object({
  input: tokens,
  cache_write: tokens,
  cache_read: tokens,
  output: tokens
});
export type UsageRecord = z.infer<typeof usageRecord>;

/**
 * What a run on a thread was asked, as the action knew it when the run started: the thread's original
 * task and the requests people made, oldest first (the last is this run's). The next run's follow-up
 * reads these fields back; it never parses them out of the task's prose, which quotes text the model
 * and the repository wrote.
 */
export const threadRecord = z.object({
  original_task: z.string(),
  requests: readonlyStrings,
  /**
   * Where a reader of the record finds the run on GitHub (the audit page links them): the thread,
   * the workflow run, and the pull request (its page when known at the start, else the search of
   * pull requests from the run's branch). Optional: older transcripts have none.
   */
  links: z
    .object({
      thread: z.string().optional(),
      run: z.string().optional(),
      pull_request: z.string().optional()
    })
    .optional()
});
export type ThreadRecord = z.infer<typeof threadRecord>;

const mcpServerRecord = z.object({
  name: z.string(),
  command: z.string(),
  args: readonlyStrings,
  env: readonlyStrings,
  tools: readonlyStrings,
  skipped: z.array(z.object({ name: z.string(), reason: z.string() })).readonly()
});

/**
 * The repository's instruction files the run's system prompt holds (see src/instructions/): where
 * they were read (the checkout, or a pull request's base commit), each file used with its size and
 * the bytes of it used (fewer when a cap cut it), and the files not used, with why.
 */
export const instructionsRecord = z.object({
  source: z.string(),
  files: z.array(z.object({ path: z.string(), bytes: count, used_bytes: count })).readonly(),
  skipped: z.array(z.object({ path: z.string(), reason: z.string() })).readonly()
});
export type InstructionsRecord = z.infer<typeof instructionsRecord>;

/** The content blocks the reader takes apart are checked field by field; any other block by its type. */
const READ_BLOCKS = new Set(['text', 'tool_use', 'tool_result']);
const contentBlock = z.union([
  z.looseObject({ type: z.literal('text'), text: z.string() }),
  z.looseObject({ type: z.literal('tool_use'), id: z.string(), name: z.string(), input: z.unknown() }),
  z.looseObject({
    type: z.literal('tool_result'),
    tool_use_id: z.string(),
    content: z.union([z.string(), z.array(z.looseObject({ type: z.string() }))]).optional(),
    is_error: z.boolean().optional()
  }),
  z.looseObject({ type: z.string().refine((type) => !READ_BLOCKS.has(type)) })
]);
const contentShape = z.union([z.string(), z.array(contentBlock)]);
/** Typed as the API's content (what the writer is given), checked as the shape the reader relies on. */
const messageContent = z.custom<MessageParam['content']>((value) => contentShape.safeParse(value).success, {
  message: 'content is neither a string nor a list of well-formed content blocks'
});

/**
 * Why a message is in the transcript; every message the writer records carries one of the two tags.
 * `context`: it was never part of the agent's history (what a summary call sent beyond the history,
 * such as its instruction or history copies a compaction made on the way, and the summary's reply).
 * `history`: how it entered the history: `appended` is the agent's own history, recorded once as it
 * was added (the task, the model's replies, tool results, the loop's prompts, the closing summary);
 * `compaction` is a message a compaction put in place of earlier ones (a summary, cleared results,
 * copies without thinking); `closing_summary` is the last, unsent message again with the closing
 * instruction folded in. Neither tag: written before `history` was added (see parse-transcript.ts).
 */
export const MESSAGE_CONTEXTS = ['summary_request', 'summary_reply'] as const;
export const HISTORY_ENTRIES = ['appended', 'compaction', 'closing_summary'] as const;
export type MessageContext = (typeof MESSAGE_CONTEXTS)[number];
export type HistoryEntry = (typeof HISTORY_ENTRIES)[number];

const runStartEvent = z.object({
  type: z.literal('run_start'),
  run_id: z.string(),
  task: z.string(),
  model: z.string(),
  repo: z.string(),
  system_prompt: z.string(),
  tools: readonlyStrings,
  limits: z.object({ max_turns: count, timeout_minutes: z.number().nonnegative(), max_budget_usd: usd }),
  context_window: count,
  /** Auto-compaction's threshold (absent when the compactor has none): the audit chart draws it. */
  compaction_threshold_tokens: count.optional(),
  /** The MCP servers started for the run: command, args, env names, the tools offered and not. */
  mcp_servers: z.array(mcpServerRecord).readonly().optional(),
  /** The thread's work as the action knew it (absent outside a thread); see ThreadRecord. */
  thread: threadRecord.optional(),
  /** The repository's instruction files in system_prompt (absent when the run read none: switched off, or older). */
  instructions: instructionsRecord.optional(),
  /** A read-only run (a plan or a review: nothing published); absent for a run that changes the repository. */
  mode: z.enum(['plan', 'review']).optional(),
  /** The names (never the values) of the job's variables the agent's shell did not get; absent when none. */
  withheld_env: z.object({ secret: readonlyStrings, unlisted: readonlyStrings }).optional(),
  /** Whether the agent's commands ran in the box, its network, and why not when they did not. */
  sandbox: z
    .object({
      state: z.enum(['on', 'off']),
      network: z.enum(['allowlist', 'off']),
      reason: z.string().optional()
    })
    .optional()
});

const messageEvent = z.object({
  type: z.literal('message'),
  turn: count,
  /** Position in the history the model sees; compaction rewrites the history, the transcript keeps all. */
  index: count,
  role: z.enum(['user', 'assistant', 'system']),
  content: messageContent,
  context: z.enum(MESSAGE_CONTEXTS).optional(),
  history: z.enum(HISTORY_ENTRIES).optional()
});

const requestEvent = z.object({
  type: z.literal('request'),
  turn: count,
  message_count: count,
  max_tokens: count,
  /** The compactor's estimate of this request's context, to compare with the response's usage. */
  estimated_context_tokens: tokens.nullable()
});

const responseEvent = z.object({
  type: z.literal('response'),
  turn: count,
  message_id: z.string(),
  stop_reason: z.string().nullable(),
  usage: usageRecord,
  context_tokens: tokens,
  cost_usd: usd,
  total_cost_usd: usd,
  duration_ms: z.number().nonnegative()
});

const retryEvent = z.object({ type: z.literal('retry'), turn: count, attempt: count, error: z.string() });

const toolResultEvent = z.object({
  type: z.literal('tool_result'),
  turn: count,
  tool_use_id: z.string(),
  name: z.string(),
  is_error: z.boolean(),
  duration_ms: z.number().nonnegative(),
  /** Set when the tool limits refused the call: the rule that did, and the command's first words (or the tool). */
  denied: z.object({ rule: z.string(), head: z.string() }).optional(),
  /** Set when the sandbox's proxy refused destinations during the call (src/sandbox/). */
  sandbox_blocked: z
    .array(z.object({ host: z.string(), port: count, reason: z.string() }))
    .readonly()
    .optional()
});

const compactionRequestedEvent = z.object({
  type: z.literal('compaction_requested'),
  turn: count,
  focus: z.string().nullable()
});

/** The compaction log's fields (compactor.ts CompactionEvent); the page counts them by layer. */
const compactionEvent = z.object({
  type: z.literal('compaction'),
  turn: count,
  layer: z.enum(COMPACTION_LAYERS as [CompactionLayer, ...CompactionLayer[]]),
  reason: z.string(),
  tokens_before: tokens,
  tokens_after: tokens,
  results_cleared: count,
  summary_tokens: tokens,
  summary_cost_usd: usd,
  duration_ms: z.number().nonnegative(),
  segment_path: z.string().nullable(),
  focus: z.string().nullable(),
  summary: z.string().optional(),
  tool_use_ids: readonlyStrings.optional()
});

/**
 * One request for the final answer as JSON (json_schema; src/structured/): the answer as compact JSON
 * when it matched the schema, else null and what was wrong. Its messages are recorded as the others.
 */
const structuredOutputEvent = z.object({
  type: z.literal('structured_output'),
  turn: count,
  /** 1, or 2 when the first answer was asked for again. */
  attempt: count,
  message_id: z.string(),
  stop_reason: z.string().nullable(),
  usage: usageRecord,
  cost_usd: usd,
  output: z.string().nullable(),
  problems: readonlyStrings
});

const runEndEvent = z.object({
  type: z.literal('run_end'),
  /**
   * A StopReason (agent/stop-reason.ts) when written; read as any text, so a reason a later version
   * adds does not make a finished run look unfinished to this reader.
   */
  stop_reason: z.string(),
  turns: count,
  usage: usageRecord,
  cost_usd: usd,
  duration_ms: z.number().nonnegative(),
  summary: z.string(),
  error: z.string().nullable()
});

/** Every event, by its `type`. */
export const transcriptEvent = z.discriminatedUnion('type', [
  runStartEvent,
  messageEvent,
  requestEvent,
  responseEvent,
  retryEvent,
  toolResultEvent,
  compactionRequestedEvent,
  compactionEvent,
  structuredOutputEvent,
  runEndEvent
]);

/** One line of `.transcripts/<run-id>/transcript.jsonl`, before the writer adds seq, time and the chain. */
export type TranscriptEvent = z.infer<typeof transcriptEvent>;
export type TranscriptEventType = TranscriptEvent['type'];
export const TRANSCRIPT_EVENT_TYPES: ReadonlySet<string> = new Set(
  transcriptEvent.options.map((option) => option.shape.type.value)
);

/**
 * What the writer puts in place of an event that redaction broke (the line's end was eaten): the
 * chain stays whole and the reader says which event was lost and why, instead of guessing.
 */
export const unrecordedEvent = z.object({ type: z.string(), unreadable: z.string() });
export type UnrecordedEvent = z.infer<typeof unrecordedEvent>;

/** What is written: the event plus its sequence number and wall-clock time. */
export type TranscriptLine = TranscriptEvent & { readonly seq: number; readonly time: string };

// The types the rest of the code names must be the ones on disk: these fail to compile when either side changes.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const mcpRecordsMatch: Same<Required<McpServerRecord>, z.infer<typeof mcpServerRecord>> = true;
const compactionFieldsMatch: Same<keyof CompactionEvent | 'type', keyof z.infer<typeof compactionEvent>> =
  true;
const compactionEventsFit: CompactionEvent extends Omit<z.infer<typeof compactionEvent>, 'type'>
  ? true
  : false = true;
void [mcpRecordsMatch, compactionFieldsMatch, compactionEventsFit];
