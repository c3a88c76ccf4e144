/** Stop reasons on demand, seen through the real SDK (streamed, as the loop reads them, and not). */
import Anthropic from '@anthropic-ai/sdk';
import {
  contextWindowExceeded,
  maxTokensInToolUse,
  pauseTurn,
  refusal,
  reply,
  scriptFrom,
  startFakeAnthropic,
  text,
  thinking,
  toolUse,
  type FakeAnthropic,
  type FakeAnthropicOptions
} from '../../test-support/fake-anthropic/index.js';
import { answered, clientFor, readFileTool } from './helpers.js';

const MODEL = 'claude-sonnet-5-5';
const params = {
  model: MODEL,
  max_tokens: 1000,
  tools: [readFileTool],
  messages: [{ role: 'user' as const, content: 'Read src/index.ts and summarise it.' }]
};

let fake: FakeAnthropic;
let client: Anthropic;
async function start(options: FakeAnthropicOptions): Promise<void> {
  fake = await startFakeAnthropic(options);
  client = clientFor(fake);
}
afterEach(() => fake.close());

const streamed = () => client.messages.stream(params).finalMessage();

describe('stop reasons a script can end on', () => {
  test('model_context_window_exceeded with the partial content written so far', async () => {
    await start({
      script: scriptFrom([contextWindowExceeded(thinking('Long plan.'), text('The file defines'))])
    });
    const message = await streamed();
    expect(message.stop_reason).toBe('model_context_window_exceeded');
    expect(message.content.map((b) => b.type)).toEqual(['thinking', 'text']);
    expect(message.content[1]).toMatchObject({ text: 'The file defines' });
  });

  test('pause_turn, and the conversation sent back as is goes on', async () => {
    await start({ script: scriptFrom([pauseTurn(text('Still working.')), reply(text('Done.'))]) });
    const paused = await streamed();
    expect(paused.stop_reason).toBe('pause_turn');
    const resumed = await client.messages.create({
      ...params,
      messages: [...params.messages, { role: 'user', content: 'Go on.' }]
    });
    expect(resumed.stop_reason).toBe('end_turn');
  });

  test('refusal carries stop_details, streamed and not', async () => {
    await start({ script: () => refusal('cyber', text('I cannot help with that.')) });
    const message = await streamed();
    expect(message.stop_reason).toBe('refusal');
    expect(message.stop_details).toEqual({ type: 'refusal', category: 'cyber', explanation: null });
    const plain = await client.messages.create(params);
    expect(plain.stop_details).toEqual({ type: 'refusal', category: 'cyber', explanation: null });
  });

  test('max_tokens inside a tool call: the SDK keeps only the complete fields; the plain answer has input {}', async () => {
    const input = { path: 'src/index.ts', reason: 'to see the entry point' };
    const json = JSON.stringify(input); // {"path":"src/index.ts","reason":"to see the entry point"}
    const cut = json.indexOf('"reason"') + '"reason":"to see'.length;
    await start({ script: () => maxTokensInToolUse([text('Reading.')], 'read_file', input, cut) });

    const message = await streamed();
    expect(message.stop_reason).toBe('max_tokens');
    const call = message.content[1];
    if (call?.type !== 'tool_use') throw new Error('expected the cut tool_use last');
    // What SDK 1.x does with `{"path":"src/index.ts","reason":"to see`: the unfinished value is dropped.
    expect(call.input).toEqual({ path: 'src/index.ts' });

    await fake.close();
    await start({ script: () => maxTokensInToolUse([], 'read_file', input, '{"path":"src/ind'.length) });
    const cutInKey = await streamed();
    // `{"path":"src/ind`: nothing complete yet, so the input is {} (a call without its required path).
    expect(cutInKey.content[0]).toMatchObject({ type: 'tool_use', input: {} });

    const plain = await client.messages.create(params);
    expect(plain.stop_reason).toBe('max_tokens');
    expect(plain.content[0]).toMatchObject({ type: 'tool_use', name: 'read_file', input: {} });
  });

  test('contextWindowExceededAt: that call ends on model_context_window_exceeded without its tool calls', async () => {
    await start({
      script: () => reply(text('Reading next.'), toolUse('read_file', { path: 'a.ts' })),
      contextWindowExceededAt: [1]
    });
    expect((await streamed()).stop_reason).toBe('tool_use');
    const exceeded = await streamed();
    expect(exceeded.stop_reason).toBe('model_context_window_exceeded');
    expect(exceeded.content).toEqual([{ type: 'text', text: 'Reading next.', citations: null }]);
    expect(answered(fake.requests[1]).message.stop_reason).toBe('model_context_window_exceeded');
    expect((await streamed()).stop_reason).toBe('tool_use');
  });
});
