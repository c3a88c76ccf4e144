import { cutBalanced, fitSections, MAX_BODY_CHARS } from '../../src/github/markdown/outbound-fit-body.js';
import { renderReport, type ReportInput } from '../../src/github/report/report.js';
import type { CompactionEvent } from '../../src/compaction/compactor.js';
import { markupProblems } from '../support/markup-balance.js';
import { runResult } from '../support/run-result.js';

/** A section like the report's own: a <details> around a table whose first rows are long. */
const TABLE_SECTION = [
  '<details><summary>Compaction log: 3 (micro 1, auto 1, spill 1)</summary>',
  '',
  `| turn | layer | reason ${'with a long header '.repeat(8)}| tokens before |`,
  '| ---: | --- | --- | ---: |',
  `| 1 | spill | ${'a tool result of 96,000 characters went to a file '.repeat(6)}| 9,000 |`,
  '| 2 | micro | cleared 4 old results \\| in one batch | 7,000 |',
  '| 3 | auto | context past the threshold | 4,100 |',
  '',
  '</details>'
].join('\n');

/** The chart section: a diagram GitHub draws only when it is whole. */
const CHART_SECTION = [
  '<details open><summary>Context tokens per turn · compactions: 2 (micro 1, auto 1)</summary>',
  '',
  '```mermaid',
  '---',
  'config:',
  '  themeVariables:',
  '    xyChart:',
  '      plotColorPalette: "#bf8700, #cf222e, #218bff"',
  '---',
  'xychart-beta',
  '  title "Context tokens per turn"',
  '  x-axis "turn" 1 --> 5',
  '  y-axis "tokens" 0 --> 10000',
  '  line [1000, 2000, 10000, 2000, 3000]',
  '  line [4000, 4000, 4000, 4000, 4000]',
  '  line [1000, 2000, 3000, 2000, 3000]',
  '```',
  '',
  'Blue line: context tokens sent.',
  '',
  '</details>'
].join('\n');

/** A patch in a fence inside a <details>, as a fork's report has it. */
const PATCH_SECTION = [
  'Not pushed: a fork. The patch is below and in the transcript artifact.',
  '',
  '<details><summary>Patch</summary>',
  '',
  '````diff',
  ...Array.from({ length: 40 }, (_, line) => `+line ${line} with a \`\`\` run inside`),
  '````',
  '',
  '</details>'
].join('\n');

/** The model's summary, quoted, with a table of its own. */
const QUOTED_SUMMARY = [
  '### Summary',
  '',
  '> Compared the two counts over 1,500 lines:',
  '>',
  '> | input | countWords | expected |',
  '> | --- | ---: | ---: |',
  ...Array.from({ length: 12 }, (_, line) => `> | line ${line} with  two spaces | ${line} | ${line + 1} |`),
  '>',
  `> ${'Then fixed the split. '.repeat(12)}`
].join('\n');

