/** `compact-agent transcript verify`: the reviewer's check of a transcript the agent may have touched. */
import { execFileSync } from 'node:child_process';
import { closeSync, ftruncateSync, openSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DEFAULT_ZIP_LIMITS } from '../../src/audit/zip-reader.js';
import { CliError, EXIT } from '../../src/cli/exit-codes.js';
import { transcriptCommand } from '../../src/cli/transcript-command.js';
import { VERIFY_COMMAND, verifyCommand } from '../../src/cli/verify-command.js';
import { TranscriptWriter } from '../../src/transcript/writer.js';
import { startFakeArtifacts } from '../../test-support/fake-artifacts/index.js';
import { cliEnv, spawnCli } from '../support/cli.js';
import { createTempDir } from '../support/temp-repo.js';
import { uploadAsTheAction } from '../support/upload-as-action.js';
import { buildZip } from './zip-builder.js';

function recordedRun(): { transcripts: string; runDir: string; writer: TranscriptWriter } {
  const transcripts = path.join(createTempDir('verify-'), '.transcripts');
  const runDir = path.join(transcripts, '7-1');
  const writer = new TranscriptWriter(runDir);
  writer.append({
    type: 'run_start',
    run_id: '7-1',
    task: 'fix the flaky test',
    model: 'claude-sonnet-5-5',
    repo: '/w',
    system_prompt: 's',
    tools: ['bash'],
    limits: { max_turns: 3, timeout_minutes: 1, max_budget_usd: 1 },
    context_window: 200_000
  });
  writer.append({ type: 'message', turn: 0, index: 0, role: 'user', content: 'fix the flaky test' });
  writer.append({ type: 'message', turn: 1, index: 1, role: 'assistant', content: 'I deleted the test.' });
  writer.append({
    type: 'run_end',
    stop_reason: 'success',
    turns: 1,
    usage: { input: 1, cache_write: 0, cache_read: 0, output: 1 },
    cost_usd: 0.01,
    duration_ms: 9,
    summary: 'Deleted the flaky test.',
    error: null
  });
  writer.close();
  return { transcripts, runDir, writer };
}

function io() {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, io: { stdout: (t: string) => out.push(t), stderr: (t: string) => err.push(t) } };
}

/** The agent hides what it did: the assistant's confession becomes an innocent sentence. */
function hideTheDeletion(file: string): void {
  writeFileSync(file, readFileSync(file, 'utf8').replace('I deleted the test.', 'I fixed the timing.'));
}

