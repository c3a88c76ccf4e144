import path from 'node:path';
import { outputsAfterFault, publishAfterFault, reportAfterFault } from '../../src/action/fault-report.js';
import { OUTPUT_NAMES, publishOutputs } from '../../src/action/outputs.js';
import type { SessionOutcome } from '../../src/agent/session.js';
import { compactionEvent } from '../../src/compaction/compactor.js';
import { TranscriptWriter } from '../../src/transcript/writer.js';
import { runResult } from '../support/run-result.js';
import { createTempDir } from '../support/temp-repo.js';

const RUN_URL = 'https://github.com/octo/repo/actions/runs/42';

/** A finished session with a real transcript, so its head is the hash of a line it wrote. */
function finishedSession(workspace: string): SessionOutcome {
  const runDir = path.join(workspace, '.transcripts', '42-1');
  const transcript = new TranscriptWriter(runDir);
  transcript.append({
    type: 'run_end',
    stop_reason: 'success',
    turns: 3,
    usage: { input: 10, cache_write: 0, cache_read: 0, output: 5 },
    cost_usd: 0.01,
    duration_ms: 5000,
    summary: 'Fixed it.',
    error: null
  });
  transcript.close();
  const log = [
    compactionEvent(1, { layer: 'spill', reason: 'big result', tokens_before: 900, tokens_after: 300 }),
    compactionEvent(2, { layer: 'micro', reason: 'old results', tokens_before: 900, tokens_after: 500 })
  ];
  return {
    result: runResult({ compactionLog: log }),
    runDir,
    transcriptPath: transcript.path,
    compactionLogPath: path.join(runDir, 'compaction-log.jsonl'),
    records: { runDir, transcript, compactionLog: { path: '', lines: () => [] }, files: [] }
  };
}

/** The outputs as the runner would receive them. */
function outputsOf(outputs: Parameters<typeof publishOutputs>[0]): Record<string, string> {
  const set: Record<string, string> = {};
  publishOutputs(outputs, (name, value) => (set[name] = String(value)));
  return set;
}

describe('a step that throws after the agent ran', () => {
  const workspace = createTempDir();
  const session = finishedSession(workspace);
  const artifact = {
    kind: 'uploaded',
    id: 77,
    url: `${RUN_URL}/artifacts/77`,
    name: 'agent-transcripts-42-1'
  } as const;

  it('mentions who asked, once, whether or not the agent ran', () => {
    const where = { runUrl: RUN_URL, workspace, requester: 'alice' };
    const after = reportAfterFault({ step: 'publishing', fault: 'boom', session }, where);
    expect(after.split('\n\n')[1]).toBe('Asked by @alice.');
    const before = reportAfterFault({ step: 'preparing the workspace', fault: 'boom' }, where);
    expect(before.split('\n\n')[1]).toBe('Asked by @alice.');
    for (const report of [after, before]) expect(report.match(/@alice/g)).toHaveLength(1);
  });

  it('after the upload: the report links the artifact and names the transcript head; the outputs keep the artifact id', () => {
    const run = {
      step: 'posting the report',
      fault: 'the state could not be embedded',
      session,
      changes: { kind: 'none' } as const,
      artifact
    };
    const report = reportAfterFault(run, { runUrl: RUN_URL, workspace });
    expect(report).toMatch(/^❌ Failed · `error_during_execution`/);
    expect(report).toContain('**What failed:** posting the report failed: the state could not be embedded');
    expect(report).toContain(`📜 Transcript: [agent-transcripts-42-1](${RUN_URL}/artifacts/77)`);
    expect(report).toContain(`Transcript head: \`${session.records.transcript.head}\``);
    expect(session.records.transcript.head).toMatch(/^[0-9a-f]{64}$/);
    expect(report).toContain('`.transcripts/42-1`');

    const outputs = outputsOf(outputsAfterFault(run, 5));
    expect(outputs).toMatchObject({
      conclusion: 'failure',
      artifact_id: '77',
      comment_id: '5',
      transcript_head: session.records.transcript.head,
      compaction_count: '2',
      compaction_counts: JSON.stringify({ micro: 1, auto: 0, manual: 0, spill: 1, fallback: 0 })
    });
  });

  // The step that failed is often the report itself: making or posting it again fails the same way.
  it('after the upload: a report that cannot be posted still leaves the artifact id and the figures in the outputs', async () => {
    const run = { step: 'posting the report', fault: 'GitHub answered 502', session, artifact };
    const outputs: Record<string, string> = {};
    const summaries: string[] = [];
    await expect(
      publishAfterFault(
        run,
        { runUrl: RUN_URL, workspace },
        {
          redact: (text) => text,
          postReport: () => Promise.reject(new Error('GitHub answered 502 again')),
          commentId: () => 5,
          writeSummary: async (report) => void summaries.push(report),
          setOutput: (name, value) => (outputs[name] = String(value))
        }
      )
    ).rejects.toThrow('GitHub answered 502 again');
    expect(outputs).toMatchObject({
      conclusion: 'failure',
      artifact_id: '77',
      comment_id: '5',
      transcript_head: session.records.transcript.head
    });
  });

  it('the report goes to the thread and the job summary, redacted, and the comment id is read after posting', async () => {
    const run = { step: 'posting the report', fault: 'token ghs_secretvalue leaked', session, artifact };
    const posted: string[] = [];
    const summaries: string[] = [];
    const outputs: Record<string, string> = {};
    let commentId: number | undefined = 5;
    await publishAfterFault(
      run,
      { runUrl: RUN_URL, workspace },
      {
        redact: (text) => text.replaceAll('ghs_secretvalue', '***'),
        postReport: async (report) => {
          posted.push(report);
          commentId = 6; // the edit failed and the report went out as a new comment
        },
        commentId: () => commentId,
        writeSummary: async (report) => void summaries.push(report),
        setOutput: (name, value) => (outputs[name] = String(value))
      }
    );
    expect(posted).toHaveLength(1);
    expect(posted[0]).toContain('posting the report failed: token *** leaked');
    expect(summaries).toEqual(posted);
    expect(outputs).toMatchObject({ artifact_id: '77', comment_id: '6' });
  });

  it('before the upload: the head is still named, and the report says the transcripts are missing', () => {
    const run = { step: 'publishing the changes', fault: 'push rejected', session };
    const report = reportAfterFault(run, { runUrl: RUN_URL, workspace });
    expect(report).toContain(`Transcript head: \`${session.records.transcript.head}\``);
    expect(report).toContain('The transcripts could not be uploaded (the run failed before this step)');
    const outputs = outputsOf(outputsAfterFault(run, undefined));
    expect(outputs.artifact_id).toBe('');
    expect(outputs.transcript_head).toBe(session.records.transcript.head);
  });

  it('before the agent ran: the short fault report, and only the conclusion', () => {
    const run = { step: 'preparing the work', fault: 'git failed' };
    expect(reportAfterFault(run, { runUrl: RUN_URL, workspace })).toMatch(
      /^❌ Failed while preparing the work · \[workflow run\]\(https:\/\/github.com\/octo\/repo\/actions\/runs\/42\)/
    );
    // Every output is set, empty but the conclusion: nothing another process set for the step stands.
    const outputs = outputsOf(outputsAfterFault(run, undefined));
    expect(Object.keys(outputs).sort()).toEqual([...OUTPUT_NAMES].sort());
    expect(Object.entries(outputs).filter(([, value]) => value !== '')).toEqual([['conclusion', 'failure']]);
  });
});
