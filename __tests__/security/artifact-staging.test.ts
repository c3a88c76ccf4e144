/**
 * Attacks on the artifact: during its turns the agent replaces `.transcripts` with a link to $HOME,
 * plants a credentials file, hard-links or symlinks a segment, rewrites or deletes the transcript.
 * The artifact is built from the action's own records and uploaded with the real @actions/artifact
 * client to the fake artifact service; what the fake stored is what is checked.
 */
import {
  linkSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync
} from 'node:fs';
import path from 'node:path';
import { stageRunArtifact, type RunRecords } from '../../src/artifacts/stage-run.js';
import { ActionsArtifactUploader } from '../../src/artifacts/transcript-artifact.js';
import { Redactor } from '../../src/security/redactor.js';
import { compactionLogWriter } from '../../src/transcript/compaction-log.js';
import { verifyChain } from '../../src/transcript/verify-chain.js';
import { TranscriptWriter } from '../../src/transcript/writer.js';
import { WrittenFiles } from '../../src/transcript/written-files.js';
import {
  artifactEnv,
  startFakeArtifacts,
  type FakeArtifacts
} from '../../test-support/fake-artifacts/index.js';
import { createTempDir } from '../support/temp-repo.js';

const TOKEN = 'ghs_Q2w3E4r5T6y7U8i9O0pAsDfGhJkLzXcVbN12';
const redact = new Redactor([TOKEN]).redact;
const HOME_SECRET = `machine github.com login x password ${TOKEN}`;

interface Run {
  readonly workspace: string;
  readonly transcripts: string;
  readonly runDir: string;
  readonly home: string;
  readonly records: () => RunRecords;
  readonly writer: TranscriptWriter;
}

/** What the action writes during a run: transcript lines, a compaction log line, a segment and a spill. */
function actionRun(): Run {
  const root = createTempDir('staging-');
  const workspace = path.join(root, 'workspace');
  const home = path.join(root, 'home');
  mkdirSync(path.join(home, '.ssh'), { recursive: true });
  writeFileSync(path.join(home, '.git-credentials'), HOME_SECRET);
  writeFileSync(path.join(home, '.ssh', 'id_ed25519'), 'private key material');
  const transcripts = path.join(workspace, '.transcripts');
  const runDir = path.join(transcripts, '42-1');
  const writer = new TranscriptWriter(runDir, { redact });
  const log = compactionLogWriter(runDir, redact);
  const written = new WrittenFiles(runDir);
  writer.append({ type: 'message', turn: 0, index: 0, role: 'user', content: 'fix it' });
  writer.append({ type: 'message', turn: 1, index: 1, role: 'user', content: `token was ${TOKEN}` });
  writer.append({ type: 'retry', turn: 1, attempt: 1, error: 'overloaded' });
  log.append({
    turn: 1,
    layer: 'micro',
    reason: 'test',
    tokens_before: 10,
    tokens_after: 5,
    results_cleared: 1,
    summary_tokens: 0,
    summary_cost_usd: 0,
    duration_ms: 0,
    segment_path: null,
    focus: null,
    tool_use_ids: ['t1']
  });
  mkdirSync(path.join(runDir, 'segments'));
  mkdirSync(path.join(runDir, 'tool-results'));
  written.write(path.join(runDir, 'segments', 'segment-001.json'), '[{"role":"user","content":"fix it"}]');
  written.write(path.join(runDir, 'tool-results', 'toolu_1.txt'), 'a long tool result');
  return {
    workspace,
    transcripts,
    runDir,
    home,
    writer,
    records: () => ({ runDir, transcript: writer, compactionLog: log, files: written.entries() })
  };
}

const stagingParent = () => createTempDir('runner-temp-');

function stagedTree(dir: string): string[] {
  return (
    readdirSync(dir, { recursive: true, withFileTypes: true }) as Array<{
      parentPath: string;
      name: string;
      isFile(): boolean;
    }>
  )
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
    .sort();
}

