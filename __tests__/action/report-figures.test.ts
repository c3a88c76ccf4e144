import path from 'node:path';
import { DEMO_COMPACTION_INPUTS } from '../../demo/demo-thresholds.js';
import { createWordStatsSession } from '../../demo/word-stats-session.js';
import { COMPACTION_LAYERS } from '../../src/compaction/compaction-count.js';
import type { CompactionLayer } from '../../src/compaction/compactor.js';
import { ACTION_FROM_SOURCE, type ActionRun } from '../../test-support/action-runner.js';
import { stateFromPayload } from '../../test-support/fake-github/index.js';
import { markupProblems } from '../support/markup-balance.js';
import { examplePayload, startActionWorld, type ActionWorld } from '../support/action-world.js';

/**
 * The action from the sources, on the demo's scripted session with the demo's lowered thresholds, so
 * that spills, micro clears, a manual and an auto compaction all happen: the comment, the job
 * summary, the outputs and the artifact's compaction log must give the same figures.
 */
let world: ActionWorld;
let run: ActionRun;

beforeAll(async () => {
  const payload = examplePayload(
    'issue_comment',
    'created',
    '/agent the word count test fails; please fix it'
  );
  world = await startActionWorld({
    seed: path.resolve('examples/word-stats'),
    github: stateFromPayload(payload, { senderPermission: 'write' }),
    anthropic: { script: createWordStatsSession() }
  });
  run = await world.run({
    eventName: 'issue_comment',
    payload,
    inputs: { ...DEMO_COMPACTION_INPUTS },
    entry: ACTION_FROM_SOURCE
  });
}, 180_000);

afterAll(() => world?.close());

/** "8 (micro 3, auto 2, spill 2, manual 1)" read back into numbers. */
function countsIn(described: string): { total: number; byLayer: Record<string, number> } {
  const [, total, parts] = /^(\d+)(?: \(([^)]*)\))?$/.exec(described)!;
  const byLayer = Object.fromEntries(
    (parts ?? '')
      .split(', ')
      .filter(Boolean)
      .map((part) => [part.split(' ')[0]!, Number(part.split(' ')[1])])
  );
  return { total: Number(total), byLayer };
}

/** Every place a body states the count: the log's header, the chart's summary and its title. */
function statedCounts(body: string): string[] {
  return [
    /<summary>Compaction log: ([^<]*)<\/summary>/.exec(body)?.[1],
    /<summary>Context tokens per turn · compactions: ([^<]*)<\/summary>/.exec(body)?.[1],
    /title "Context tokens per turn · compactions: ([^"]*)"/.exec(body)?.[1]
  ].map((stated) => stated ?? '(missing)');
}

describe('a run with spills, micro clears, a manual and an auto compaction', () => {
  it('ends well, with every layer in its compaction log', () => {
    expect(run.stderr.trim()).toBe(''); // the resume of workflow commands ends stderr's last line
    expect(run.code).toBe(0);
    const layers = logLayers();
    for (const layer of ['spill', 'micro', 'auto', 'manual'] as const)
      expect(layers.filter((logged) => logged === layer).length).toBeGreaterThan(0);
  });

  it('shows the same count, by layer, in the comment, the job summary, the outputs and the artifact', () => {
    const { github } = world;
    const comment = github.createdComments[0]!.body;
    const logged = logLayers();
    const byLayer = Object.fromEntries(
      COMPACTION_LAYERS.map((layer) => [layer, logged.filter((entry) => entry === layer).length])
    ) as Record<CompactionLayer, number>;

    expect(Number(run.outputs.compaction_count)).toBe(logged.length);
    expect(JSON.parse(run.outputs.compaction_counts!)).toEqual(byLayer);

    const stated = [...statedCounts(comment), ...statedCounts(run.summary)];
    expect(stated).toHaveLength(6);
    for (const figure of stated) {
      const counts = countsIn(figure);
      expect(counts.total).toBe(logged.length);
      expect(counts.byLayer).toEqual(
        Object.fromEntries(Object.entries(byLayer).filter(([, count]) => count > 0))
      );
    }
  });

  it('draws the threshold the run used, from 0, and names the model, the price date and the artifact in both', () => {
    const { github, artifacts } = world;
    const comment = github.createdComments[0]!.body;
    const artifactId = artifacts.artifact('agent-transcripts-4242-1')!.id;
    expect(run.outputs.artifact_id).toBe(String(artifactId));
    for (const body of [comment, run.summary]) {
      expect(body).toMatch(/y-axis "tokens" 0 --> \d+/);
      expect(body).toContain(`line [${'4000, '.repeat(3)}`);
      expect(body).toContain('Red line: the auto-compaction threshold, 4,000 tokens');
      expect(body).toMatch(
        /Model: Claude Sonnet 5\.5 \(`claude-sonnet-5-5`\); cost at list prices in effect since \d{4}-\d\d-\d\d/
      );
      expect(body).toContain('📜 Transcript: [agent-transcripts-4242-1](');
      expect(body).toMatch(
        new RegExp(`\\[agent-transcripts-4242-1\\]\\([^)]*/actions/runs/4242/artifacts/${artifactId}\\)`)
      );
      expect(body).toContain(`Transcript head: \`${run.outputs.transcript_head}\``);
      expect(markupProblems(body)).toEqual([]);
    }
  });
});

/** The layers of the artifact's compaction log, line by line. */
function logLayers(): CompactionLayer[] {
  const files = world.artifacts.files('agent-transcripts-4242-1');
  const log = files.get('4242-1/compaction-log.jsonl')!.toString('utf8').trim().split('\n');
  return log.map((line) => (JSON.parse(line) as { layer: CompactionLayer }).layer);
}
