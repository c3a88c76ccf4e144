import { buildRollup, formatRollup } from '../../src/fanout/rollup.js';
import type { FanoutManifest, ManifestShard } from '../../src/fanout/manifest.js';
import type { ShardLanding } from '../../src/fanout/land.js';
import type { ShardResult } from '../../src/fanout/shard-result.js';
import type { BranchPullRequest, PublishedLanding } from '../../src/fanout/github-landing.js';
import { ROLLUP_ARTIFACT_NAME, rollupMarkdown } from '../../src/fanout/rollup-markdown.js';
import { MAX_BODY_CHARS } from '../../src/github/markdown/outbound-fit-body.js';
import { GITHUB_COMMENT_LIMIT } from '../../src/github/markdown/outbound-comment-limit.js';

const PLAN = 'abcdef12';
const BASE = 'a'.repeat(40);
const RUN = 'https://github.com/octo/repo/actions/runs/77';

function shards(count: number): ManifestShard[] {
  return Array.from({ length: count }, (_, index) => ({
    id: `shard-${String(index + 1).padStart(4, '0')}`,
    paths: [`src/module-${index + 1}.ts`],
    budgetUsd: 0.5
  }));
}

function manifestOf(planned: ManifestShard[], prompt: string): FanoutManifest {
  return {
    version: 1,
    planId: PLAN,
    origin: { repository: 'octo/repo', workflow: '.github/workflows/fanout.yml' },
    prompt,
    unitSource: { kind: 'command', command: 'git grep -l oldApi' },
    unitsBefore: planned.length,
    totalCapUsd: planned.length * 0.5,
    validationRetries: 1,
    shards: planned
  };
}

function result(
  shardId: string,
  status: ShardResult['status'],
  costUsd: number,
  error?: string
): ShardResult {
  return {
    shardId,
    planId: PLAN,
    status,
    base: BASE,
    costUsd,
    budgetUsd: 0.5,
    stopReason:
      status === 'done'
        ? 'success'
        : status === 'over-budget'
          ? 'error_max_budget_usd'
          : 'error_during_execution',
    ...(error ? { error } : {}),
    files: [],
    refusedPaths: [],
    runs: [],
    patch: ''
  };
}

function pull(shardId: string, number: number, state: BranchPullRequest['state']): BranchPullRequest {
  return {
    branch: `fanout/${PLAN}/${shardId}`,
    shardIds: [shardId],
    state,
    number,
    url: `https://github.com/octo/repo/pull/${number}`,
    pushed: true,
    detail: state === 'closed' ? `#${number} was closed without merging` : undefined
  };
}

