import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { MessageParam, ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages';
import type { CompactionTrigger, Compactor } from '../../src/compaction/compactor.js';
import { createTempRepo, type TempRepo } from '../support/temp-repo.js';
import {
  MemoryTranscript,
  ScriptedModelClient,
  reply,
  text,
  toolUse
} from '../support/scripted-model-client.js';
import { runTestAgent } from '../support/agent-harness.js';

let repo: TempRepo;
beforeEach(() => {
  repo = createTempRepo();
  repo.write('src/app.js', 'export const answer = 41;\n');
});
afterEach(() => repo.remove());

function toolResults(message: MessageParam | undefined): ToolResultBlockParam[] {
  if (!message || typeof message.content === 'string') return [];
  const blocks: readonly { type: string }[] = message.content;
  return blocks.filter((block): block is ToolResultBlockParam => block.type === 'tool_result');
}

describe('the agent loop', () => {
  it('answers parallel tool calls in one message, in order, and ends on end_turn with the summary', async () => {
    const model = new ScriptedModelClient([
      reply([
        text('Looking around.'),
        toolUse('toolu_1', 'read_file', { path: 'src/app.js' }),
        toolUse('toolu_2', 'read_file', { path: 'missing.js' }),
        toolUse('toolu_3', 'no_such_tool', {})
      ]),
      reply([toolUse('toolu_4', 'edit_file', { path: 'src/app.js', old_string: '41', new_string: '42' })]),
      reply([text('Changed the answer to 42.')])
    ]);
    const transcript = new MemoryTranscript();
    const result = await runTestAgent({ model, repoRoot: repo.root, transcript });

    expect(result.stopReason).toBe('success');
    expect(result.summary).toBe('Changed the answer to 42.');
    expect(result.turns).toBe(3);
    const answers = toolResults(model.requests[1]!.messages.at(-1));
    expect(answers.map((block) => block.tool_use_id)).toEqual(['toolu_1', 'toolu_2', 'toolu_3']);
    expect(answers.map((block) => block.is_error === true)).toEqual([false, true, true]);
    expect(answers[2]!.content).toContain('Unknown tool "no_such_tool"');
    expect(readFileSync(path.join(repo.root, 'src/app.js'), 'utf8')).toBe('export const answer = 42;\n');
  });

  it('sums usage per class and prices it from the model table', async () => {
    const usage = { input: 1_000_000, cacheWrite: 1_000_000, cacheRead: 1_000_000, output: 1_000_000 };
    const model = new ScriptedModelClient(
      [reply([toolUse('a', 'glob', { pattern: '*' })]), reply([text('done')])],
      usage
    );
    const result = await runTestAgent({ model, repoRoot: repo.root, transcript: new MemoryTranscript() });
    expect(result.usage).toEqual({
      input: 2_000_000,
      cacheWrite: 2_000_000,
      cacheWrite1h: 0,
      cacheRead: 2_000_000,
      output: 2_000_000
    });
    // Sonnet 5.5 on the pricing page (2026-11-23): 2 x (2 + 2.50 + 0.10 + 10) USD.
    expect(result.costUsd).toBeCloseTo(29.2, 6);
    expect(result.contextTokensPerTurn).toEqual([3_000_000, 3_000_000]);
  });

  it('records every message sent and received in the transcript, in order', async () => {
    const model = new ScriptedModelClient([
      reply([toolUse('a', 'bash', { command: 'echo hi' }), toolUse('b', 'glob', { pattern: '**/*.js' })]),
      reply([toolUse('c', 'read_file', { path: 'src/app.js' })]),
      reply([text('All done.')])
    ]);
    const transcript = new MemoryTranscript();
    const result = await runTestAgent({ model, repoRoot: repo.root, transcript, task: 'Say hi.' });
    const recorded = transcript
      .ofType('message')
      .map((event) => normalize({ role: event.role, content: event.content } as MessageParam));
    // Everything in the last request plus the final answer, exactly as it was sent.
    const lastRequest = model.requests.at(-1)!.messages.map(normalize);
    expect(recorded).toEqual([
      ...lastRequest,
      normalize({ role: 'assistant', content: [text('All done.')] })
    ]);
    expect(result.history).toHaveLength(recorded.length);
    const types = transcript.events.map((event) => event.type);
    expect(types[0]).toBe('run_start');
    expect(types.at(-1)).toBe('run_end');
    expect(transcript.ofType('tool_result').map((event) => event.name)).toEqual([
      'bash',
      'glob',
      'read_file'
    ]);
    expect(transcript.ofType('response')).toHaveLength(3);
  });

  it('continues after max_tokens and resends after pause_turn', async () => {
    const model = new ScriptedModelClient([
      reply([text('I will now expl')], 'max_tokens'),
      reply([text('...paused')], 'pause_turn'),
      reply([text('Finished.')])
    ]);
    const result = await runTestAgent({ model, repoRoot: repo.root, transcript: new MemoryTranscript() });
    expect(result.stopReason).toBe('success');
    expect(model.requests[1]!.messages.at(-1)).toMatchObject({ role: 'user' });
    expect(JSON.stringify(model.requests[1]!.messages.at(-1))).toContain('cut off by the output limit');
    expect(model.requests[2]!.messages.at(-1)).toMatchObject({ role: 'assistant' });
  });

  it('calls the compactor before every request, and after a compact call once the turn is answered', async () => {
    const calls: Array<{ trigger: CompactionTrigger; last: MessageParam | undefined }> = [];
    const compactor: Compactor = {
      async compact(history, trigger) {
        calls.push({ trigger, last: history.at(-1) });
        return { history, events: [] };
      }
    };
    const model = new ScriptedModelClient([
      reply([
        toolUse('a', 'compact', { focus: 'keep the test names' }),
        toolUse('b', 'glob', { pattern: '*' })
      ]),
      reply([text('done')])
    ]);
    const result = await runTestAgent({
      model,
      repoRoot: repo.root,
      transcript: new MemoryTranscript(),
      compactor
    });
    expect(result.stopReason).toBe('success');
    expect(calls.map((call) => call.trigger)).toEqual([
      { kind: 'before_request' },
      { kind: 'manual', focus: 'keep the test names' },
      { kind: 'before_request' }
    ]);
    // Both tool calls are answered before the manual compaction sees the history.
    expect(toolResults(calls[1]!.last).map((block) => block.tool_use_id)).toEqual(['a', 'b']);
  });

  it('records the messages a compactor writes, so the transcript holds everything that is sent', async () => {
    const compactor: Compactor = {
      async compact(history, trigger) {
        if (trigger.kind !== 'manual') return { history, events: [] };
        return {
          history: [
            history[0]!,
            { role: 'assistant', content: 'Summary so far.' },
            { role: 'user', content: 'Go on.' }
          ],
          events: [
            {
              turn: 1,
              layer: 'manual',
              reason: 'compact tool',
              tokens_before: 100,
              tokens_after: 10,
              results_cleared: 0,
              summary_tokens: 5,
              summary_cost_usd: 0,
              duration_ms: 1,
              segment_path: null,
              focus: null
            }
          ]
        };
      }
    };
    const model = new ScriptedModelClient([reply([toolUse('a', 'compact', {})]), reply([text('done')])]);
    const transcript = new MemoryTranscript();
    const result = await runTestAgent({ model, repoRoot: repo.root, transcript, compactor });
    expect(result.compactionLog).toHaveLength(1);
    const recorded = transcript
      .ofType('message')
      .map((event) =>
        JSON.stringify(normalize({ role: event.role, content: event.content } as MessageParam))
      );
    expect(model.requests[1]!.messages).toHaveLength(3);
    for (const message of model.requests[1]!.messages) {
      expect(recorded).toContain(JSON.stringify(normalize(message)));
    }
  });
});

describe('limits and failures', () => {
  it('stops at max_turns, then asks once for a short closing summary without tools', async () => {
    const model = new ScriptedModelClient([
      ...Array.from({ length: 3 }, (_, i) => reply([toolUse(`t${i}`, 'glob', { pattern: '*' })])),
      reply([text('I listed the files three times; nothing is changed yet.')])
    ]);
    const transcript = new MemoryTranscript();
    const result = await runTestAgent({ model, repoRoot: repo.root, transcript, limits: { maxTurns: 3 } });
    expect(result).toMatchObject({ stopReason: 'error_max_turns', turns: 3 });
    expect(result.summary).toBe(
      'Stopped at the turn limit (max_turns = 3).\n\nI listed the files three times; nothing is changed yet.'
    );
    const closing = model.requests[3]!;
    expect(model.requests).toHaveLength(4);
    // The run's own cap (4,096 in the harness): thinking counts against max_tokens, so 1,024 was too few.
    expect(closing.maxTokens).toBe(4096);
    expect(JSON.stringify(closing.messages.at(-1))).toContain('<run-stopped>Stopped at the turn limit');
    // The last tool results are still answered in the same message, before the instruction.
    expect(JSON.stringify(closing.messages.at(-1))).toContain('"tool_use_id":"t2"');
    expect(transcript.ofType('run_end')[0]).toMatchObject({ stop_reason: 'error_max_turns', turns: 3 });
    expect(JSON.stringify(transcript.ofType('message').at(-1))).toContain('nothing is changed yet');
  });

  it('keeps the plain limit text when the closing summary gives nothing', async () => {
    const model = new ScriptedModelClient([reply([toolUse('x', 'glob', { pattern: '*' })])]);
    const result = await runTestAgent({
      model,
      repoRoot: repo.root,
      transcript: new MemoryTranscript(),
      limits: { maxTurns: 2 }
    });
    expect(result.summary).toBe('Stopped at the turn limit (max_turns = 2).');
  });

  it('stops at max_budget_usd', async () => {
    // 1M uncached input tokens on Sonnet 5.5 cost 2 USD per turn (the pricing page, 2026-11-23).
    const model = new ScriptedModelClient([reply([toolUse('x', 'glob', { pattern: '*' })])], {
      input: 1_000_000,
      cacheWrite: 0,
      cacheRead: 0,
      output: 0
    });
    const result = await runTestAgent({
      model,
      repoRoot: repo.root,
      transcript: new MemoryTranscript(),
      limits: { maxBudgetUsd: 7 }
    });
    // Four turns (8 USD >= 7; with the old $3 price it stopped after three, at 2/3 of what was allowed),
    // and the closing request (which gave no text, but was billed all the same).
    expect(result).toMatchObject({ stopReason: 'error_max_budget_usd', turns: 4 });
    expect(result.costUsd).toBeCloseTo(10, 6);
  });

  it('stops at the timeout, aborting the request in flight, and still gets a closing summary', async () => {
    const model = new ScriptedModelClient([
      // Rejects once aborted, even when the deadline passed before the request was made (a loaded
      // runner can take 200 ms to get here): an abort listener added late would never fire.
      (_request, hooks) =>
        new Promise((_resolve, reject) => {
          if (hooks.signal?.aborted) reject(new Error('aborted'));
          hooks.signal?.addEventListener('abort', () => reject(new Error('aborted')));
        }),
      reply([text('Ran out of time while reading.')])
    ]);
    const result = await runTestAgent({
      model,
      repoRoot: repo.root,
      transcript: new MemoryTranscript(),
      limits: { timeoutMs: 200 }
    });
    expect(result.stopReason).toBe('error_timeout');
    expect(result.summary).toContain('timeout_minutes');
    expect(result.summary).toContain('Ran out of time while reading.');
  });

  it('ends with error_during_execution when the model fails for good, and says why', async () => {
    const model = new ScriptedModelClient([
      reply([toolUse('x', 'glob', { pattern: '*' })]),
      () => {
        throw new Error('API down');
      }
    ]);
    const transcript = new MemoryTranscript();
    const result = await runTestAgent({ model, repoRoot: repo.root, transcript });
    expect(result.stopReason).toBe('error_during_execution');
    expect(result.error).toBe('Error: API down');
    expect(transcript.ofType('run_end')[0]?.error).toBe('Error: API down');
  });

  it('reports a cancelled run', async () => {
    const cancel = new AbortController();
    const model = new ScriptedModelClient([
      (_request, hooks) =>
        new Promise((_resolve, reject) => {
          hooks.signal?.addEventListener('abort', () => reject(new Error('aborted')));
          setTimeout(() => cancel.abort(), 10);
        })
    ]);
    const result = await runTestAgent({
      model,
      repoRoot: repo.root,
      transcript: new MemoryTranscript(),
      signal: cancel.signal
    });
    expect(result).toMatchObject({ stopReason: 'error_during_execution', error: 'The run was cancelled.' });
  });

  it('ends on a refusal without looping, and says what happened and what to do', async () => {
    const model = new ScriptedModelClient([reply([text('I cannot help with that.')], 'refusal')]);
    const result = await runTestAgent({ model, repoRoot: repo.root, transcript: new MemoryTranscript() });
    expect(result).toMatchObject({ stopReason: 'error_during_execution', turns: 1 });
    expect(result.summary).toBe('I cannot help with that.');
    expect(result.error).toMatch(/refused to continue at turn 1 \(stop_reason "refusal"\)/);
    expect(result.error).toMatch(/rephrase the task/);
  });

  it('does not run a tool call cut off by max_tokens: it answers it with an error and goes on', async () => {
    const model = new ScriptedModelClient([
      reply(
        [
          toolUse('toolu_ok', 'read_file', { path: 'src/app.js' }),
          // The SDK hands back whatever JSON arrived before the cut: here a write without its content.
          toolUse('toolu_cut', 'write_file', { path: 'src/app.js' })
        ],
        'max_tokens'
      ),
      reply([text('Done.')])
    ]);
    const result = await runTestAgent({ model, repoRoot: repo.root, transcript: new MemoryTranscript() });
    expect(result.stopReason).toBe('success');
    const answers = toolResults(model.requests[1]!.messages.at(-1));
    expect(answers.map((block) => [block.tool_use_id, block.is_error === true])).toEqual([
      ['toolu_ok', false],
      ['toolu_cut', true]
    ]);
    expect(answers[1]!.content).toContain('cut off by the output limit (max_tokens)');
    expect(readFileSync(path.join(repo.root, 'src/app.js'), 'utf8')).toBe('export const answer = 41;\n');
  });

  it('compacts and asks again after model_context_window_exceeded, dropping the partial reply', async () => {
    const triggers: CompactionTrigger[] = [];
    const compactor: Compactor = {
      async compact(history, trigger) {
        triggers.push(trigger);
        return { history, events: [] };
      }
    };
    const model = new ScriptedModelClient([
      () => ({
        content: [text('Half a thou')],
        stopReason: 'model_context_window_exceeded',
        usage: { input: 900_000, cacheWrite: 0, cacheRead: 0, output: 100_000 }
      }),
      reply([text('Done after compacting.')])
    ]);
    const result = await runTestAgent({
      model,
      repoRoot: repo.root,
      transcript: new MemoryTranscript(),
      compactor
    });
    expect(result).toMatchObject({ stopReason: 'success', summary: 'Done after compacting.' });
    expect(triggers).toContainEqual({
      kind: 'overflow',
      actualTokens: 1_000_000,
      maximumTokens: undefined,
      cause: 'window_exceeded'
    });
    // The partial reply never joined the history: the second request ends with the task, as the first did.
    expect(JSON.stringify(model.requests[1]!.messages)).not.toContain('Half a thou');
  });

  it('gives up with advice when the window is exceeded again and again', async () => {
    const model = new ScriptedModelClient([
      () => ({ content: [text('x')], stopReason: 'model_context_window_exceeded' })
    ]);
    const result = await runTestAgent({ model, repoRoot: repo.root, transcript: new MemoryTranscript() });
    expect(result.stopReason).toBe('error_during_execution');
    expect(result.error).toMatch(/exceeded 3 times in a row.*Lower max_output_tokens/);
    expect(model.requests).toHaveLength(3);
  });
});

/** Compares messages as the API sees them: string content is one text block; cache markers are not content. */
function normalize(message: MessageParam): { role: string; content: unknown[] } {
  const blocks =
    typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
  return {
    role: message.role,
    content: blocks.map((block) => {
      const { cache_control: _marker, ...rest } = block as typeof block & { cache_control?: unknown };
      return rest;
    })
  };
}
