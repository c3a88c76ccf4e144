import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { transcriptArtifactName } from '../../src/artifacts/transcript-artifact.js';
import { runIdParts } from '../../src/followup/artifact-state.js';
import type { CarriedState } from '../../src/followup/carried-state.js';
import { STATE_FILE } from '../../src/followup/state-file.js';
import { TRANSCRIPT_FILE, TranscriptWriter } from '../../src/transcript/writer.js';
import type { FakeGitHub } from '../../test-support/fake-github/index.js';
import { buildZip } from '../audit/zip-builder.js';

/**
 * A past run of this workflow as its transcript artifact would prove it: a sealed transcript (task,
 * summary) and the carried state the run wrote beside it, registered as uploaded by the state's run.
 * Tests use it for states the action never writes itself (a branch it would not make), so the rules
 * after the artifact's proof get their say. Returns the state as the run's report would carry it.
 */
export function seedRunArtifact(github: FakeGitHub, state: CarriedState, artifactId: number): CarriedState {
  const [run, attempt] = runIdParts(state.runId);
  const dir = mkdtempSync(path.join(tmpdir(), 'compact-agent-crafted-run-'));
  let lines: readonly string[];
  let head: string;
  try {
    const writer = new TranscriptWriter(dir, { now: () => new Date('2026-11-28T10:00:00Z') });
    writer.append({
      type: 'run_start',
      run_id: state.runId,
      task: state.task,
      model: 'claude-sonnet-5-5',
      repo: '/work',
      system_prompt: 'system',
      tools: ['write_file'],
      limits: { max_turns: 10, timeout_minutes: 10, max_budget_usd: 1 },
      context_window: 200_000
    });
    writer.append({
      type: 'message',
      turn: 0,
      index: 0,
      role: 'user',
      content: [{ type: 'text', text: state.task }]
    });
    writer.append({
      type: 'run_end',
      stop_reason: 'success',
      turns: 1,
      usage: { input: 10, cache_write: 0, cache_read: 0, output: 5 },
      cost_usd: state.costUsd,
      duration_ms: 1000,
      summary: state.summary,
      error: null
    });
    writer.close();
    lines = writer.lines();
    head = writer.head;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  // The run writes its state before the upload, so without the artifact's id.
  const written: CarriedState = { ...state, transcriptHead: head, artifactId: null };
  github.addArtifact({
    id: artifactId,
    name: transcriptArtifactName(run, attempt),
    bytes: buildZip([
      { name: `${state.runId}/${TRANSCRIPT_FILE}`, data: Buffer.from(`${lines.join('\n')}\n`) },
      { name: `${state.runId}/${STATE_FILE}`, data: Buffer.from(JSON.stringify(written)) }
    ]),
    workflowRun: { id: Number(run) }
  });
  return { ...written, artifactId };
}
