import path from 'node:path';
import { wordStatsFixer } from '../../demo/word-stats-fixer.js';
import { runAction } from '../../test-support/action-runner.js';
import { startFakeAnthropic } from '../../test-support/fake-anthropic/index.js';
import { startFakeArtifacts } from '../../test-support/fake-artifacts/index.js';
import { startFakeGitHub, stateFromPayload } from '../../test-support/fake-github/index.js';
import { createRepoWithRemote } from '../support/temp-repo.js';
import { webhookExample } from '../support/webhook-examples.js';

describe('cancellation', () => {
  it('on SIGINT from the runner: stops, keeps the transcript, uploads it, and leaves a cancelled report', async () => {
    const payload = webhookExample('issue_comment', 'created');
    (payload.comment as { body: string }).body = '/agent fix the failing test';
    (payload.repository as { default_branch: string }).default_branch = 'main';
    const repo = createRepoWithRemote(path.resolve('examples/word-stats'));
    const [github, artifacts, anthropic] = await Promise.all([
      startFakeGitHub(stateFromPayload(payload, { senderPermission: 'write' })),
      startFakeArtifacts(),
      // The third answer crawls (ten minutes between events): the run is cancelled while it waits.
      startFakeAnthropic({
        script: wordStatsFixer,
        faults: (callIndex) => (callIndex === 2 ? { kind: 'slow_stream', delayMs: 600_000 } : undefined)
      })
    ]);
    try {
      let signalledAt: number | undefined;
      const run = await runAction({
        eventName: 'issue_comment',
        payload,
        inputs: {},
        workspace: repo.root,
        github,
        artifacts,
        anthropicUrl: anthropic.url,
        onSpawn: (child) => {
          const poll = setInterval(() => {
            if (anthropic.requests.filter((r) => r.path === '/v1/messages').length >= 3) {
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
      const report = github.createdComments[0]!.body;
      expect(report).toMatch(/^🛑 Cancelled · `error_during_execution`/);
      expect(report).toContain('The run was cancelled.');
      const transcript = artifacts
        .files('agent-transcripts-4242-1')
        .get('4242-1/transcript.jsonl')!
        .toString('utf8')
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line) as { type: string; seq: number; error?: string });
      expect(transcript.map((line) => line.seq)).toEqual(transcript.map((_, index) => index));
      expect(transcript.at(-1)).toMatchObject({ type: 'run_end', error: 'The run was cancelled.' });
      expect(transcript.filter((line) => line.type === 'response')).toHaveLength(2);
    } finally {
      await Promise.all([github.close(), artifacts.close(), anthropic.close()]);
      repo.remove();
    }
  }, 120_000);
});