const ACTION_FILES = [
  '42-1/compaction-log.jsonl',
  '42-1/segments/segment-001.json',
  '42-1/tool-results/toolu_1.txt',
  '42-1/transcript.jsonl'
];

describe('staging the artifact from the action’s own records', () => {
  it('.transcripts replaced by a symlink to $HOME: the staged tree holds only what the action wrote', async () => {
    const run = actionRun();
    rmSync(run.transcripts, { recursive: true });
    symlinkSync(run.home, run.transcripts);
    const staged = await stageRunArtifact(run.records(), { redact, parentDir: stagingParent() });
    expect(stagedTree(staged.dir)).toEqual(['42-1/transcript.jsonl', '42-1/compaction-log.jsonl'].sort());
    expect(staged.findings.join('\n')).toMatch(/transcript\.jsonl in the workspace was removed/);
    expect(staged.findings.join('\n')).toMatch(/segments\/segment-001\.json was removed/);
    const everything = staged.files.map((file) => readFile(file)).join('\n');
    expect(everything).not.toContain('private key material');
    expect(everything).not.toContain(TOKEN);
    await staged.remove();
  });

  it('a credentials file planted in the run folder is not taken', async () => {
    const run = actionRun();
    writeFileSync(path.join(run.runDir, 'credentials.json'), JSON.stringify({ token: TOKEN }));
    writeFileSync(path.join(run.runDir, 'segments', 'segment-002.json'), HOME_SECRET);
    const staged = await stageRunArtifact(run.records(), { redact, parentDir: stagingParent() });
    expect(stagedTree(staged.dir)).toEqual(ACTION_FILES);
    expect(staged.findings).toEqual([]);
    await staged.remove();
  });

  it('a segment swapped for a hard link to a secret, or given a second name, is left out', async () => {
    const run = actionRun();
    const segment = path.join(run.runDir, 'segments', 'segment-001.json');
    rmSync(segment);
    linkSync(path.join(run.home, '.git-credentials'), segment);
    const spill = path.join(run.runDir, 'tool-results', 'toolu_1.txt');
    linkSync(spill, path.join(run.home, 'kept-by-the-agent.txt')); // the agent could now change it unseen
    const staged = await stageRunArtifact(run.records(), { redact, parentDir: stagingParent() });
    expect(stagedTree(staged.dir)).toEqual(['42-1/compaction-log.jsonl', '42-1/transcript.jsonl']);
    expect(staged.findings).toEqual([
      'segments/segment-001.json has 2 hard links (another name could change it); it is left out of the artifact.',
      'tool-results/toolu_1.txt has 2 hard links (another name could change it); it is left out of the artifact.'
    ]);
    await staged.remove();
  });

  it('a segment replaced by a symlink, or rewritten in place, (same size), is left out', async () => {
    const run = actionRun();
    const segment = path.join(run.runDir, 'segments', 'segment-001.json');
    rmSync(segment);
    symlinkSync(path.join(run.home, '.git-credentials'), segment);
    writeFileSync(path.join(run.runDir, 'tool-results', 'toolu_1.txt'), 'a LONG tool result'); // same size
    const staged = await stageRunArtifact(run.records(), { redact, parentDir: stagingParent() });
    expect(stagedTree(staged.dir)).toEqual(['42-1/compaction-log.jsonl', '42-1/transcript.jsonl']);
    expect(staged.findings).toEqual([
      'segments/segment-001.json was replaced by a symbolic link; it is left out of the artifact.',
      'tool-results/toolu_1.txt was rewritten after the action wrote it; it is left out of the artifact.'
    ]);
    await staged.remove();
  });

  it('a transcript line rewritten in the workspace: the artifact has the original, and the change is named', async () => {
    const run = actionRun();
    const original = readFile(run.writer.path);
    const lines = original.trimEnd().split('\n');
    lines[1] = lines[1]!.replace('token was', 'token WAS');
    writeFileSync(run.writer.path, `${lines.join('\n')}\n`);
    const staged = await stageRunArtifact(run.records(), { redact, parentDir: stagingParent() });
    const transcript = readFile(path.join(staged.dir, '42-1', 'transcript.jsonl'));
    expect(transcript).toBe(original);
    expect(verifyChain(transcript, run.writer.head).status).toBe('intact');
    expect(staged.findings).toEqual([
      "transcript.jsonl in the workspace differs from what the action wrote, from line 2 on (rewritten, removed or added lines); the artifact holds the action's own copy."
    ]);
    await staged.remove();
  });

  it('redacts every staged file on the way out, and makes a private folder it removes afterwards', async () => {
    const run = actionRun();
    const written = new WrittenFiles(run.runDir);
    // A file written before redaction caught up (say, a value learnt late): staging still hides it.
    written.write(
      path.join(run.runDir, 'tool-results', 'raw.txt'),
      `base64: ${Buffer.from(TOKEN).toString('base64')}`
    );
    const records = { ...run.records(), files: [...run.records().files, ...written.entries()] };
    const staged = await stageRunArtifact(records, {
      redact,
      parentDir: stagingParent(),
      extraFiles: [{ name: 'changes.patch', text: `+const t = "${TOKEN}";\n` }]
    });
    expect(statSync(staged.dir).mode & 0o777).toBe(0o700);
    for (const file of staged.files) {
      const text = readFile(file);
      expect(text).not.toContain(TOKEN);
      expect(text).not.toContain(Buffer.from(TOKEN).toString('base64'));
    }
    expect(readFile(path.join(staged.dir, '42-1', 'changes.patch'))).toBe('+const t = "***";\n');
    await staged.remove();
    expect(() => statSync(staged.dir)).toThrow();
  });
});

