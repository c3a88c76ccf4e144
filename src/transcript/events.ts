import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import type { StopReason } from '../agent/stop-reason.js';
import type { CompactionEvent } from '../compaction/compactor.js';
import type { McpServerRecord } from '../tools/mcp/index.js';

/**
 * What a run on a thread was asked, as the action knew it when the run started: the thread's original
 * task and the requests people made, oldest first (the last is this run's). The next run's follow-up
 * reads these fields back; it never parses them out of the task's prose, which quotes text the model
 * and the repository wrote.
 */
export interface ThreadRecord {
  readonly original_task: string;
  readonly requests: readonly string[];
}

/** Token counts per class, snake_case as they appear on disk. */
export interface UsageRecord {
  readonly input: number;
  readonly cache_write: number;
  readonly cache_read: number;
  readonly output: number;
}

/**
 * One line of `.transcripts/<run-id>/transcript.jsonl`. The README documents this format; the audit
 * viewer and compaction read it, so fields are only ever added, never renamed.
 */
export type TranscriptEvent =
  | {
      readonly type: 'run_start';
      readonly run_id: string;
      readonly task: string;
      readonly model: string;
      readonly repo: string;
      readonly system_prompt: string;
      readonly tools: readonly string[];
      readonly limits: {
        readonly max_turns: number;
        readonly timeout_minutes: number;
        readonly max_budget_usd: number;
      };
      readonly context_window: number;
      /** Auto-compaction's threshold (absent when the compactor has none): the audit chart draws it. */
      readonly compaction_threshold_tokens?: number;
      /** The MCP servers started for the run: command, args, env names, the tools offered and not. */
      readonly mcp_servers?: readonly McpServerRecord[];
      /** The thread's work as the action knew it (absent outside a thread); see ThreadRecord. */
      readonly thread?: ThreadRecord;
    }
  | {
      readonly type: 'message';
      readonly turn: number;
      /** Position in the history the model sees; compaction rewrites the history, the transcript keeps all. */
      readonly index: number;
      readonly role: MessageParam['role'];
      readonly content: MessageParam['content'];
      /**
       * Set on messages that were never part of the agent's history: what a summary request sent
       * (history copies a compaction made on the way, the instruction) and the summary reply.
       */
      readonly context?: 'summary_request' | 'summary_reply';
    }
  | {
      readonly type: 'request';
      readonly turn: number;
      readonly message_count: number;
      readonly max_tokens: number;
      /** The compactor's estimate of this request's context, to compare with the response's usage. */
      readonly estimated_context_tokens: number | null;
    }
  | {
      readonly type: 'response';
      readonly turn: number;
      readonly message_id: string;
      readonly stop_reason: string | null;
      readonly usage: UsageRecord;
      readonly context_tokens: number;
      readonly cost_usd: number;
      readonly total_cost_usd: number;
      readonly duration_ms: number;
    }
  | { readonly type: 'retry'; readonly turn: number; readonly attempt: number; readonly error: string }
  | {
      readonly type: 'tool_result';
      readonly turn: number;
      readonly tool_use_id: string;
      readonly name: string;
      readonly is_error: boolean;
      readonly duration_ms: number;
    }
  | { readonly type: 'compaction_requested'; readonly turn: number; readonly focus: string | null }
  | ({ readonly type: 'compaction' } & CompactionEvent)
  | {
      readonly type: 'run_end';
      readonly stop_reason: StopReason;
      readonly turns: number;
      readonly usage: UsageRecord;
      readonly cost_usd: number;
      readonly duration_ms: number;
      readonly summary: string;
      readonly error: string | null;
    };

/** What is written: the event plus its sequence number and wall-clock time. */
export type TranscriptLine = TranscriptEvent & { readonly seq: number; readonly time: string };