describe('cutting a section keeps its markup balanced, wherever the cut lands', () => {
  it.each([
    ['a table in <details> whose rows are longer than half the room', TABLE_SECTION],
    ['a mermaid chart in <details open>', CHART_SECTION],
    ['a diff fence in <details>', PATCH_SECTION],
    ["a table in the model's quoted summary", QUOTED_SUMMARY]
  ])('%s: every length from nothing to whole', (_, section) => {
    for (let maxChars = 0; maxChars <= section.length; maxChars++) {
      const cut = cutBalanced(section, maxChars);
      expect(cut.length).toBeLessThanOrEqual(maxChars);
      const problems = markupProblems(cut, section);
      if (problems.length > 0) throw new Error(`cut at ${maxChars}:\n${problems.join('\n')}\n---\n${cut}`);
    }
  });

  it('drops a table header whose delimiter row would be cut off, rather than keep it alone', () => {
    const header = TABLE_SECTION.split('\n').slice(0, 3).join('\n');
    // Room for the header line and the closers, not for the delimiter row.
    const cut = cutBalanced(TABLE_SECTION, header.length + 40);
    expect(cut).not.toContain('| turn | layer |');
    expect(cut).toMatch(/^<details><summary>Compaction log: 3 .*<\/summary>\n\n<\/details>\n\n\[… cut\]$/);
  });

  it('keeps whole rows with their header and delimiter, and never half a row', () => {
    const threeRows = TABLE_SECTION.indexOf('| 3 | auto');
    const cut = cutBalanced(TABLE_SECTION, threeRows + 30);
    expect(cut).toContain('| 2 | micro | cleared 4 old results \\| in one batch | 7,000 |\n\n</details>');
    expect(cut).not.toContain('| 3 |');
  });

  it('leaves a diagram out whole when it does not fit, and keeps what comes before it', () => {
    const cut = cutBalanced(CHART_SECTION, CHART_SECTION.indexOf('  line [4000') + 40);
    expect(cut).not.toContain('```mermaid');
    expect(cut).not.toContain('xychart-beta');
    expect(cut.startsWith('<details open><summary>Context tokens per turn')).toBe(true);
    expect(cut.endsWith('</details>\n\n[… cut]')).toBe(true);
  });

  it('fits many sections cut at once, each balanced', () => {
    const sections = [
      '✅ Done · `success`',
      TABLE_SECTION,
      CHART_SECTION,
      PATCH_SECTION,
      '📜 Transcript: [a](b)'
    ];
    const whole = sections.join('\n\n');
    for (let maxChars = 200; maxChars <= whole.length; maxChars += 7) {
      const body = fitSections(sections, maxChars, '\n\n_cut_');
      expect(body.length).toBeLessThanOrEqual(maxChars);
      expect(body.startsWith('✅ Done')).toBe(true);
      const problems = markupProblems(body, whole);
      if (problems.length > 0) throw new Error(`fit to ${maxChars}:\n${problems.join('\n')}\n---\n${body}`);
    }
  });
});

describe('a real report cut to fit', () => {
  const event = (turn: number, layer: CompactionEvent['layer']): CompactionEvent => ({
    turn,
    layer,
    reason: `${layer} | at turn ${turn}: ${'why '.repeat(20)}`,
    tokens_before: 30_000,
    tokens_after: 12_000,
    results_cleared: 3,
    summary_tokens: layer === 'auto' ? 900 : 0,
    summary_cost_usd: 0,
    duration_ms: 1,
    segment_path: null,
    focus: null
  });
  const input: ReportInput = {
    result: runResult({
      turns: 1200,
      summary: 'z'.repeat(70_000),
      contextTokensPerTurn: Array.from({ length: 1200 }, (_, turn) => 10_000 + (turn % 40) * 800),
      compactionLog: Array.from({ length: 1500 }, (_, index) =>
        event(index % 1200, index % 40 === 0 ? 'auto' : index % 3 === 0 ? 'spill' : 'micro')
      )
    }),
    runUrl: 'https://github.com/octo/repo/actions/runs/42',
    changes: { kind: 'patch', reason: 'a fork', diffStat: ' x | 3 +', patch: PATCH_SECTION.repeat(200) },
    artifact: { kind: 'uploaded', id: 9, url: 'https://github.com/octo/repo/actions/runs/42/artifacts/9' },
    transcriptDir: '.transcripts/42-1',
    transcriptHead: 'f'.repeat(64)
  };

  it("stays under GitHub's limit with every table, fence, <details> and the chart whole or gone", () => {
    const whole = renderReport({ ...input, result: { ...input.result, summary: '' } });
    const report = renderReport(input);
    expect(report.length).toBeLessThanOrEqual(MAX_BODY_CHARS);
    expect(markupProblems(report, whole)).toEqual([]);
    // The short sections survive whole: the usage table, the model and the links.
    expect(report.includes('| 1200 | 10 | 0 | 0 | 5 | $0.0100 |')).toBe(true);
    expect(report.includes('Model: Claude Sonnet 5.5')).toBe(true);
    expect(
      report.includes(
        `<details><summary>Transcript head</summary>\n\n🔗 Transcript head: \`${'f'.repeat(64)}\``
      )
    ).toBe(true);
  });
});
