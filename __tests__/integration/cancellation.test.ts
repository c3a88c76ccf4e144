import path from 'node:path';
import { wordStatsFixer } from '../../demo/word-stats-fixer.js';
import { stateFromPayload } from '../../test-support/fake-github/index.js';
import { actionWorldPerTest, examplePayload } from '../support/action-world.js';

const startWorld = actionWorldPerTest();

describe('cancellation', () => {
  it('on SIGINT from the runner: stops, keeps the transcript, uploads it, and leaves a cancelled report', async () => {
    const payload = examplePayload('issue_comment', 'created', '/agent fix the failing test');
    const world = await startWorld({
      seed: path.resolve('examples/word-stats'),
      github: stateFromPayload(payload, { senderPermission: 'write' }),
      // The third answer crawls (ten minutes between events): the run is cancelled while it waits.
      anthropic: {
        script: wordStatsFixer,
        faults: (callIndex) => (callIndex === 2 ? { kind: 'slow_stream', delayMs: 600_000 } : undefined)
      }
    });
    let signalledAt: number | undefined;
    const run = await world.run({
      eventName: 'issue_comment',
      payload,
      onSpawn: (child) => {
        const poll = setInterval(() => {
          if (world.modelCalls() >= 3) {
            clearInterval(poll);
            signalledAt = Date.now();
            child.kill('SIGINT');
          }
        }, 20);
      }
    });
    // It stopped on the signal, long before the stream's next event (ten minutes away).
    expect(signalledAt).toBeDefined();
    expect(Date.now() - signalledAt!).toBeLessThan(30_000);
    expect(run.code).toBe(1);
    expect(run.outputs).toMatchObject({
      conclusion: 'failure',
      stop_reason: 'error_during_execution',
      num_turns: '2'
    });
    const report = world.github.createdComments[0]!.body;
    expect(report).toMatch(/^🛑 Cancelled · `error_during_execution`/);
    expect(report).toContain('The run was cancelled.');
    const transcript = world.artifacts
      .files('agent-transcripts-4242-1')
      .get('4242-1/transcript.jsonl')!
      .toString('utf8')
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; seq: number; error?: string });
    expect(transcript.map((line) => line.seq)).toEqual(transcript.map((_, index) => index));
    expect(transcript.at(-1)).toMatchObject({ type: 'run_end', error: 'The run was cancelled.' });
    expect(transcript.filter((line) => line.type === 'response')).toHaveLength(2);
  }, 120_000);
});
