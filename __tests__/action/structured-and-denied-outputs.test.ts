import path from 'node:path';
import { publishOutputs } from '../../src/action/outputs.js';
import type { SessionOutcome } from '../../src/agent/session.js';
import type { RunResult } from '../../src/agent/run-result.js';
import type { DeniedCall } from '../../src/tools/limits/denied.js';
import { TranscriptWriter } from '../../src/transcript/writer.js';
import { runResult } from '../support/run-result.js';
import { createTempDir } from '../support/temp-repo.js';

const workspace = createTempDir();

function session(result: Partial<RunResult>, deniedCalls?: readonly DeniedCall[]): SessionOutcome {
  const runDir = path.join(workspace, '.transcripts', `run-${Math.random().toString(36).slice(2)}`);
  const transcript = new TranscriptWriter(runDir);
  transcript.close();
  return {
    result: runResult(result),
    runDir,
    transcriptPath: transcript.path,
    compactionLogPath: path.join(runDir, 'compaction-log.jsonl'),
    records: { runDir, transcript, compactionLog: { path: '', lines: () => [] }, files: [] },
    ...(deniedCalls ? { deniedCalls } : {})
  };
}

function outputsOf(outputs: Parameters<typeof publishOutputs>[0]): Record<string, string> {
  const set: Record<string, string> = {};
  publishOutputs(outputs, (name, value) => (set[name] = String(value)));
  return set;
}

describe('the structured_output and denied_tool_calls outputs', () => {
  it('carry the checked answer and the denied calls as JSON', () => {
    const denied = [{ tool: 'bash', head: 'git push', rule: 'disallowed_bash_commands: git push', count: 2 }];
    const set = outputsOf({
      conclusion: 'success',
      session: session({ structuredOutput: '{"labels":["bug"]}' }, denied)
    });
    expect(set.structured_output).toBe('{"labels":["bug"]}');
    expect(JSON.parse(set.denied_tool_calls!)).toEqual(denied);
  });

  it('are [] and empty for a run that denied nothing and had no schema', () => {
    const set = outputsOf({ conclusion: 'success', session: session({}) });
    expect(set.denied_tool_calls).toBe('[]');
    expect(set.structured_output).toBe('');
  });

  it('are both empty when the agent never ran', () => {
    const set = outputsOf({ conclusion: 'skipped', noChangeReason: 'skipped: not asked' });
    expect(set.denied_tool_calls).toBe('');
    expect(set.structured_output).toBe('');
  });
});
