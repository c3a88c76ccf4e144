import { readFileSync, rmSync } from 'node:fs';
import type { CompactionEvent } from '../../src/compaction/compactor.js';
import type { TranscriptLine } from '../../src/transcript/events.js';
import {
  startFakeAnthropic,
  thinking,
  type FakeAnthropic,
  type FakeAnthropicOptions,
  type Script
} from '../../test-support/fake-anthropic/index.js';
import { fakeModelEnv, spawnCli, type CliExit } from './cli.js';
import { COMPACTION_REQUEST_TAG, longRunScript } from './long-run-script.js';
import { realCodeSeed } from './long-run-script.js';
import { createTempRepo, type TempRepo } from './temp-repo.js';

export const LONG_CLI_TASK =
  'Explore this code base: read its big files, check the syntax of what you touch, keep notes.';

/** The long-run script with a thinking block first in every reply (Sonnet 5.5 thinks adaptively). */
export function thinkingScript(turns: number): { script: Script; inner: ReturnType<typeof longRunScript> } {
  const inner = longRunScript({ turns });
  const script: Script = async (request, context) => {
    const summary = JSON.stringify(request.messages.at(-1) ?? '').includes(COMPACTION_REQUEST_TAG);
    const reply = await inner(request, context);
    const note = summary ? 'Summarizing.' : `Step ${inner.progress.agentTurns}: deciding the next call.`;
    return { ...reply, content: [thinking(note), ...reply.content] };
  };
  return { script, inner };
}

export interface LongCliRun {
  readonly repo: TempRepo;
  readonly fake: FakeAnthropic;
  readonly finished: CliExit;
  readonly scripted: ReturnType<typeof thinkingScript>;
  readonly lines: readonly TranscriptLine[];
  readonly compactions: () => CompactionEvent[];
}

/**
 * The CLI (from source) on a copy of real code against the strict fake, with thinking in every reply:
 * `turns` tool turns on claude-sonnet-5-5 in a small window, plus `extraArgs`.
 */
export async function runLongCli(
  options: { turns: number; window: number; extraArgs?: readonly string[] } & Omit<
    FakeAnthropicOptions,
    'script'
  >
): Promise<LongCliRun> {
  const { turns, window, extraArgs = [], ...fakeOptions } = options;
  const seed = realCodeSeed();
  let repo: TempRepo;
  try {
    repo = createTempRepo(seed);
  } finally {
    rmSync(seed, { recursive: true, force: true });
  }
  const scripted = thinkingScript(turns);
  const fake = await startFakeAnthropic({ ...fakeOptions, script: scripted.script, contextWindow: window });
  const finished = await spawnCli(
    [
      'run',
      '--repo',
      repo.root,
      '--prompt',
      LONG_CLI_TASK,
      '--model',
      'claude-sonnet-5-5',
      '--context-window',
      String(window),
      '--max-turns',
      '400',
      '--max-budget-usd',
      '1000',
      ...extraArgs
    ],
    { env: fakeModelEnv(fake.url) }
  );
  const transcript = /transcript: (.+transcript\.jsonl)/.exec(finished.stdout)?.[1];
  const lines: TranscriptLine[] = transcript
    ? readFileSync(transcript, 'utf8')
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line) as TranscriptLine)
    : [];
  const compactions = () =>
    lines.flatMap((line) => (line.type === 'compaction' ? [line as unknown as CompactionEvent] : []));
  return { repo, fake, finished, scripted, lines, compactions };
}
