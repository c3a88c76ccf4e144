import type { RunAudit } from '../run-audit.js';

/** Request lines shown before the rest folds away. */
const REQUEST_PREVIEW_LINES = 6;
/**
 * The blocks the action wraps around a request in the first message (src/github/events/thread-context.ts,
 * src/followup/resume-task.ts): the thread's context and a follow-up's previous run, data for the
 * model, not what the person asked.
 */
const CONTEXT_BLOCK = /<(github-context|previous-run)>[\s\S]*?<\/\1>/g;
const CURRENT_REQUEST = /<current-request>([\s\S]*?)<\/current-request>/;

/** The task box: what the person asked, in front; what the model was given around it, folded. */
export interface TaskBox {
  /** The request as the person wrote it. */
  readonly request: string;
  readonly requestPreview: string;
  readonly requestTruncated: boolean;
  /** The thread's original task, when this run is a follow-up that asked something else. */
  readonly originalTask: string | undefined;
  /** The whole first message (the request with the thread's context); undefined when it is the request itself. */
  readonly firstMessage: string | undefined;
  readonly firstMessageLines: number;
}

/**
 * The request is the thread record's last one (run_start records what people asked, apart from the
 * prompt), else the task without the action's context blocks: a transcript from before the record,
 * or from a run outside a thread.
 */
export function taskBoxOf(audit: Pick<RunAudit, 'task' | 'thread'>): TaskBox | undefined {
  const task = audit.task ?? '';
  const recorded = audit.thread?.requests.at(-1)?.trim();
  const request = recorded || requestIn(task);
  if (request === '' && task.trim() === '') return undefined;
  const shown = request === '' ? task.trim() : request;
  const lines = shown.split('\n');
  const original = audit.thread?.originalTask.trim();
  return {
    request: shown,
    requestPreview: lines.slice(0, REQUEST_PREVIEW_LINES).join('\n'),
    requestTruncated: lines.length > REQUEST_PREVIEW_LINES,
    originalTask: original && original !== shown ? original : undefined,
    firstMessage: task.trim() !== shown ? task : undefined,
    firstMessageLines: task.split('\n').length
  };
}

function requestIn(task: string): string {
  const current = CURRENT_REQUEST.exec(task)?.[1];
  return (current ?? task).replace(CONTEXT_BLOCK, '').trim();
}
