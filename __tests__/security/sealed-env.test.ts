import { existsSync, mkdtempSync, statSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  SEALED_ENV_VARIABLE,
  sealSecretEnvironment,
  splitSecretEnv,
  type ProcessImage
} from '../../src/security/sealed-env.js';

const runnerEnv = (): NodeJS.ProcessEnv => ({
  PATH: '/usr/bin',
  GITHUB_WORKSPACE: '/work/repo',
  INPUT_GITHUB_TOKEN: 'ghs_0123456789abcdefghijklmnopqrstuvwxyz',
  INPUT_ANTHROPIC_API_KEY: 'sk-ant-api03-test-key-0123456789',
  ACTIONS_RUNTIME_TOKEN: 'eyJhbGciOiJIUzI1NiJ9.runtime',
  ACTIONS_ID_TOKEN_REQUEST_URL: 'https://token.example/idtoken',
  INPUT_MAX_OUTPUT_TOKENS: '4096',
  INPUT_PROMPT: 'fix the tests'
});

interface Replacement {
  file: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  sealed: unknown;
  mode: number;
}

/** execve never returns; the fake records what the new image would get, then stops with an error. */
function imageThatRecordsExecve(env: NodeJS.ProcessEnv): { image: ProcessImage; replaced: Replacement[] } {
  const replaced: Replacement[] = [];
  const image: ProcessImage = {
    env,
    execPath: '/opt/node24/bin/node',
    execArgv: ['--enable-source-maps'],
    argv: ['/opt/node24/bin/node', '/actions/compact-agent/dist/index.js'],
    execve: (file, args, newEnv) => {
      const sealedFile = newEnv[SEALED_ENV_VARIABLE]!;
      replaced.push({
        file,
        args,
        env: newEnv,
        sealed: JSON.parse(readFileSync(sealedFile, 'utf8')),
        mode: statSync(sealedFile).mode & 0o777
      });
      throw new Error('EACCES: stand-in for a replaced process');
    }
  };
  return { image, replaced };
}

describe('splitSecretEnv', () => {
  it('takes every variable whose name says secret, and leaves URLs, sizes and ordinary inputs', () => {
    const { secrets, rest } = splitSecretEnv(runnerEnv());
    expect(Object.keys(secrets).sort()).toEqual([
      'ACTIONS_RUNTIME_TOKEN',
      'INPUT_ANTHROPIC_API_KEY',
      'INPUT_GITHUB_TOKEN'
    ]);
    expect(Object.keys(rest).sort()).toEqual([
      'ACTIONS_ID_TOKEN_REQUEST_URL',
      'GITHUB_WORKSPACE',
      'INPUT_MAX_OUTPUT_TOKENS',
      'INPUT_PROMPT',
      'PATH'
    ]);
  });
});

describe('sealSecretEnvironment', () => {
  it('re-executes the same program without the secrets, which wait in a private file', () => {
    const { image, replaced } = imageThatRecordsExecve(runnerEnv());
    const outcome = sealSecretEnvironment(image);
    expect(replaced).toHaveLength(1);
    const [replacement] = replaced;
    expect(replacement!.file).toBe('/opt/node24/bin/node');
    expect(replacement!.args).toEqual([
      '/opt/node24/bin/node',
      '--enable-source-maps',
      '/actions/compact-agent/dist/index.js'
    ]);
    expect(replacement!.env.INPUT_GITHUB_TOKEN).toBeUndefined();
    expect(replacement!.env.INPUT_ANTHROPIC_API_KEY).toBeUndefined();
    expect(replacement!.env.ACTIONS_RUNTIME_TOKEN).toBeUndefined();
    expect(replacement!.env.INPUT_PROMPT).toBe('fix the tests');
    expect(replacement!.sealed).toEqual(splitSecretEnv(runnerEnv()).secrets);
    expect(replacement!.mode).toBe(0o600);
    // This execve failed, so the action goes on unsealed, says why, and leaves no secret file behind.
    expect(outcome).toEqual({
      kind: 'unsupported',
      reason: 're-executing without secrets failed: EACCES: stand-in for a replaced process'
    });
    expect(existsSync(replacement!.env[SEALED_ENV_VARIABLE]!)).toBe(false);
  });

  it('in the new image, reads the secrets back into memory and deletes their file', () => {
    const { image, replaced } = imageThatRecordsExecve(runnerEnv());
    sealSecretEnvironment(image);
    // Recreate the file the replaced process would have found, and start "the new image" with its env.
    const sealedFile = replaced[0]!.env[SEALED_ENV_VARIABLE]!;
    const folder = mkdtempSync(path.join(tmpdir(), 'compact-agent-sealed-'));
    const file = path.join(folder, path.basename(sealedFile));
    writeFileSync(file, JSON.stringify(replaced[0]!.sealed), { mode: 0o600 });
    const env = { ...replaced[0]!.env, [SEALED_ENV_VARIABLE]: file };
    const outcome = sealSecretEnvironment({ ...image, env });
    expect(outcome).toEqual({
      kind: 'unsealed',
      names: ['ACTIONS_RUNTIME_TOKEN', 'INPUT_ANTHROPIC_API_KEY', 'INPUT_GITHUB_TOKEN']
    });
    expect(env).toEqual(runnerEnv());
    expect(existsSync(folder)).toBe(false);
  });

  it('says so, and goes on, where the runtime has no process.execve (Node < 22.15)', () => {
    const env = runnerEnv();
    const outcome = sealSecretEnvironment({ env, execPath: 'node', execArgv: [], argv: ['node', 'x.js'] });
    expect(outcome.kind).toBe('unsupported');
    expect(outcome.kind === 'unsupported' && outcome.reason).toMatch(/no process\.execve/);
    expect(env).toEqual(runnerEnv());
  });

  it('does nothing when there is no secret to seal', () => {
    const { image, replaced } = imageThatRecordsExecve({ PATH: '/usr/bin', INPUT_PROMPT: 'hi' });
    expect(sealSecretEnvironment(image)).toEqual({ kind: 'nothing-to-seal' });
    expect(replaced).toEqual([]);
  });

  it('fails with a clear error when the sealed file is gone or damaged, instead of running without keys', () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'compact-agent-sealed-'));
    const damaged = path.join(folder, 'env.json');
    writeFileSync(damaged, '{"INPUT_GITHUB_TOKEN": 42}');
    const image = (file: string): ProcessImage => ({
      env: { [SEALED_ENV_VARIABLE]: file },
      execPath: 'node',
      execArgv: [],
      argv: ['node', 'x.js']
    });
    expect(() => sealSecretEnvironment(image(damaged))).toThrow(
      /could not read back its sealed secrets.*Re-run the job/s
    );
    expect(existsSync(folder)).toBe(false);
    expect(() => sealSecretEnvironment(image(path.join(folder, 'missing.json')))).toThrow(/ENOENT/);
  });
});
