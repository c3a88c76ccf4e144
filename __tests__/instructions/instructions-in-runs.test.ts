import { readFileSync } from 'node:fs';
import path from 'node:path';
import { runSession } from '../../src/agent/session.js';
import { CLI_INPUT_NAMING } from '../../src/cli/args.js';
import { EXIT } from '../../src/cli/exit-codes.js';
import { InputError, parseAgentConfig } from '../../src/config/inputs.js';
import { readInstructionsForRun } from '../../src/instructions/for-run.js';
import { Redactor } from '../../src/security/redactor.js';
import { transcriptEvent } from '../../src/transcript/events.js';
import {
  startFakeAnthropic,
  systemText,
  type FakeAnthropic
} from '../../test-support/fake-anthropic/index.js';
import { explorerScript } from '../support/explorer-script.js';
import { cliInProcess, fakeModelEnv } from '../support/cli.js';
import { createTempRepo, type TempRepo } from '../support/temp-repo.js';

const MARKER = 'MARKER-7f3a: run `make check` before you finish';

let repo: TempRepo;
let fake: FakeAnthropic;
beforeEach(async () => {
  repo = createTempRepo(path.resolve('node_modules/fast-glob/out'));
  repo.write('AGENTS.md', MARKER);
  fake = await startFakeAnthropic({ script: explorerScript(4) });
});
afterEach(async () => {
  await fake.close();
  repo.remove();
});

const systemPrompts = () =>
  fake.requests
    .filter((record) => record.path === '/v1/messages')
    .map((record) => systemText(record.request!));

function problemsOf(inputs: Record<string, string>, naming = CLI_INPUT_NAMING): readonly string[] {
  try {
    parseAgentConfig((name) => inputs[name] ?? '', { ANTHROPIC_API_KEY: 'k' }, naming);
  } catch (error) {
    if (error instanceof InputError) return error.problems;
    throw error;
  }
  return [];
}

describe('the instruction_files input', () => {
  const parse = (value: string) =>
    parseAgentConfig((name) => (name === 'instruction_files' ? value : ''), { ANTHROPIC_API_KEY: 'k' })
      .instructionFiles;

  it('defaults to the three common files, takes a list, and none switches them off', () => {
    expect(parse('')).toEqual(['AGENTS.md', 'CLAUDE.md', '.github/copilot-instructions.md']);
    expect(parse('CONVENTIONS.md, docs/agents.md\nAGENTS.md')).toEqual([
      'CONVENTIONS.md',
      'docs/agents.md',
      'AGENTS.md'
    ]);
    expect(parse('none')).toEqual([]);
    expect(parse(' NONE ')).toEqual([]);
  });

  it.each([
    ['../outside.md', "has an empty, '.' or '..' part"],
    ['/etc/passwd', 'is an absolute path'],
    ['docs/*.md', "may hold only letters, digits, '.', '_', '-', '@' and '/'"],
    ['docs/', 'names a folder, not a file'],
    ['.git/config', 'is inside .git'],
    ['none,AGENTS.md', 'cannot be combined with other names']
  ])('refuses %s with an error naming the input', (value, says) => {
    const [problem] = problemsOf(
      { instruction_files: value },
      { ...CLI_INPUT_NAMING, nameOf: (input) => input }
    );
    expect(problem).toMatch(/^instruction_files must list instruction files/);
    expect(problem).toContain(says);
    expect(problemsOf({ instruction_files: value })[0]).toMatch(/^--instruction-files must list/);
  });
});

describe('the system prompt of a run with instruction files', () => {
  it('is the same in every request, holds the file, and run_start records it', async () => {
    const config = parseAgentConfig(() => '', { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: fake.url });
    const instructions = await readInstructionsForRun(
      { kind: 'checkout', root: repo.root },
      config.instructionFiles,
      'Explore and take notes.'
    );
    const outcome = await runSession({
      config,
      task: 'Explore and take notes.',
      repoDir: repo.root,
      transcriptsDir: path.join(repo.root, '.transcripts'),
      runId: 'instructions-run',
      env: { PATH: process.env.PATH },
      ...(instructions ? { instructions } : {})
    });
    expect(outcome.result.stopReason).toBe('success');
    const prompts = systemPrompts();
    expect(prompts.length).toBeGreaterThanOrEqual(4);
    expect(new Set(prompts).size).toBe(1);
    expect(prompts[0]).toContain(
      `<repository-instructions path="AGENTS.md" applies-to="the whole repository">\n${MARKER}`
    );
    const start = JSON.parse(readFileSync(outcome.transcriptPath, 'utf8').split('\n')[0]!) as Record<
      string,
      unknown
    >;
    expect(start.instructions).toEqual({
      source: 'the checkout',
      files: [{ path: 'AGENTS.md', bytes: MARKER.length, used_bytes: MARKER.length }],
      skipped: []
    });
    // The audit reader checks every line against the schema: the new field is in it, not stripped.
    expect(transcriptEvent.parse(start)).toMatchObject({ instructions: start.instructions });
  });
  it('redacts a known secret written into an instruction file, as it does the task', async () => {
    const secret = 'a-token-pasted-into-agents-md-5d1e';
    repo.write('AGENTS.md', `Deploy with ${secret}`);
    const config = parseAgentConfig(() => '', { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: fake.url });
    const instructions = await readInstructionsForRun(
      { kind: 'checkout', root: repo.root },
      config.instructionFiles,
      'x'
    );
    const outcome = await runSession({
      config,
      task: 'Explore and take notes.',
      repoDir: repo.root,
      transcriptsDir: path.join(repo.root, '.transcripts'),
      runId: 'instructions-redacted',
      env: { PATH: process.env.PATH },
      redact: new Redactor([secret]).redact,
      ...(instructions ? { instructions } : {})
    });
    expect(systemPrompts()[0]).toContain('Deploy with ***');
    expect(JSON.stringify(fake.requests.map((record) => record.body))).not.toContain(secret);
    expect(readFileSync(outcome.transcriptPath, 'utf8')).not.toContain(secret);
  });
});

describe('compact-agent run --instruction-files', () => {
  const cli = (...argv: string[]) =>
    cliInProcess(
      ['run', '--repo', repo.root, '--prompt', 'Explore and take notes.', ...argv],
      fakeModelEnv(fake.url)
    );

  it('reads AGENTS.md by default into every request, and says so on stderr', async () => {
    const run = await cli();
    expect(run.code).toBe(EXIT.success);
    expect(run.stderr).toContain('Repository instructions from the checkout: AGENTS.md.');
    expect(systemPrompts().every((prompt) => prompt.includes(MARKER))).toBe(true);
  });

  it('reads none with --instruction-files none, and only the named files otherwise', async () => {
    repo.write('CONVENTIONS.md', 'CONVENTIONS-MARKER');
    expect((await cli('--instruction-files', 'none')).code).toBe(EXIT.success);
    expect(systemPrompts().some((prompt) => prompt.includes(MARKER))).toBe(false);
    const before = systemPrompts().length;
    expect((await cli('--instruction-files', 'CONVENTIONS.md')).code).toBe(EXIT.success);
    const prompts = systemPrompts().slice(before);
    expect(prompts.every((prompt) => prompt.includes('CONVENTIONS-MARKER') && !prompt.includes(MARKER))).toBe(
      true
    );
  });

  it('stops before any model call on a bad list, naming the flag', async () => {
    const run = await cli('--instruction-files', '../secrets.md');
    expect(run.code).toBe(EXIT.usage);
    expect(run.stderr).toContain('--instruction-files must list instruction files');
    expect(fake.requests).toHaveLength(0);
  });
});
