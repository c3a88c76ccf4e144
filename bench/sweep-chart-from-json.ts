/**
 * Draws one sweep chart from the JSON of several `npm run -s bench:sweep -- --json` runs (e.g. a
 * full 300-turn sweep and a few 1,000-turn points): `npx tsx bench/sweep-chart-from-json.ts OUT.svg A.json B.json`
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { sweepChartSvg, type SweepSeries } from './sweep-chart.js';
import { microTitle } from './sweep.js';
/** The fields of a sweep row (bench/sweep.ts SweepRow) the chart reads. */
interface Row {
  readonly model: string;
  readonly window: number;
  readonly size: number;
  readonly threshold: number | null;
  readonly cost_vs_reference: number;
  readonly figures: { readonly reread_share: number; readonly lost_needs: number };
}
const runs = process.argv
  .slice(3)
  .map((file) => JSON.parse(readFileSync(file, 'utf8')) as { micro: 'half' | 'default'; rows: Row[] });
const micro = new Set(runs.map((run) => run.micro));
if (micro.size !== 1)
  throw new Error('The runs mix --micro half and --micro default: draw each family on its own chart.');
const rows: Row[] = runs.flatMap((run) => run.rows);
const keys = [...new Set(rows.filter((r) => r.threshold !== null).map((r) => `${r.model}|${r.size}`))];
const series: SweepSeries[] = keys.map((key) => {
  const [model, size] = key.split('|');
  const of = rows.filter((r) => r.model === model && String(r.size) === size && r.threshold !== null);
  return {
    name: `${model} (${of[0]!.window / 1000}k), ${size} turns`,
    points: of
      .sort((a, b) => a.threshold! - b.threshold!)
      .map((r) => ({
        threshold: r.threshold!,
        costRatio: r.cost_vs_reference,
        rereadShare: r.figures.reread_share,
        lostNeeds: r.figures.lost_needs
      }))
  };
});
writeFileSync(
  process.argv[2]!,
  sweepChartSvg(
    series,
    `Cost and re-reads against the auto-compaction threshold (${microTitle([...micro][0]!)})`
  )
);
