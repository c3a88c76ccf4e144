/**
 * `npm run screenshot:audit`: makes docs/audit-report.png from a real demo run. It runs `npm run
 * demo` (offline, the action from this checkout's src/), renders the audit page of the transcript the
 * run wrote, as `compact-agent transcript --html` does, and screenshots it with Debian's headless
 * Chromium (/usr/bin/chromium, driven by playwright-core as __tests__/audit/browser.test.ts does),
 * with the first auto compaction open. It checks what the picture is for before writing it: the
 * request in the task box, the links, and the files changed as the pull request shows them.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { renderHtmlReport } from '../src/audit/html-report.js';
import { loadTranscript } from '../src/audit/load-transcript.js';
import { parseTranscript } from '../src/audit/parse-transcript.js';
import type { RunAudit } from '../src/audit/run-audit.js';
import { requireChromium, screenshotPage } from './chromium-screenshot.js';

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUTPUT = path.join(projectRoot, 'docs', 'audit-report.png');
const VIEWPORT = { width: 1280, height: 1700 };

/** Runs the demo and returns the transcript folder its outputs name. */
function runDemo(): string {
  const stdout = execFileSync('npm', ['run', '--silent', 'demo', '--', '--from-source'], {
    cwd: projectRoot,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 64 * 1024 * 1024
  });
  const line = stdout.split('\n').find((text) => text.startsWith('outputs: '));
  const outputs = line ? (JSON.parse(line.slice('outputs: '.length)) as Record<string, string>) : {};
  if (!outputs.transcript_dir) throw new Error(`the demo printed no transcript_dir:\n${stdout.slice(-2000)}`);
  return outputs.transcript_dir;
}

/** What the screenshot is meant to show; a demo that no longer shows it fails the script, not the picture. */
function problemsOf(audit: RunAudit): string[] {
  return [
    audit.filesChanged.join(',') === 'src/word-count.js,test/word-count.test.js'
      ? ''
      : `files changed are ${audit.filesChanged.join(', ')}, not the fix and its test`,
    audit.thread?.links.thread ? '' : 'run_start records no thread link',
    audit.compactions.some((event) => event.layer === 'auto') ? '' : 'no auto compaction to open'
  ].filter((problem) => problem !== '');
}

async function main(): Promise<void> {
  requireChromium();
  const transcriptDir = runDemo();
  const audit = parseTranscript((await loadTranscript(transcriptDir)).text);
  const problems = problemsOf(audit);
  if (problems.length > 0) throw new Error(`the demo's audit page would not show it: ${problems.join('; ')}`);
  const work = mkdtempSync(path.join(tmpdir(), 'audit-screenshot-'));
  try {
    const page = path.join(work, 'report.html');
    writeFileSync(page, renderHtmlReport(audit));
    const first = audit.compactions.findIndex((event) => event.layer === 'auto') + 1;
    await screenshotPage({
      url: `${pathToFileURL(page).href}#compaction-${first}`,
      output: OUTPUT,
      viewport: VIEWPORT,
      waitFor: '#compaction-detail',
      workDir: work
    });
    console.log(`wrote ${path.relative(projectRoot, OUTPUT)} from ${transcriptDir}`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
