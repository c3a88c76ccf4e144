import { parseTranscript } from '../../src/audit/parse-transcript.js';
import { buildAuditPageModel } from '../../src/audit/page/page-model.js';

const valid = {
  type: 'compaction',
  turn: 3,
  layer: 'micro',
  reason: 'floor reached',
  tokens_before: 3_000,
  tokens_after: 2_000,
  results_cleared: 2,
  summary_tokens: 0,
  summary_cost_usd: 0,
  duration_ms: 0,
  segment_path: null,
  focus: null
};

/** A run_start with every field the writer writes; `extra` adds or overrides. */
function runStart(extra: object = {}): object {
  return {
    type: 'run_start',
    run_id: 'r',
    task: 't',
    model: 'claude-sonnet-5-5',
    repo: '/w',
    system_prompt: 's',
    tools: ['bash'],
    limits: { max_turns: 3, timeout_minutes: 1, max_budget_usd: 1 },
    context_window: 200_000,
    ...extra
  };
}

function transcript(...events: object[]): string {
  return events
    .map((event, seq) => JSON.stringify({ seq, time: '2026-11-23T12:00:00.000Z', ...event }))
    .join('\n');
}

describe('compaction lines in a transcript', () => {
  it('skips one with an unknown layer or a field that is not a number, and says why', () => {
    const audit = parseTranscript(
      transcript(
        runStart({ compaction_threshold_tokens: 40_000 }),
        valid,
        { ...valid, layer: '<img src=x onerror=alert(1)>' },
        { ...valid, layer: 'constructor' },
        { ...valid, tokens_before: 'many' }
      )
    );
    expect(audit.compactions).toEqual(
      [{ ...valid, type: undefined }].map(({ type: _type, ...event }) => event)
    );
    expect(audit.skippedLines.map((skip) => skip.line)).toEqual([3, 4, 5]);
    for (const skip of audit.skippedLines)
      expect(skip.reason).toMatch(/unknown layer .* or malformed fields/);
    // So the page's count is a count, never NaN.
    expect(buildAuditPageModel(audit).compactionCount).toEqual({
      total: 1,
      byLayer: { micro: 1, auto: 0, manual: 0, spill: 0, fallback: 0 }
    });
    expect(audit.compactionThresholdTokens).toBe(40_000);
  });

  it('reads a transcript from before the threshold was recorded, without one', () => {
    const audit = parseTranscript(transcript(runStart(), valid));
    expect(audit.compactionThresholdTokens).toBeUndefined();
    expect(audit.compactions).toHaveLength(1);
  });
});
