import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runSession, type SessionOutcome } from '../../src/agent/session.js';
import { parseAgentConfig } from '../../src/config/inputs.js';
import { AnthropicModelClient } from '../../src/model/anthropic-client.js';
import { startFakeAnthropic } from '../../test-support/fake-anthropic/index.js';
import { explorerScript } from '../support/explorer-script.js';
import { cliEnv, spawnCli } from '../support/cli.js';
import { createTempDir, createTempRepo, type TempRepo } from '../support/temp-repo.js';

let repo: TempRepo;
let outcome: SessionOutcome;
beforeAll(async () => {
  repo = createTempRepo(path.resolve('node_modules/fast-glob/out'));
  const fake = await startFakeAnthropic({ script: explorerScript(12) });
  try {
    outcome = await runSession({
      config: parseAgentConfig(() => '', { ANTHROPIC_API_KEY: 'k' }),
      task: 'Explore and take notes.',
      repoDir: repo.root,
      transcriptsDir: path.join(repo.root, '.transcripts'),
      runId: 'cli-audit',
      env: process.env,
      model: new AnthropicModelClient({ apiKey: 'k', baseURL: fake.url, retryBaseDelayMs: 1 })
    });
  } finally {
    await fake.close();
  }
});
afterAll(() => repo.remove());

/** The CLI's entry point from the sources (the lead rebuilds the committed dist/ from them). */
const cli = (...args: string[]) => spawnCli(['transcript', ...args], { env: cliEnv() });

const noStack = (stderr: string) => expect(stderr).not.toMatch(/\n\s+at /);

describe('compact-agent transcript', () => {
  it('prints the summary of a run folder', async () => {
    const run = await cli(outcome.runDir);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Run cli-audit · claude-sonnet-5-5 · success · 12 turns');
    expect(run.stdout).toMatch(/Tools: .*read_file \d+ \(1 failed\)/);
    expect(run.stdout).toContain('Files changed: ');
  });

  it('prints JSON for scripts, and writes a self-contained HTML report', async () => {
    const html = path.join(createTempDir('audit-html-'), 'report.html');
    const run = await cli(path.join(repo.root, '.transcripts'), '--json', '--html', html);
    expect(run.code).toBe(0);
    const summary = JSON.parse(run.stdout) as { stop_reason: string; turns: number; run_id: string };
    expect(summary).toMatchObject({ stop_reason: 'success', turns: 12, run_id: 'cli-audit' });
    const report = readFileSync(html, 'utf8');
    expect(report.startsWith('<!DOCTYPE html>') || report.startsWith('<!doctype html>')).toBe(true);
    expect(report).toContain('Explore and take notes.');
    rmSync(path.dirname(html), { recursive: true, force: true });
  });

  it('says clearly when there is nothing to read', async () => {
    const run = await cli(path.join(repo.root, 'nope'));
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('does not exist');
    const bare = await cli();
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain('Which transcript?');
  });

  it('refuses a file that is not a transcript (exit 3), and prints no empty summary', async () => {
    const run = await cli('package.json');
    expect(run.code).toBe(3);
    expect(run.stderr.trim()).toMatch(
      /^compact-agent transcript: package\.json is not a compact-agent transcript: none of its \d+ lines is a transcript event .*Give a run folder/
    );
    expect(run.stdout).toBe('');
    noStack(run.stderr);
    const folder = createTempDir('not-transcripts-');
    writeFileSync(path.join(folder, 'events.jsonl'), '{"type":"push","ref":"main"}\n');
    const typedButForeign = await cli(path.join(folder, 'events.jsonl'));
    expect(typedButForeign.code).toBe(3);
    // A typed JSON line that is not one of ours: the shared line envelope already refuses it.
    expect(typedButForeign.stderr).toMatch(
      /is not a compact-agent transcript: none of its 1 lines is a transcript event/
    );
    expect(typedButForeign.stdout).toBe('');
    rmSync(folder, { recursive: true, force: true });
  });

  it('says clearly when the --html report cannot be written, with no stack and no half-done output', async () => {
    const folder = createTempDir('audit-html-bad-');
    mkdirSync(path.join(folder, 'report.html'));
    const cases: Array<{ html: string; says: string }> = [
      { html: path.join(folder, 'report.html'), says: 'this is a folder; give a file name' },
      {
        html: path.join(folder, 'missing', 'report.html'),
        says: 'does not exist. Create it or choose another path'
      },
      // Writing to /dev/full fails with ENOSPC: a real write error, whoever runs the test.
      { html: '/dev/full', says: 'the report cannot be written' }
    ];
    for (const { html, says } of cases) {
      const run = await cli(outcome.runDir, '--html', html);
      expect(run.code).toBe(3);
      expect(run.stderr).toContain(`--html ${html}: `);
      expect(run.stderr).toContain(says);
      expect(run.stdout).toBe('');
      noStack(run.stderr);
    }
    rmSync(folder, { recursive: true, force: true });
  });
});
