import type {
  ContentBlockParam,
  MessageParam,
  TextBlockParam,
  ToolResultBlockParam
} from '@anthropic-ai/sdk/resources/messages';
import type { ModelReply } from '../model/model-client.js';
import { answerJson } from './answer-json.js';
import type { OutputSchema } from './output-schema.js';

/** The answer is asked for once, and once more with what was wrong with it. */
export const STRUCTURED_ATTEMPTS = 2;
/** Problems listed back to the model (and in the run's error); the rest are counted. */
const PROBLEMS_SHOWN = 10;
const NOT_RUN = 'Not run: the work is over. Reply with the JSON value only.';

export interface StructuredAttempt {
  /** 1, then 2. */
  readonly attempt: number;
  readonly reply: ModelReply;
  /** What was wrong with the answer; [] when it matched the schema. */
  readonly problems: readonly string[];
  /** The answer, when it matched. */
  readonly value?: unknown;
}

export type StructuredAnswer =
  | { readonly ok: true; readonly value: unknown; readonly attempts: readonly StructuredAttempt[] }
  | {
      readonly ok: false;
      readonly problems: readonly string[];
      readonly attempts: readonly StructuredAttempt[];
    };

export interface StructuredAnswerHooks {
  /**
   * Sends `message` after the history: the caller appends it, calls the model with the run's own
   * request shape, bills the reply and appends it (the model call is handed in; nothing here knows it).
   */
  ask(message: MessageParam): Promise<ModelReply>;
  /** Each attempt as it is judged, for the transcript. */
  onAttempt?(attempt: StructuredAttempt): void;
}

/**
 * After the agent's work, asks the model for its final answer as one JSON value matching `schema`,
 * and checks it; an answer that is not JSON or does not match is asked for again, once, with the
 * problems. A refusal is not asked again (the model said no on policy grounds; it would again).
 */
export async function requestStructuredAnswer(
  schema: OutputSchema,
  hooks: StructuredAnswerHooks
): Promise<StructuredAnswer> {
  const attempts: StructuredAttempt[] = [];
  let message = firstRequest(schema);
  for (let attempt = 1; ; attempt++) {
    const reply = await hooks.ask(message);
    const judged = judge(reply, schema);
    const record: StructuredAttempt = judged.ok
      ? { attempt, reply, problems: [], value: judged.value }
      : { attempt, reply, problems: judged.problems };
    attempts.push(record);
    hooks.onAttempt?.(record);
    if (judged.ok) return { ok: true, value: judged.value, attempts };
    if (attempt >= STRUCTURED_ATTEMPTS || reply.stopReason === 'refusal')
      return { ok: false, problems: judged.problems, attempts };
    message = retryRequest(reply, judged.problems);
  }
}

/** The run's error when no answer matched: the problems of the last one. */
export function structuredFailureMessage(problems: readonly string[], attempts: number): string {
  return (
    `The final answer did not match the JSON Schema (json_schema, --json-schema) after ${attempts} ` +
    `request${attempts === 1 ? '' : 's'} for it, so no structured output was written: ${listed(problems).join('; ')}.`
  );
}

/** The instruction that asks for the answer; the schema is in it, so the prompt's prefix stays cached. */
export function firstRequest(schema: OutputSchema): MessageParam {
  return {
    role: 'user',
    content: [
      textBlock(
        '<structured-output>The work is over. Give the result of this run as data for the workflow that ' +
          'started it: reply with one JSON value that matches the JSON Schema below, and nothing else ' +
          '(no prose, no Markdown fence, no tool calls).\n' +
          `<json-schema>${schema.text}</json-schema></structured-output>`
      )
    ]
  };
}

/** The answer again, with what was wrong; a tool call it made is answered first (the API requires it). */
export function retryRequest(reply: ModelReply, problems: readonly string[]): MessageParam {
  const notRun: ToolResultBlockParam[] = reply.content.flatMap((block) =>
    block.type === 'tool_use'
      ? [{ type: 'tool_result' as const, tool_use_id: block.id, content: NOT_RUN, is_error: true }]
      : []
  );
  return {
    role: 'user',
    content: [
      ...notRun,
      textBlock(
        '<structured-output>That answer was not accepted:\n' +
          listed(problems)
            .map((problem) => `- ${problem}`)
            .join('\n') +
          '\nReply again with only the corrected JSON value, matching the JSON Schema given above.</structured-output>'
      )
    ]
  };
}

type Judgement =
  | { readonly ok: true; readonly value: unknown; readonly problems: readonly [] }
  | {
      readonly ok: false;
      readonly problems: readonly string[];
    };

function judge(reply: ModelReply, schema: OutputSchema): Judgement {
  if (reply.stopReason === 'refusal')
    return { ok: false, problems: ['the model refused to answer (stop_reason "refusal")'] };
  const tools = reply.content.flatMap((block) => (block.type === 'tool_use' ? [block.name] : []));
  if (tools.length > 0)
    return {
      ok: false,
      problems: [`the answer called a tool (${tools.join(', ')}) instead of giving the JSON`]
    };
  const text = textOf(reply.content);
  const parsed = answerJson(text);
  const cutOff = reply.stopReason === 'max_tokens' ? ' (it was cut off by the output limit, max_tokens)' : '';
  if (!parsed.ok) return { ok: false, problems: [`${parsed.problem}${cutOff}`] };
  const problems = schema.check(parsed.value);
  return problems.length === 0 ? { ok: true, value: parsed.value, problems: [] } : { ok: false, problems };
}

function textOf(content: readonly ContentBlockParam[]): string {
  return content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('\n');
}

function listed(problems: readonly string[]): string[] {
  if (problems.length <= PROBLEMS_SHOWN) return [...problems];
  return [...problems.slice(0, PROBLEMS_SHOWN), `and ${problems.length - PROBLEMS_SHOWN} more`];
}

function textBlock(text: string): TextBlockParam {
  return { type: 'text', text };
}
