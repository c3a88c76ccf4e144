/**
 * The reader takes a message into the timeline by the tag the writer set (events.ts), never by a
 * guess; only a transcript written before the tags falls back to the old guess.
 */
import { parseTranscript } from '../../src/audit/parse-transcript.js';
import type { TranscriptEvent } from '../../src/transcript/events.js';

type Message = Extract<TranscriptEvent, { type: 'message' }>;

const runStart: TranscriptEvent = {
  type: 'run_start',
  run_id: 'tags',
  task: 'fix it',
  model: 'claude-sonnet-5-5',
  repo: '/w',
  system_prompt: 's',
  tools: ['bash'],
  limits: { max_turns: 3, timeout_minutes: 1, max_budget_usd: 1 },
  context_window: 200_000
};

const response = (turn: number): TranscriptEvent => ({
  type: 'response',
  turn,
  message_id: `m${turn}`,
  stop_reason: 'end_turn',
  usage: { input: 1, cache_write: 0, cache_read: 0, output: 1 },
  context_tokens: 100,
  cost_usd: 0.001,
  total_cost_usd: 0.001 * turn,
  duration_ms: 5
});

const said = (turn: number, text: string, tag: Pick<Message, 'history'>): Message => ({
  type: 'message',
  turn,
  index: turn,
  role: 'assistant',
  content: [{ type: 'text', text }],
  ...tag
});

/**
 * Turn 1 says "Done."; a compaction then writes an assistant message of its own under turn 1 (new
 * text, no response before it), and the closing summary repeats "Done." without a response line.
 */
function transcriptOf(tags: { appended: Pick<Message, 'history'>; compaction: Pick<Message, 'history'> }) {
  const events: TranscriptEvent[] = [
    runStart,
    { type: 'message', turn: 0, index: 0, role: 'user', content: 'fix it', ...tags.appended },
    response(1),
    said(1, 'Done.', tags.appended),
    said(1, 'Earlier turns, summarised.', tags.compaction),
    said(1, 'Done.', tags.appended)
  ];
  return events
    .map((event, seq) => JSON.stringify({ seq, time: '2026-11-23T12:00:00.000Z', ...event }))
    .join('\n');
}

describe('messages in the timeline', () => {
  it('a tagged transcript: the agent’s own messages count, a compaction’s never, whatever their words', () => {
    const audit = parseTranscript(
      transcriptOf({ appended: { history: 'appended' }, compaction: { history: 'compaction' } })
    );
    expect(audit.skippedLines).toEqual([]);
    // The closing summary repeated the reply: it is still the agent's message, so it is shown.
    expect(audit.timeline.map((turn) => turn.text)).toEqual(['Done.\nDone.']);
  });

  it('an untagged transcript (an older writer): the old guess, which is what these tags replace', () => {
    const audit = parseTranscript(transcriptOf({ appended: {}, compaction: {} }));
    // The guess takes the compaction's new words for the turn's, and drops the repeated summary.
    expect(audit.timeline.map((turn) => turn.text)).toEqual(['Done.\nEarlier turns, summarised.']);
  });

  it('tool results: only those of the agent’s own messages, never a compaction’s placeholder', () => {
    const call: Message = {
      type: 'message',
      turn: 1,
      index: 1,
      role: 'assistant',
      history: 'appended',
      content: [{ type: 'tool_use', id: 'call-1', name: 'bash', input: { command: 'ls' } }]
    };
    const result = (content: string, history: Message['history']): Message => ({
      type: 'message',
      turn: 1,
      index: 2,
      role: 'user',
      history,
      content: [{ type: 'tool_result', tool_use_id: 'call-1', content }]
    });
    // A compaction's copy that comes first (as a summary request's history can) does not win.
    const events: TranscriptEvent[] = [
      runStart,
      response(1),
      call,
      result('[cleared: 3 lines]', 'compaction'),
      result('a\nb\nc', 'appended'),
      { type: 'message', turn: 1, index: 2, role: 'user', context: 'summary_request', content: 'summarise' }
    ];
    const text = events
      .map((event, seq) => JSON.stringify({ seq, time: '2026-11-23T12:00:00.000Z', ...event }))
      .join('\n');
    expect(parseTranscript(text).timeline[0]!.toolCalls[0]!.output).toBe('a\nb\nc');
  });
});
