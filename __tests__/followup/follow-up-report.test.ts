import type { CarriedState } from '../../src/followup/carried-state.js';
import { renderFollowUp } from '../../src/followup/follow-up-report.js';
import { inlineText } from '../../src/github/markdown/outbound-neutralize.js';
import { renderReport } from '../../src/github/report/report.js';
import { runResult } from '../support/run-result.js';

/** What GitHub acts on: closing references, mentions and raw tags (a word joiner inside breaks each). */
const CLOSES = /\b(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?)\s*:?\s*(?:[\w.-]+\/[\w.-]+)?#\d+/gi;
const MENTIONS = /(?:^|[^\w])@[A-Za-z0-9]/g;
const TAGS = /<[A-Za-z/!?]/g;

/** A previous run's summary or a comment excerpt, quoted into a refusal reason or a state source. */
const QUOTED = 'thanks @someone, Fixes #1 <img src=x onerror=alert(1)> ```` run\nsecond line';

const PREVIOUS: CarriedState = {
  version: 1,
  repository: 'octo/repo',
  runId: '41-1',
  runUrl: 'https://github.com/octo/repo/actions/runs/41',
  task: 'Fix the word count.',
  summary: 'Fixed countWords.',
  ledger: 'Stop reason: success',
  recentUserMessages: ['Fix the word count.'],
  branch: 'agent/7-abc123',
  pullRequest: 8,
  artifactId: 99,
  costUsd: 0.25,
  previousRuns: []
};
const THIS_RUN = { runUrl: 'https://github.com/octo/repo/actions/runs/42', costUsd: 0 };

/** How the main report shows the same text in the middle of a sentence (a patch's reason). */
function asMainReportShowsIt(text: string): string {
  const report = renderReport({
    result: runResult(),
    runUrl: THIS_RUN.runUrl,
    changes: { kind: 'patch', reason: text, diffStat: ' a.ts | 1 +', patch: '+x' },
    artifact: { kind: 'failed', error: 'not uploaded' },
    transcriptDir: '.transcripts/42-1'
  });
  const shown = /Not pushed: (.*)\. The patch is below/.exec(report)?.[1];
  if (shown === undefined) throw new Error(`the report did not show the reason:\n${report}`);
  return shown;
}

function expectInert(section: string): void {
  expect(section.match(CLOSES)).toBeNull();
  expect(section.match(MENTIONS)).toBeNull();
  expect(section.match(TAGS)).toBeNull();
}

describe('text quoted into the follow-up section', () => {
  it('is neutralized like the main report: a refusal reason quoting a comment', () => {
    const section = renderFollowUp({ kind: 'fresh-after-refusal', reason: QUOTED }, THIS_RUN);
    expect(section).toBe(
      `ℹ️ Started fresh, without the state of an earlier run: ${asMainReportShowsIt(QUOTED)}.`
    );
    expect(asMainReportShowsIt(QUOTED)).toBe(inlineText(QUOTED));
    expectInert(section);
    expect(section).not.toContain('\n');
  });

  it('is neutralized like the main report: where the previous state came from', () => {
    const section = renderFollowUp(
      { kind: 'continued', previous: PREVIOUS, whereNote: 'Continued.', source: QUOTED },
      THIS_RUN
    );
    const firstParagraph = section.split('\n\n')[1]!;
    expect(firstParagraph.endsWith(` ${asMainReportShowsIt(QUOTED)}`)).toBe(true);
    expectInert(section);
  });
});

describe("the previous runs' links", () => {
  const continued = (runUrl: string, earlier: string[] = []) =>
    renderFollowUp(
      {
        kind: 'continued',
        previous: {
          ...PREVIOUS,
          runUrl,
          previousRuns: earlier.map((url) => ({ runUrl: url, costUsd: 0.1 }))
        },
        whereNote: 'Continued.'
      },
      THIS_RUN
    );

  it("link only this repository's own runs on this server", () => {
    const own = 'https://github.com/octo/repo/actions/runs/41';
    expect(continued(own)).toContain(`Continues [the previous run](${own}).`);
    expect(continued(`${own}/attempts/2`)).toContain(`(${own}/attempts/2)`);
    for (const forged of [
      'https://attacker.example/octo/repo/actions/runs/41',
      'https://github.com/other/repo/actions/runs/41',
      'https://github.com/octo/repo/actions/runs/41/../../../../evil',
      'https://github.com/octo/repo/actions/runs/41?x=1',
      'http://github.com/octo/repo/actions/runs/41',
      'javascript:alert(1)'
    ]) {
      const section = continued(forged, [forged]);
      expect(section).not.toContain(forged);
      expect(section).toContain('the previous run (link not shown: not a run of this repository)');
      expect(section).toContain('| 1 | run (link not shown: not a run of this repository) |');
    }
  });
});
