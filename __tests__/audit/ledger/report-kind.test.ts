/**
 * The ledger's kind of a run, from its report (report-record.ts): the state's mode (none: a fix), and a fix run
 * whose report carries the CI fix's own section (cifix/ci-fix-report.ts) is a CI fix.
 */
import { reportRecordOf } from '../../../src/audit/ledger/report-record.js';
import { embedState, type CarriedState } from '../../../src/followup/carried-state.js';
import type { RepositoryComment } from '../../../src/github/api/audit-reads.js';

const BOT = 'github-actions[bot]';

function state(mode: CarriedState['mode']): CarriedState {
  return {
    version: 1,
    repository: 'octo/repo',
    runId: '51-1',
    runUrl: 'https://github.com/octo/repo/actions/runs/51',
    task: 'Fix the failing tests.',
    summary: 'Fixed.',
    ledger: '',
    recentUserMessages: [],
    thread: 7,
    branch: 'agent/7-a1',
    pullRequest: 7,
    artifactId: 510,
    costUsd: 0.25,
    previousRuns: [],
    ...(mode === undefined ? {} : { mode })
  };
}

function report(text: string, mode: CarriedState['mode']): RepositoryComment {
  return {
    id: 1,
    body: `${text}\n\n${embedState(state(mode), (value) => value)}`,
    login: BOT,
    userType: 'Bot',
    createdAt: '2026-11-28T00:00:00Z',
    updatedAt: '2026-11-28T00:00:00Z',
    url: 'https://github.com/octo/repo/pull/7#issuecomment-1',
    issueNumber: 7
  };
}

describe('the kind of a reported run', () => {
  it('is a CI fix when a fix run’s report has the CI fix section', () => {
    const body = '✅ Done · `success`\n\n### CI fix (attempt 1 of 2)\n\nThe run failed in `test`.';
    expect(reportRecordOf(report(body, undefined), BOT)?.kind).toBe('ci-fix');
  });

  it('is the mode otherwise, and a quoted heading in the summary makes no CI fix', () => {
    const quoted = '✅ Done · `success`\n\n### Summary\n> ### CI fix (attempt 1 of 2)';
    expect(reportRecordOf(report(quoted, undefined), BOT)?.kind).toBe('fix');
    expect(reportRecordOf(report('✅ Done', 'review'), BOT)?.kind).toBe('review');
    expect(reportRecordOf(report('✅ Done', 'plan'), BOT)?.kind).toBe('plan');
  });
});
