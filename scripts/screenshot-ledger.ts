/**
 * `npm run screenshot:ledger`: makes docs/audit-ledger.png, the ledger of `compact-agent audit`. It
 * records six runs of the agent on the project's fake GitHub and fake artifact service (each
 * transcript written by the real TranscriptWriter and uploaded by the action's real artifact
 * uploader, each reported by a bot comment carrying the run's state, as in the tests), changes one
 * artifact after upload, expires one and deletes one, runs `compact-agent audit --html` from this
 * checkout's sources against them, and screenshots the page with Debian's headless Chromium
 * (/usr/bin/chromium, driven by playwright-core as screenshot-audit.ts does). It checks what the
 * picture is for before writing it: every verdict and the totals on the page, and exit 1 (a record
 * was tampered with).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { runCli } from '../src/cli/main.js';
import { AuditWorld } from '../__tests__/support/audit-world.js';
import { requireChromium, screenshotPage } from './chromium-screenshot.js';

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUTPUT = path.join(projectRoot, 'docs', 'audit-ledger.png');
const VIEWPORT = { width: 1500, height: 860 };

async function recordRuns(world: AuditWorld): Promise<void> {
  const runs = [
    {
      run: 8801,
      requester: 'alice',
      thread: 7,
      costUsd: 0.4213,
      pullRequest: 21,
      reportedAt: '2026-09-03T10:00:00Z'
    },
    {
      run: 8802,
      requester: 'bob',
      thread: 8,
      costUsd: 1.25,
      mode: 'plan',
      reportedAt: '2026-09-18T09:30:00Z'
    },
    {
      run: 8803,
      requester: 'alice',
      thread: 9,
      costUsd: 0.0875,
      mode: 'review',
      reportedAt: '2026-10-02T16:45:00Z'
    },
    {
      run: 8804,
      requester: 'carol',
      thread: 7,
      costUsd: 2.034,
      pullRequest: 21,
      reportedAt: '2026-10-14T11:12:00Z'
    },
    {
      run: 8805,
      requester: 'bob',
      thread: 8,
      costUsd: 0.66,
      pullRequest: 24,
      reportedAt: '2026-11-05T08:05:00Z'
    },
    { run: 8806, requester: 'carol', thread: 9, costUsd: 0.31, reportedAt: '2026-11-20T14:40:00Z' }
  ] as const;
  const recorded = [];
  for (const run of runs) recorded.push(await world.addRun(run));
  world.expire(recorded[0]!);
  world.tamper(recorded[3]!);
  world.github.artifactFault(recorded[5]!.artifactId, 'missing');
}

async function main(): Promise<void> {
  requireChromium();
  const work = mkdtempSync(path.join(tmpdir(), 'ledger-screenshot-'));
  const world = await AuditWorld.start();
  try {
    await recordRuns(world);
    const page = path.join(work, 'ledger.html');
    const errors: string[] = [];
    const code = await runCli(['audit', '--repo', 'acme/widgets', '--html', page], {
      stdout: () => undefined,
      stderr: (line) => errors.push(line),
      env: world.env()
    });
    const html = readFileSync(page, 'utf8');
    const problems = [
      code === 1 ? '' : `the audit exited ${code}, not 1 (${errors.join(' ')})`,
      ...['intact', 'tampered', 'expired', 'missing'].map((verdict) =>
        html.includes(`v-${verdict}">${verdict}`) ? '' : `no ${verdict} row`
      ),
      html.includes('Cost per requester') ? '' : 'no totals'
    ].filter((problem) => problem !== '');
    if (problems.length > 0) throw new Error(`the ledger would not show it: ${problems.join('; ')}`);
    await screenshotPage({
      url: pathToFileURL(page).href,
      output: OUTPUT,
      viewport: VIEWPORT,
      waitFor: 'table.ledger',
      workDir: work,
      fullPage: true
    });
    console.log(`wrote ${path.relative(projectRoot, OUTPUT)}`);
  } finally {
    await world.close();
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
