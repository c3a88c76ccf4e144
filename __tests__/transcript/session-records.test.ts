/**
 * A real session (the loop, compaction and its run folder) records everything it writes: the
 * artifact built from those records alone holds every file of the run folder, and the transcript's
 * chain holds across compactions, spills and summaries.
 */
import { readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { runSession, type SessionOutcome } from '../../src/agent/session.js';
import { stageRunArtifact } from '../../src/artifacts/stage-run.js';
import { parseAgentConfig } from '../../src/config/inputs.js';
import { AnthropicModelClient } from '../../src/model/anthropic-client.js';
import { verifyChain } from '../../src/transcript/verify-chain.js';
import { startFakeAnthropic } from '../../test-support/fake-anthropic/index.js';
import { longRunScript, realCodeSeed } from '../support/long-run-script.js';
import { createTempDir, createTempRepo, type TempRepo } from '../support/temp-repo.js';

let outcome: SessionOutcome;
let repo: TempRepo;
beforeAll(async () => {
  const seed = realCodeSeed();
  repo = createTempRepo(seed);
  rmSync(seed, { recursive: true, force: true });
  const fake = await startFakeAnthropic({
    script: longRunScript({ turns: 30, manualCompactAt: 15 }),
    contextWindow: 30_000
  });
  try {
    const inputs: Record<string, string> = {
      context_window: '30000',
      micro_keep_recent: '3',
      micro_clear_at_least: '2000'
    };
    outcome = await runSession({
      config: parseAgentConfig((name) => inputs[name] ?? '', { ANTHROPIC_API_KEY: 'k' }),
      task: 'Explore this code base and keep notes.',
      repoDir: repo.root,
      transcriptsDir: path.join(repo.root, '.transcripts'),
      runId: 'recorded',
      env: process.env,
      model: new AnthropicModelClient({ apiKey: 'k', baseURL: fake.url, retryBaseDelayMs: 1 })
    });
  } finally {
    await fake.close();
  }
}, 60_000);
afterAll(() => repo.remove());

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
    .sort();
}

it('the records cover every file the run wrote, and the chain verifies against the head', async () => {
  const { records } = outcome;
  expect(outcome.result.compactionLog.length).toBeGreaterThan(0);
  expect(records.files.map((file) => file.relative).some((name) => name.startsWith('segments/'))).toBe(true);
  expect(verifyChain(`${records.transcript.lines().join('\n')}\n`, records.transcript.head)).toMatchObject({
    status: 'intact',
    ended: true
  });
  const staged = await stageRunArtifact(records, { redact: (text) => text, parentDir: createTempDir('rt-') });
  try {
    expect(staged.findings).toEqual([]);
    expect(filesUnder(path.join(staged.dir, 'recorded'))).toEqual(filesUnder(outcome.runDir));
  } finally {
    await staged.remove();
  }
});

it('tags every message it records: the agent’s own history, a compaction’s rewrites, a summary call’s exchange', () => {
  const messages = outcome.records.transcript
    .lines()
    .map((line) => JSON.parse(line) as { type: string; history?: string; context?: string })
    .filter((event) => event.type === 'message');
  // Exactly one tag each: the reader never has to guess which kind a message is.
  expect(
    messages.filter((message) => (message.history === undefined) === (message.context === undefined))
  ).toEqual([]);
  const kinds = new Set(messages.map((message) => message.history ?? message.context));
  expect([...kinds].sort()).toEqual(['appended', 'compaction', 'summary_reply', 'summary_request']);
});
