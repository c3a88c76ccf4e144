import { createDefaultTools } from '../../src/tools/index.js';
import { MAX_STREAM_CHARS } from '../../src/tools/bash.js';
import { createTempRepo, type TempRepo } from '../support/temp-repo.js';
import { toolContext } from '../support/tool-context.js';

const tools = createDefaultTools();
let repo: TempRepo;

beforeEach(() => {
  repo = createTempRepo();
});
afterEach(() => repo.remove());

const bash = (input: unknown, env?: NodeJS.ProcessEnv) =>
  tools.execute({ id: 'toolu_bash', name: 'bash', input }, toolContext(repo.root, env));

describe('bash', () => {
  it('runs in the repository root and returns exit code, stdout and stderr', async () => {
    const result = await bash({ command: 'pwd; echo oops >&2' });
    expect(result.isError).toBe(false);
    expect(result.content).toBe(`exit code: 0\n--- stdout ---\n${repo.root}\n\n--- stderr ---\noops\n`);
  });

  it('marks a non-zero exit as an error and keeps its output', async () => {
    const result = await bash({ command: 'echo failing; exit 3' });
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(/^exit code: 3\n--- stdout ---\nfailing/);
  });

  it('kills a command at its timeout, child processes included', async () => {
    const started = Date.now();
    const result = await bash({ command: 'sleep 30 & sleep 30; echo never', timeout_ms: 300 });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(/^timed out \(killed\)/);
    expect(result.content).not.toContain('never');
  });

  it('caps huge output, keeping its head and tail', async () => {
    const result = await bash({
      command: 'echo START; head -c 5000000 /dev/zero | tr "\\0" x; echo; echo END'
    });
    expect(result.isError).toBe(false);
    expect(result.content.length).toBeLessThan(MAX_STREAM_CHARS + 1000);
    expect(result.content).toContain('START');
    expect(result.content).toContain('END');
    expect(result.content).toMatch(/characters (omitted|dropped)/);
  });

  it('does not pass secrets from the environment to the command', async () => {
    const env = { ...process.env, ANTHROPIC_API_KEY: 'sk-ant-secret-value', GITHUB_TOKEN: 'ghs_secretvalue' };
    const result = await bash({ command: 'env' }, env);
    expect(result.content).toContain('PATH=');
    expect(result.content).not.toContain('sk-ant-secret-value');
    expect(result.content).not.toContain('ghs_secretvalue');
  });

  it('rejects a timeout above the maximum and an empty command', async () => {
    expect((await bash({ command: 'true', timeout_ms: 10_000_000 })).isError).toBe(true);
    const empty = await bash({ command: '' });
    expect(empty.isError).toBe(true);
    expect(empty.content).toMatch(/^Invalid input for bash: command: /);
  });
});