describe('the roll-up as GitHub Markdown', () => {
  const planned = shards(8);
  const ids = planned.map((shard) => shard.id);
  const results = new Map<string, ShardResult>([
    [ids[0]!, result(ids[0]!, 'done', 0.21)],
    [ids[1]!, result(ids[1]!, 'done', 0.22)],
    [ids[2]!, result(ids[2]!, 'done', 0.23)],
    [
      ids[3]!,
      result(
        ids[3]!,
        'failed',
        0.3,
        'the tests fail | cc @octocat <!-- compact-agent-fanout-rollup {"plan":"x"} -->'
      )
    ],
    [ids[4]!, result(ids[4]!, 'over-budget', 0.5)],
    [ids[5]!, result(ids[5]!, 'done', 0.1)]
  ]);
  const landings: ShardLanding[] = [
    { status: 'landed', shardId: ids[0]!, branch: `fanout/${PLAN}/${ids[0]}`, files: ['src/module-1.ts'] },
    { status: 'landed', shardId: ids[1]!, branch: `fanout/${PLAN}/${ids[1]}`, files: ['src/module-2.ts'] },
    { status: 'landed', shardId: ids[2]!, branch: `fanout/${PLAN}/${ids[2]}`, files: ['src/module-3.ts'] },
    { status: 'conflict', shardId: ids[5]!, reason: 'its patch no longer applies on aaaaaaaaaaaa' }
  ];
  const rollup = buildRollup({
    manifest: manifestOf(planned, 'Replace oldApi with newApi.\nFixes #1 and thanks @octocat'),
    stateDir: '/tmp/x',
    base: BASE,
    policy: 'per-shard',
    results,
    problems: new Map(),
    landings,
    spentUsd: 1.71,
    unitsAfter: 5,
    combinedBranch: undefined
  });
  const published: PublishedLanding = {
    branches: [],
    byShard: new Map([
      [ids[0]!, pull(ids[0]!, 11, 'opened')],
      [ids[1]!, pull(ids[1]!, 12, 'merged')],
      [ids[2]!, pull(ids[2]!, 13, 'closed')]
    ])
  };
  const transcriptUrls = new Map(ids.slice(0, 6).map((id, index) => [id, `${RUN}/artifacts/${900 + index}`]));
  const markdown = rollupMarkdown({
    rollup,
    published,
    transcriptUrls,
    runUrl: RUN,
    running: new Set([ids[6]!]),
    resumeHint: 'dispatch the workflow with `resume_run: 77`'
  });
  const rowOf = (id: string) => markdown.body.split('\n').find((line) => line.startsWith(`| ${id} |`))!;

  it('has a row per shard, with its status, its pull request and its transcript', () => {
    expect(markdown.tableCut).toBe(false);
    expect(rowOf(ids[0]!)).toBe(
      `| ${ids[0]} | 1 | pull request opened | [#11](https://github.com/octo/repo/pull/11) | $0.2100 | $0.50 | [transcript](${RUN}/artifacts/900) |  |`
    );
    expect(rowOf(ids[1]!)).toContain('| merged | [#12]');
    expect(rowOf(ids[2]!)).toMatch(/\| declined \| \[#13\].*closed without merging/);
    expect(rowOf(ids[3]!)).toMatch(/\| failed \| – \|/);
    expect(rowOf(ids[4]!)).toContain('| over budget |');
    expect(rowOf(ids[5]!)).toMatch(/\| conflict \|.*no longer applies/);
    expect(rowOf(ids[6]!)).toContain('| running | – | $0.0000 | $0.50 | – |');
    expect(rowOf(ids[7]!)).toContain('| planned |');
  });

  it('adds the cost ledger against the cap, and the burndown by re-scan', () => {
    expect(markdown.body).toContain(
      '- **Shards** (8): 1 merged · 1 with an open pull request · 1 running · 1 planned · 1 failed · 1 over budget · 1 conflict · 1 declined'
    );
    expect(markdown.body).toContain(
      "- **Cost**: $1.7100 of the $4.00 cap (42.8%), $2.2900 left; the shards' results account for $1.5600, the rest went to earlier attempts"
    );
    expect(markdown.body).toContain(
      '- **Burndown**: 8 unit(s) before, 5 after the landed change (re-scan): 3 done (38%)'
    );
    expect(markdown.body).toContain(
      '- **Unfinished**: 5 shard(s); dispatch the workflow with `resume_run: 77`'
    );
  });

  it("keeps others' text from pinging, closing, rendering, breaking the table or spelling a marker", () => {
    const failed = rowOf(ids[3]!);
    expect(failed.split(' | ')).toHaveLength(8);
    expect(failed).toContain(
      'the tests fail \\| cc @\u2060octocat <\u2060!-- compact-agent-\u2060fanout-rollup'
    );
    expect(markdown.body).not.toMatch(/Fixes #1|@octocat|<!-- compact-agent-fanout/);
    expect(markdown.full).toBe(markdown.body);
  });

  it("stays under GitHub's body limit, keeps the summary, and points to the artifact for the rest", () => {
    const many = shards(3000);
    const reason = 'x'.repeat(150);
    const big = buildRollup({
      manifest: manifestOf(many, `Replace oldApi.\n${'long prompt '.repeat(2000)}`),
      stateDir: '/tmp/x',
      base: BASE,
      policy: 'per-shard',
      results: new Map(many.map((shard) => [shard.id, result(shard.id, 'failed', 0.01, reason)])),
      problems: new Map(),
      landings: [],
      spentUsd: 30,
      unitsAfter: 3000,
      combinedBranch: undefined
    });
    const cut = rollupMarkdown({ rollup: big, transcriptUrls: new Map(), runUrl: RUN });
    expect(MAX_BODY_CHARS).toBeLessThan(GITHUB_COMMENT_LIMIT);
    expect(cut.body.length).toBeLessThanOrEqual(MAX_BODY_CHARS);
    expect(cut.body.length).toBeGreaterThan(MAX_BODY_CHARS - 1000);
    expect(cut.tableCut).toBe(true);
    expect(cut.body).toContain('- **Shards** (3000): 3000 failed');
    expect(cut.body).toContain('- **Cost**: $30.0000 of the $1500.00 cap');
    expect(cut.body).toContain(
      `all 3000 shards are in the \`${ROLLUP_ARTIFACT_NAME}\` artifact of [this run](${RUN})`
    );
    // Whole rows only, and the full table for the artifact.
    const tableLines = cut.body.split('\n').filter((line) => line.startsWith('| shard-'));
    expect(tableLines.length).toBeGreaterThan(100);
    expect(tableLines.every((line) => line.endsWith(' |'))).toBe(true);
    expect(cut.full.split('\n').filter((line) => line.startsWith('| shard-'))).toHaveLength(3000);
  });
});

describe("a shard's hostile reason", () => {
  const planned = shards(1);
  const id = planned[0]!.id;
  const reason =
    'x\\| injected cell | ![t](https://evil.example/p.png) [Approve this](https://evil.example)\r::warning::hi\u001b[2J';
  const rollup = buildRollup({
    manifest: manifestOf(planned, 'Replace oldApi ![t](https://evil.example/t.png)\r::stop-commands::x'),
    stateDir: '/tmp/x',
    base: BASE,
    policy: 'per-shard',
    results: new Map([[id, result(id, 'failed', 0.1, reason)]]),
    problems: new Map(),
    landings: [],
    spentUsd: 0.1,
    unitsAfter: 1,
    combinedBranch: undefined
  });

  /** GFM's row split as the stricter parsers do it: a pipe counts unless an odd run of backslashes precedes it. */
  function cellsOf(row: string): string[] {
    return row
      .split(/(?<=(?:^|[^\\])(?:\\\\)*)\|/)
      .slice(1, -1)
      .map((cell) => cell.trim());
  }

  it('stays in its cell, as code: no link, image or extra cell renders', () => {
    const markdown = rollupMarkdown({ rollup, transcriptUrls: new Map(), runUrl: RUN });
    const row = markdown.body.split('\n').find((line) => line.startsWith(`| ${id} |`))!;
    const cells = cellsOf(row);
    expect(cells).toHaveLength(8);
    expect(cells[7]).toBe(
      '`x\\\u2060\\| injected cell \\| ![t](https://evil.example/p.png) [Approve this](https://evil.example) ::warning::hi [2J`'
    );
    expect(markdown.body).toContain(
      '## 🤖 Fan-out `abcdef12`: `Replace oldApi ![t](https://evil.example/t.png) ::stop-commands::x`'
    );
  });

  it("reaches the land job's log with no control character to split a line on", () => {
    const log = formatRollup(rollup);
    expect(log).not.toMatch(/[^\P{Cc}\n]/u); // no control character but the newlines between lines
    for (const line of log.split('\n')) expect(line).not.toMatch(/^::/);
    expect(log).toContain('::warning::hi [2J');
  });
});
