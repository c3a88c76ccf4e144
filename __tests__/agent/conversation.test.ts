import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { Conversation } from '../../src/agent/conversation.js';
import { outcomeOf } from '../../src/agent/reply-outcome.js';
import type { ModelReply } from '../../src/model/model-client.js';
import { MemoryTranscript } from '../support/scripted-model-client.js';

const user = (text: string): MessageParam => ({ role: 'user', content: [{ type: 'text', text }] });
const assistant = (text: string): MessageParam => ({ role: 'assistant', content: [{ type: 'text', text }] });

describe('the conversation, the one owner of the history', () => {
  it('only grows by append, and records each message in the transcript once', () => {
    const transcript = new MemoryTranscript();
    const conversation = new Conversation(transcript, () => 3);
    conversation.append(user('task'));
    conversation.append(assistant('ok'));
    expect(conversation.messages).toHaveLength(2);
    expect(conversation.editPoints).toEqual([]);
    expect(transcript.ofType('message').map((event) => [event.index, event.role])).toEqual([
      [0, 'user'],
      [1, 'assistant']
    ]);
  });

  it('records the edit point of a compaction, found by identity when the compactor does not say', () => {
    const transcript = new MemoryTranscript();
    const conversation = new Conversation(transcript, () => 7);
    const [task, first, second] = [user('task'), assistant('a'), user('b')];
    for (const message of [task, first, second]) conversation.append(message);
    const summary = user('summary');
    conversation.replaceByCompaction([task, summary, second], undefined);
    conversation.replaceByCompaction([summary], 0);
    expect(conversation.editPoints).toEqual([
      { turn: 7, from: 1, by: 'compaction' },
      { turn: 7, from: 0, by: 'compaction' }
    ]);
    // Only the new message was written again.
    expect(transcript.ofType('message')).toHaveLength(4);
  });

  it('tags each message it records with how it got there, so the audit reader never guesses', () => {
    const transcript = new MemoryTranscript();
    const conversation = new Conversation(transcript, () => 2);
    const [task, reply, results] = [user('task'), assistant('a'), user('results')];
    for (const message of [task, reply, results]) conversation.append(message);
    const summary = user('summary');
    conversation.recordExchanges([
      { history: [task, reply, results], messages: [user('summarise')], reply: [{ type: 'text', text: 's' }] }
    ]);
    conversation.replaceByCompaction([summary, results], 0);
    conversation.replaceUnsentLast(user('results, and write your closing summary'));
    const tags = transcript.ofType('message').map((event) => [event.history ?? event.context, event.content]);
    expect(tags).toEqual([
      ['appended', [{ type: 'text', text: 'task' }]],
      ['appended', [{ type: 'text', text: 'a' }]],
      ['appended', [{ type: 'text', text: 'results' }]],
      ['summary_request', [{ type: 'text', text: 'summarise' }]],
      ['summary_reply', [{ type: 'text', text: 's' }]],
      ['compaction', [{ type: 'text', text: 'summary' }]],
      ['closing_summary', [{ type: 'text', text: 'results, and write your closing summary' }]]
    ]);
  });

  it('is not edited when a compaction returns the same history', () => {
    const conversation = new Conversation(new MemoryTranscript(), () => 1);
    conversation.append(user('task'));
    conversation.replaceByCompaction(conversation.messages as MessageParam[], undefined);
    expect(conversation.editPoints).toEqual([]);
  });
});

const replyOf = (stopReason: ModelReply['stopReason'], content: ModelReply['content']): ModelReply => ({
  id: 'm',
  content,
  stopReason,
  usage: { input: 1, cacheWrite: 0, cacheRead: 0, output: 1 }
});
const call = (id: string) => ({ type: 'tool_use' as const, id, name: 'glob', input: {} });

describe('what the loop does with each stop reason', () => {
  it.each([
    ['tool_use', [call('a'), call('b')], { kind: 'answer_tools', calls: [call('a'), call('b')] }],
    [
      'max_tokens',
      [call('a'), call('b')],
      { kind: 'answer_tools', calls: [call('a')], truncated: call('b') }
    ],
    ['max_tokens', [{ type: 'text' as const, text: 'half a sen' }], { kind: 'ask_to_continue' }],
    ['max_tokens', [], { kind: 'empty_cut_off' }],
    ['pause_turn', [{ type: 'text' as const, text: '…' }], { kind: 'resume' }],
    ['model_context_window_exceeded', [], { kind: 'compact_and_retry' }],
    ['refusal', [{ type: 'text' as const, text: 'No.' }], { kind: 'refused', text: 'No.' }],
    ['end_turn', [{ type: 'text' as const, text: 'Done.' }], { kind: 'done', text: 'Done.' }],
    ['stop_sequence', [{ type: 'text' as const, text: 'Stop.' }], { kind: 'done', text: 'Stop.' }]
  ] as const)('%s with %j', (stopReason, content, expected) => {
    expect(outcomeOf(replyOf(stopReason, [...content]))).toEqual(expected);
  });
});
