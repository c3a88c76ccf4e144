import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { TranscriptEvent } from '../../src/transcript/events.js';
import { TranscriptWriter } from '../../src/transcript/writer.js';
import { resultCostProblem, type ShardTranscript } from '../../src/fanout/result-cost.js';
import { createTempDir } from '../support/temp-repo.js';

/** A real, chained transcript of one agent run that cost `costUsd` (written by the action's own writer). */
function transcriptOf(run: string, costUsd: number, ended = true): ShardTranscript {
  const dir = path.join(createTempDir('result-cost-'), run);
  const writer = new TranscriptWriter(dir);
  const usage = { input: 10, cache_write: 0, cache_read: 0, output: 5 };
  const events: TranscriptEvent[] = [
    {
      type: 'run_start',
      run_id: run,
      task: 'rename the call',
      model: 'm',
      repo: '/w',
      system_prompt: 's',
      tools: ['bash'],
      limits: { max_turns: 5, timeout_minutes: 1, max_budget_usd: 1 },
      context_window: 1000
    },
    {
      type: 'response',
      turn: 1,
      message_id: 'msg_1',
      stop_reason: 'end_turn',
      usage,
      context_tokens: 15,
      cost_usd: costUsd,
      total_cost_usd: costUsd,
      duration_ms: 4
    }
  ];
  if (ended)
    events.push({
      type: 'run_end',
      stop_reason: 'success',
      turns: 1,
      usage,
      cost_usd: costUsd,
      duration_ms: 5,
      summary: 'done',
      error: null
    });
  for (const event of events) writer.append(event);
  writer.close();
  return { run, text: readFileSync(writer.path, 'utf8') };
}

const runsAt = (...runs: string[]) => runs.map((run) => `/home/runner/work/_temp/transcripts/${run}`);

describe("a shard result's cost against its transcripts", () => {
  const first = transcriptOf('run-1', 0.1234);
  const retry = transcriptOf('run-2', 0.05);

  it('is believed when it is the sum of the runs its transcripts record, to the cent', () => {
    expect(
      resultCostProblem({ costUsd: 0.1734, runs: runsAt('run-1', 'run-2') }, [first, retry])
    ).toBeUndefined();
    expect(
      resultCostProblem({ costUsd: 0.17, runs: runsAt('run-1', 'run-2') }, [first, retry])
    ).toBeUndefined();
    // A run killed before its end counts the running total its last response recorded.
    const cut = transcriptOf('run-3', 0.2, false);
    expect(resultCostProblem({ costUsd: 0.2, runs: runsAt('run-3') }, [cut])).toBeUndefined();
  });

  it('is rejected when the result says less than the transcripts record (a forged cost)', () => {
    expect(resultCostProblem({ costUsd: 0.01, runs: runsAt('run-1', 'run-2') }, [first, retry])).toBe(
      'its result says it cost $0.0100, but its transcripts record $0.1734: the cost was changed after the runs (a forged result)'
    );
  });

  it('is rejected when a run is left out of the result, or its transcript out of the artifact', () => {
    expect(resultCostProblem({ costUsd: 0.1234, runs: runsAt('run-1') }, [first, retry])).toMatch(
      /holds the transcript of the run run-2, which its result does not count/
    );
    expect(resultCostProblem({ costUsd: 0.1734, runs: runsAt('run-1', 'run-2') }, [first])).toMatch(
      /names the run run-2, whose transcript is not in its artifact/
    );
    expect(resultCostProblem({ costUsd: 0.2468, runs: runsAt('run-1', 'run-1') }, [first])).toMatch(
      /names the run run-1 twice/
    );
  });

  it("is rejected when a transcript's recorded cost was edited to match", () => {
    const edited = { run: 'run-1', text: first.text.replaceAll('0.1234', '0.0001') };
    expect(resultCostProblem({ costUsd: 0.0001, runs: runsAt('run-1') }, [edited])).toMatch(
      /the transcript of the run run-1 was changed: line 2 of 3, its content was changed after it was written/
    );
  });

  it("is rejected when a folder holds another run's transcript", () => {
    const moved = { run: 'run-9', text: first.text };
    expect(resultCostProblem({ costUsd: 0.1234, runs: runsAt('run-9') }, [moved])).toBe(
      "the transcript in the folder of the run run-9 is the run run-1's"
    );
  });

  it('is rejected when a transcript is no transcript, or has no chain', () => {
    expect(
      resultCostProblem({ costUsd: 0, runs: runsAt('run-1') }, [{ run: 'run-1', text: '{"a":1}\n' }])
    ).toBe('the transcript of the run run-1 is not a transcript (line 1 is not a transcript event)');
    const unchained = '{"type":"run_end","cost_usd":0}\n';
    expect(
      resultCostProblem({ costUsd: 0, runs: runsAt('run-1') }, [{ run: 'run-1', text: unchained }])
    ).toBe('the transcript of the run run-1 has no hash chain, so its cost cannot be checked');
  });
});