describe('verifyCommand', () => {
  it('an intact run folder, .transcripts folder or file: exit 0, with and without --head', async () => {
    const { transcripts, runDir, writer } = recordedRun();
    for (const target of [runDir, transcripts, writer.path]) {
      const a = io();
      expect(await verifyCommand({ target, head: undefined }, a.io)).toBe(0);
      expect(a.out.join('')).toContain('the hash chain is intact (4 lines');
      const b = io();
      expect(await verifyCommand({ target, head: writer.head }, b.io)).toBe(0);
      expect(b.out.join('')).toContain('It ends at the head given.');
    }
  });

  it('a line rewritten in the workspace: exit 1, naming the line', async () => {
    const { runDir, writer } = recordedRun();
    hideTheDeletion(writer.path);
    const a = io();
    expect(await verifyCommand({ target: runDir, head: undefined }, a.io)).toBe(1);
    expect(a.err.join('')).toContain('Line 3 is the first bad line');
    expect(a.err.join('')).toContain('its content was changed after it was written');
  });

  it('the last lines removed: intact without --head (with a warning), exit 1 with it', async () => {
    const { writer } = recordedRun();
    const lines = readFileSync(writer.path, 'utf8').trimEnd().split('\n');
    writeFileSync(writer.path, `${lines.slice(0, 2).join('\n')}\n`);
    const loose = io();
    expect(await verifyCommand({ target: writer.path, head: undefined }, loose.io)).toBe(0);
    expect(loose.out.join('')).toContain('It has no run_end line');
    const strict = io();
    expect(await verifyCommand({ target: writer.path, head: writer.head }, strict.io)).toBe(1);
    expect(strict.err.join('')).toContain('Line 3 is the first bad line (the file has 2)');
    expect(strict.err.join('')).toContain('lines were removed from the end');
  });

  it('bad use: no path, a missing path, a head that is not a sha256', async () => {
    const { writer } = recordedRun();
    const a = io();
    expect(await verifyCommand({ target: undefined, head: undefined }, a.io)).toBe(2);
    expect(await verifyCommand({ target: '/nope/nothing', head: undefined }, a.io)).toBe(2);
    expect(await verifyCommand({ target: writer.path, head: 'abc' }, a.io)).toBe(2);
    expect(a.err.join('\n')).toContain('--head must be the 64-character lowercase hex hash');
  });

  it('does not call an empty file or a file of something else intact or unchained: exit 3, as the README says', async () => {
    const folder = createTempDir('not-transcripts-');
    const empty = path.join(folder, 'empty.jsonl');
    const foreign = path.join(folder, 'events.jsonl');
    writeFileSync(empty, '');
    writeFileSync(foreign, 'hello\n{"a":1}\n');
    const a = io();
    expect(await verifyCommand({ target: empty, head: undefined }, a.io)).toBe(EXIT.fileProblem);
    expect(await verifyCommand({ target: foreign, head: undefined }, a.io)).toBe(EXIT.fileProblem);
    expect(a.err.join('\n')).toContain('is not a compact-agent transcript: the file is empty');
    expect(a.err.join('\n')).toContain(
      'is not a compact-agent transcript: none of its 2 lines is a transcript event (line 1: not valid JSON)'
    );
    expect(a.out).toEqual([]);
  });

  it('an empty file is not a transcript even with --head: exit 3, as the README says (it was 1)', async () => {
    const { writer } = recordedRun();
    writeFileSync(writer.path, '');
    const a = io();
    expect(await verifyCommand({ target: writer.path, head: writer.head }, a.io)).toBe(EXIT.fileProblem);
    expect(a.err.join('\n')).toContain('is not a compact-agent transcript: the file is empty');
    expect(a.out).toEqual([]);
  });

  it('a zip whose transcript entry is not a transcript: exit 3 (the attack review saw 1)', async () => {
    const zip = path.join(createTempDir('foreign-zip-'), 'agent-transcripts-7-1.zip');
    writeFileSync(
      zip,
      buildZip([{ name: '7-1/transcript.jsonl', data: Buffer.from('not a transcript\n{"a":1}\n') }])
    );
    const a = io();
    expect(await verifyCommand({ target: zip, head: undefined }, a.io)).toBe(EXIT.fileProblem);
    expect(a.err.join('\n')).toContain('is not a compact-agent transcript');
    expect(a.out).toEqual([]);
  });

  it('the exit codes are the ones the help and docs/auditing.md name', () => {
    const page = readFileSync('docs/auditing.md', 'utf8');
    expect(VERIFY_COMMAND.help).toContain('1 tampered, truncated or without a hash chain');
    expect(VERIFY_COMMAND.help).toContain('3 the file cannot be used (empty, not a transcript');
    expect(page).toMatch(
      /bad use, 3 when the file cannot be used at all: empty, not a transcript \(also inside a zip\)/
    );
  });

  it('the downloaded artifact zip, as the action uploads it, verifies against the head', async () => {
    const { runDir, writer } = recordedRun();
    const fake = await startFakeArtifacts();
    try {
      await uploadAsTheAction(fake, 'agent-transcripts-7-1', runDir, writer);
    } finally {
      await fake.close();
    }
    const zip = path.join(createTempDir('download-'), 'agent-transcripts-7-1.zip');
    writeFileSync(zip, fake.artifact('agent-transcripts-7-1')!.bytes);
    const a = io();
    expect(await verifyCommand({ target: zip, head: writer.head }, a.io)).toBe(0);
    expect(a.out.join('')).toContain(`${zip}:7-1/transcript.jsonl: the hash chain is intact`);
    const b = io();
    expect(await verifyCommand({ target: zip, head: 'f'.repeat(64) }, b.io)).toBe(1);
  });
});

/** What `compact-agent transcript PATH` says about a PATH it cannot use: its message and exit code. */
async function transcriptRefusal(target: string): Promise<{ code: number; message: string }> {
  const a = io();
  const error = await transcriptCommand(
    { positionals: [target], values: new Map(), switches: new Set() },
    { ...a.io, env: {} }
  ).then(
    () => undefined,
    (caught: unknown) => caught
  );
  expect(error).toBeInstanceOf(CliError);
  return { code: (error as CliError).exitCode, message: (error as CliError).message };
}

async function verifyRefusal(target: string): Promise<{ code: number; message: string }> {
  const a = io();
  const code = await verifyCommand({ target, head: undefined }, a.io);
  expect(a.out).toEqual([]);
  return { code, message: a.err.join('\n') };
}

