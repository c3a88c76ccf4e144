import type { ContentBlockParam, MessageParam, StopReason } from '@anthropic-ai/sdk/resources/messages';
import type { ModelReply } from '../../src/model/model-client.js';
import { NO_USAGE } from '../../src/model/usage.js';
import { readOutputSchema, type OutputSchema } from '../../src/structured/output-schema.js';
import {
  requestStructuredAnswer,
  structuredFailureMessage,
  type StructuredAttempt
} from '../../src/structured/structured-answer.js';

function schema(): OutputSchema {
  const reading = readOutputSchema(
    '{"type":"object","properties":{"labels":{"type":"array","items":{"type":"string"}}},"required":["labels"]}'
  );
  if (!reading.ok) throw new Error(reading.problems.join('; '));
  return reading.schema;
}

function answer(content: ContentBlockParam[] | string, stopReason: StopReason = 'end_turn'): ModelReply {
  const blocks: ContentBlockParam[] =
    typeof content === 'string' ? [{ type: 'text', text: content }] : content;
  return { id: 'msg', content: blocks, stopReason, usage: NO_USAGE };
}

/** The model boundary in memory: the replies in order, and the messages it was sent. */
function fakeModel(replies: ModelReply[]) {
  const sent: MessageParam[] = [];
  const attempts: StructuredAttempt[] = [];
  return {
    sent,
    attempts,
    hooks: {
      ask: (message: MessageParam) => {
        sent.push(message);
        const next = replies.shift();
        if (!next) throw new Error('asked once too often');
        return Promise.resolve(next);
      },
      onAttempt: (attempt: StructuredAttempt) => attempts.push(attempt)
    }
  };
}

function textOf(message: MessageParam): string {
  return typeof message.content === 'string'
    ? message.content
    : message.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('\n');
}

describe('requestStructuredAnswer', () => {
  it('asks once, with the schema in the message, and takes a matching answer', async () => {
    const model = fakeModel([answer('{"labels": ["bug"]}')]);
    const result = await requestStructuredAnswer(schema(), model.hooks);
    expect(result).toMatchObject({ ok: true, value: { labels: ['bug'] } });
    expect(model.sent).toHaveLength(1);
    expect(textOf(model.sent[0]!)).toContain(`<json-schema>${schema().text}</json-schema>`);
    expect(model.attempts.map(({ attempt, problems }) => ({ attempt, problems }))).toEqual([
      { attempt: 1, problems: [] }
    ]);
  });

  it('asks again once with the problems, and takes the corrected answer', async () => {
    const model = fakeModel([answer('{"labels": "bug"}'), answer('```json\n{"labels": ["bug"]}\n```')]);
    const result = await requestStructuredAnswer(schema(), model.hooks);
    expect(result).toMatchObject({ ok: true, value: { labels: ['bug'] } });
    expect(model.sent).toHaveLength(2);
    expect(textOf(model.sent[1]!)).toMatch(/That answer was not accepted:\n- \/labels: must be array\n/);
    expect(model.attempts.map((attempt) => attempt.problems.length)).toEqual([1, 0]);
  });

  it('gives up after the second answer, with its problems', async () => {
    const model = fakeModel([answer('not json'), answer('{"labels": [1]}')]);
    const result = await requestStructuredAnswer(schema(), model.hooks);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems).toEqual(['/labels/0: must be string']);
    expect(result.attempts).toHaveLength(2);
    expect(structuredFailureMessage(result.problems, 2)).toMatch(
      /^The final answer did not match the JSON Schema \(json_schema, --json-schema\) after 2 requests for it, so no structured output was written: \/labels\/0: /
    );
  });

  it('answers a tool call the model made instead, before asking again (the API requires it)', async () => {
    const call: ContentBlockParam = {
      type: 'tool_use',
      id: 'toolu_1',
      name: 'bash',
      input: { command: 'ls' }
    };
    const model = fakeModel([answer([call], 'tool_use'), answer('{"labels": []}')]);
    const result = await requestStructuredAnswer(schema(), model.hooks);
    expect(result.ok).toBe(true);
    const retry = model.sent[1]!.content as ContentBlockParam[];
    expect(retry[0]).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_1', is_error: true });
    expect(retry[1]).toMatchObject({ type: 'text' });
    expect(model.attempts[0]!.problems).toEqual([
      'the answer called a tool (bash) instead of giving the JSON'
    ]);
  });

  it('does not ask again after a refusal', async () => {
    const model = fakeModel([answer('', 'refusal')]);
    const result = await requestStructuredAnswer(schema(), model.hooks);
    expect(result).toMatchObject({
      ok: false,
      problems: ['the model refused to answer (stop_reason "refusal")']
    });
    expect(model.sent).toHaveLength(1);
  });

  it('says when an answer was cut off by max_tokens, and lists at most ten problems', async () => {
    const many = readOutputSchema(JSON.stringify({ type: 'array', items: { type: 'string' } }));
    if (!many.ok) throw new Error('schema');
    const model = fakeModel([
      answer('{"labels": [', 'max_tokens'),
      answer(JSON.stringify(Array.from({ length: 12 }, (_, i) => i)))
    ]);
    const result = await requestStructuredAnswer(many.schema, model.hooks);
    expect(model.attempts[0]!.problems[0]).toMatch(
      /not valid JSON .*\(it was cut off by the output limit, max_tokens\)$/
    );
    if (result.ok) throw new Error('expected a failure');
    expect(result.problems).toHaveLength(12);
    expect(structuredFailureMessage(result.problems, 2)).toMatch(/; and 2 more\.$/);
  });
});
