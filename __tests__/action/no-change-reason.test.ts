import path from 'node:path';
import { outputValues } from '../../src/action/outputs.js';
import type { SessionOutcome } from '../../src/agent/session.js';
import type { RunResult } from '../../src/agent/run-result.js';
import { TranscriptWriter } from '../../src/transcript/writer.js';
import { runResult } from '../support/run-result.js';
import { createTempDir } from '../support/temp-repo.js';

const workspace = createTempDir();

/** A finished session that ended with `stopReason`; its transcript is real but empty of turns. */
function session(stopReason: RunResult['stopReason']): SessionOutcome {
  const runDir = path.join(workspace, '.transcripts', `42-${stopReason}`);
  const transcript = new TranscriptWriter(runDir);
  transcript.close();
  return {
    result: runResult({ stopReason }),
    runDir,
    transcriptPath: transcript.path,
    compactionLogPath: path.join(runDir, 'compaction-log.jsonl'),
    records: { runDir, transcript, compactionLog: { path: '', lines: () => [] }, files: [] }
  };
}

describe('no_change_reason: a run that published nothing says why', () => {
  it('a finished run with no change: the agent changed nothing, or stopped first', () => {
    expect(
      outputValues({ conclusion: 'success', session: session('success'), changes: { kind: 'none' } })
        .no_change_reason
    ).toBe('the agent changed no files (its summary in the report says why)');
    expect(
      outputValues({ conclusion: 'failure', session: session('error_max_turns'), changes: { kind: 'none' } })
        .no_change_reason
    ).toBe('the run stopped with error_max_turns before the agent changed any file');
  });

  it('only workflow files changed, and were withheld: names them and the input', () => {
    const changes = { kind: 'none', withheld: ['.github/workflows/ci.yml'] } as const;
    expect(
      outputValues({ conclusion: 'success', session: session('success'), changes }).no_change_reason
    ).toBe(
      'only workflow files were changed (.github/workflows/ci.yml), and allow_workflow_changes is off, ' +
        'so they were withheld and nothing was pushed'
    );
  });

  it('a skip or a run that did not start carries its own reason; a published change has none', () => {
    expect(
      outputValues({ conclusion: 'skipped', noChangeReason: 'skipped: the comment was edited, not created' })
        .no_change_reason
    ).toBe('skipped: the comment was edited, not created');
    const pushed = {
      kind: 'pushed',
      branch: 'agent/1-abc123',
      diffStat: '1 file changed',
      pullRequestUrl: undefined,
      pullRequestError: undefined
    } as const;
    expect(
      outputValues({ conclusion: 'success', session: session('success'), changes: pushed }).no_change_reason
    ).toBeUndefined();
  });
});