describe('verify reads PATH through the same loader as transcript, and says the same', () => {
  const cases: ReadonlyArray<{ what: string; target: () => string; code: number; says: string[] }> = [
    {
      what: 'a FIFO (refused at once, not waited on)',
      target: () => {
        const fifo = path.join(createTempDir('verify-fifo-'), 'transcript.jsonl');
        execFileSync('mkfifo', [fifo]);
        return fifo;
      },
      code: EXIT.fileProblem,
      says: ['is not a regular file: it is a FIFO (named pipe).', 'Give a run folder']
    },
    {
      what: 'a folder without a transcript',
      target: () => createTempDir('verify-empty-'),
      code: EXIT.fileProblem,
      says: ['No transcript.jsonl in', 'or in a run folder inside it.', 'Give a run folder']
    },
    {
      what: "a file over the reader's cap (sparse: its size is real, its blocks are not)",
      target: () => {
        const big = path.join(createTempDir('verify-big-'), 'transcript.jsonl');
        const fd = openSync(big, 'w');
        ftruncateSync(fd, DEFAULT_ZIP_LIMITS.maxTotalBytes + 1);
        closeSync(fd);
        return big;
      },
      code: EXIT.fileProblem,
      says: ['cannot be read: it is too big (more than 512 MiB; it is read only up to 512 MiB)']
    },
    {
      what: 'a loop of symbolic links (named as such, not as missing)',
      target: () => {
        const dir = createTempDir('verify-loop-');
        symlinkSync(path.join(dir, 'b'), path.join(dir, 'a'));
        symlinkSync(path.join(dir, 'a'), path.join(dir, 'b'));
        return path.join(dir, 'a');
      },
      code: EXIT.fileProblem,
      says: ['cannot be read: a loop of symbolic links.', 'Give a run folder']
    },
    {
      what: 'an empty file',
      target: () => {
        const empty = path.join(createTempDir('verify-empty-file-'), 'transcript.jsonl');
        writeFileSync(empty, '');
        return empty;
      },
      code: EXIT.fileProblem,
      says: ['is not a compact-agent transcript: the file is empty.', 'Give a run folder']
    },
    {
      what: 'JSON lines with a type that are not transcript events',
      target: () => {
        const foreign = path.join(createTempDir('verify-foreign-'), 'events.jsonl');
        writeFileSync(foreign, '{"type":"push","ref":"main"}\n{"seq":0,"time":"t","type":"push"}\n');
        return foreign;
      },
      code: EXIT.fileProblem,
      says: ['is not a compact-agent transcript: none of its 2 lines is a transcript event (line 1: ']
    },
    {
      what: 'a path that does not exist',
      target: () => path.join(createTempDir('verify-missing-'), 'nope'),
      code: EXIT.usage,
      says: ['nope does not exist. Give a run folder']
    }
  ];

  it.each(cases)('$what', async ({ target, code, says }) => {
    const given = target();
    const verified = await verifyRefusal(given);
    const read = await transcriptRefusal(given);
    expect(verified).toEqual(read);
    expect(verified.code).toBe(code);
    for (const words of says) expect(verified.message).toContain(words);
  });
});

describe('the reader says when the chain is broken', () => {
  it('compact-agent transcript PATH warns on stderr, and still shows what it can', async () => {
    const { runDir, writer } = recordedRun();
    hideTheDeletion(writer.path);
    const a = io();
    const code = await transcriptCommand(
      { positionals: [runDir], values: new Map(), switches: new Set() },
      { ...a.io, env: {} }
    );
    expect(code).toBe(0);
    expect(a.err.join('')).toContain('tampered with or truncated. Line 3 is the first bad line');
    expect(a.out.join('')).toContain('fix the flaky test');
  });

  it('an intact transcript gets no warning', async () => {
    const { runDir } = recordedRun();
    const a = io();
    await transcriptCommand(
      { positionals: [runDir], values: new Map(), switches: new Set(['json']) },
      { ...a.io, env: {} }
    );
    expect(a.err).toEqual([]);
  });
});

describe('the CLI entry point (from src, through tsx)', () => {
  const cli = (...args: string[]) => spawnCli(args, { env: cliEnv() });

  it('transcript verify PATH --head HASH: 0 when intact, 1 when tampered', async () => {
    const { runDir, writer } = recordedRun();
    const ok = await cli('transcript', 'verify', runDir, '--head', writer.head);
    expect(ok.stderr).toBe('');
    expect(ok.code).toBe(0);
    hideTheDeletion(writer.path);
    const bad = await cli('transcript', 'verify', runDir, '--head', writer.head);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('Line 3 is the first bad line');
  }, 60_000);
});