describe('uploading the staged record with the real artifact client', () => {
  let fake: FakeArtifacts;
  const saved = new Map<string, string | undefined>();
  const realWrite = process.stdout.write.bind(process.stdout);
  beforeEach(async () => {
    fake = await startFakeArtifacts();
    const env = artifactEnv(fake);
    for (const key of Object.keys(env)) saved.set(key, process.env[key]);
    Object.assign(process.env, env);
    process.stdout.write = (() => true) as typeof process.stdout.write; // @actions/core's log lines
  });
  afterEach(async () => {
    process.stdout.write = realWrite;
    for (const [key, value] of saved) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
    await fake.close();
  });

  async function upload(records: RunRecords, name: string) {
    const staged = await stageRunArtifact(records, { redact, parentDir: stagingParent() });
    try {
      await new ActionsArtifactUploader().upload(name, staged.dir, 1, staged.files);
    } finally {
      await staged.remove();
    }
    return fake.files(name);
  }

  it('rm -rf .transcripts: the uploaded artifact still holds the whole transcript, and it verifies against the head', async () => {
    const run = actionRun();
    rmSync(run.transcripts, { recursive: true, force: true });
    const files = await upload(run.records(), 'deleted');
    const transcript = files.get('42-1/transcript.jsonl')?.toString('utf8') ?? '';
    expect(transcript.trimEnd().split('\n')).toHaveLength(3);
    expect(verifyChain(transcript, run.writer.head)).toMatchObject({ status: 'intact', lines: 3 });
    expect(transcript).not.toContain(TOKEN);
  });

  it('.transcripts → $HOME, a planted credentials file and a moved-away run folder: no foreign byte is uploaded', async () => {
    const run = actionRun();
    writeFileSync(path.join(run.runDir, '.git-credentials'), HOME_SECRET);
    renameSync(run.transcripts, path.join(run.workspace, 'moved'));
    symlinkSync(run.home, run.transcripts);
    const files = await upload(run.records(), 'swapped');
    expect([...files.keys()].sort()).toEqual(['42-1/compaction-log.jsonl', '42-1/transcript.jsonl']);
    for (const bytes of files.values()) {
      expect(bytes.toString('utf8')).not.toContain(TOKEN);
      expect(bytes.toString('utf8')).not.toContain('private key material');
    }
  });
});

function readFile(file: string): string {
  return readFileSync(file, 'utf8');
}
