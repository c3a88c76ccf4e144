import { existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  SEALED_ENV_VARIABLE,
  sealSecretEnvironment,
  splitSecretEnv,
  type ProcessImage
} from '../../src/security/sealed-env.js';
import { toolEnvironment } from '../../src/tools/environment.js';

const runnerEnv = (): NodeJS.ProcessEnv => ({
  PATH: '/usr/bin',
  HOME: '/home/runner',
  LC_ALL: 'C.UTF-8',
  GITHUB_WORKSPACE: '/work/repo',
  INPUT_GITHUB_TOKEN: 'ghs_0123456789abcdefghijklmnopqrstuvwxyz',
  INPUT_ANTHROPIC_API_KEY: 'sk-ant-api03-test-key-0123456789',
  ACTIONS_RUNTIME_TOKEN: 'eyJhbGciOiJIUzI1NiJ9.runtime',
  // Secrets under names no pattern would catch.
  DB_PASS: 'hunter2-but-longer',
  GH_PAT: 'github_pat_0123456789',
  DATABASE_URL: 'postgres://app:s3cret@db.internal/app',
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
    execPath: process.execPath,
    execArgv: ['--enable-source-maps'],
    argv: [process.execPath, '/actions/compact-agent/dist/index.js'],
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

/** A sealed file as the first image writes it, for the second pass. */
function sealedFile(content: string, mode = 0o600): string {
  const folder = mkdtempSync(path.join(tmpdir(), 'compact-agent-sealed-'));
  const file = path.join(folder, 'env.json');
  writeFileSync(file, content, { mode });
  return file;
}

const secondPass = (env: NodeJS.ProcessEnv): ProcessImage => ({
  env,
  execPath: process.execPath,
  execArgv: [],
  argv: ['node', 'x.js']
});

describe('splitSecretEnv', () => {
  it('moves everything out but what Node needs to start: secrets come under any name', () => {
    const { secrets, rest } = splitSecretEnv(runnerEnv());
    expect(Object.keys(rest).sort()).toEqual(['HOME', 'LC_ALL', 'PATH']);
    expect(Object.keys(secrets)).toEqual(
      expect.arrayContaining(['DB_PASS', 'GH_PAT', 'DATABASE_URL', 'INPUT_GITHUB_TOKEN'])
    );
  });

  it('keeps the API address the libraries read while they load (a resume downloads through it)', () => {
    const { secrets, rest } = splitSecretEnv({
      ...runnerEnv(),
      GITHUB_API_URL: 'https://api.example.ghe.com'
    });
    expect(rest.GITHUB_API_URL).toBe('https://api.example.ghe.com');
    expect(Object.keys(secrets)).not.toContain('GITHUB_API_URL');
  });
});

describe('sealSecretEnvironment', () => {
  it('re-executes the same program with only the harmless variables; the rest waits in a private file', () => {
    const { image, replaced } = imageThatRecordsExecve(runnerEnv());
    const outcome = sealSecretEnvironment(image);
    expect(replaced).toHaveLength(1);
    const [replacement] = replaced;
    expect(replacement!.file).toBe(process.execPath);
    expect(replacement!.args).toEqual([
      process.execPath,
      '--enable-source-maps',
      '/actions/compact-agent/dist/index.js'
    ]);
    expect(Object.keys(replacement!.env).sort()).toEqual([SEALED_ENV_VARIABLE, 'HOME', 'LC_ALL', 'PATH']);
    expect(replacement!.sealed).toEqual(splitSecretEnv(runnerEnv()).secrets);
    expect(replacement!.mode).toBe(0o600);
    // This execve failed, so the action goes on unsealed, says why, and leaves no file behind.
    expect(outcome).toEqual({
      kind: 'unsupported',
      reason: 're-executing without secrets failed: EACCES: stand-in for a replaced process'
    });
    expect(existsSync(path.dirname(replacement!.env[SEALED_ENV_VARIABLE]!))).toBe(false);
  });

  it('puts the file in RUNNER_TEMP, which the runner empties after the job', () => {
    const runnerTemp = mkdtempSync(path.join(tmpdir(), 'runner-temp-'));
    const { image, replaced } = imageThatRecordsExecve({ ...runnerEnv(), RUNNER_TEMP: runnerTemp });
    sealSecretEnvironment(image);
    expect(path.dirname(path.dirname(replaced[0]!.env[SEALED_ENV_VARIABLE]!))).toBe(runnerTemp);
    expect(replaced[0]!.env.RUNNER_TEMP).toBe(runnerTemp);
  });

  it('in the new image, reads the variables back into memory and deletes their file and folder', () => {
    const file = sealedFile(JSON.stringify(splitSecretEnv(runnerEnv()).secrets));
    const env = { ...splitSecretEnv(runnerEnv()).rest, [SEALED_ENV_VARIABLE]: file };
    const outcome = sealSecretEnvironment(secondPass(env));
    expect(outcome.kind).toBe('unsealed');
    expect(env).toEqual(runnerEnv());
    expect(existsSync(path.dirname(file))).toBe(false);
  });

  it('brings back what set-up steps exported, so the toolchain reaches the shell and the secrets do not', () => {
    const job: NodeJS.ProcessEnv = {
      ...runnerEnv(),
      JAVA_HOME: '/opt/java/17',
      JAVA_HOME_17_X64: '/opt/java/17',
      GOROOT: '/opt/go'
    };
    const { secrets, rest } = splitSecretEnv(job);
    expect(Object.keys(rest)).not.toContain('JAVA_HOME'); // out of /proc/<pid>/environ like everything else
    const env = { ...rest, [SEALED_ENV_VARIABLE]: sealedFile(JSON.stringify(secrets)) };
    sealSecretEnvironment(secondPass(env));
    const shell = toolEnvironment(env);
    expect(shell.env).toMatchObject({
      JAVA_HOME: '/opt/java/17',
      JAVA_HOME_17_X64: '/opt/java/17',
      GOROOT: '/opt/go'
    });
    expect(shell.withheld.secret).toEqual(['DB_PASS', 'GH_PAT']);
    expect(shell.withheld.unlisted).toEqual(['DATABASE_URL']);
    for (const value of [job.DB_PASS!, job.GH_PAT!, job.INPUT_GITHUB_TOKEN!, job.ACTIONS_RUNTIME_TOKEN!]) {
      expect(JSON.stringify(shell.env)).not.toContain(value);
    }
  });

  it('does not re-execute where it cannot: no process.execve (Node < 22.15), or no such program', () => {
    const env = runnerEnv();
    const old = sealSecretEnvironment({ env, execPath: 'node', execArgv: [], argv: ['node', 'x.js'] });
    expect(old.kind === 'unsupported' && old.reason).toMatch(/no process\.execve/);
    expect(env).toEqual(runnerEnv());
    // A failed execve aborts Node rather than throwing, so a missing program is caught before it.
    const { image, replaced } = imageThatRecordsExecve(runnerEnv());
    const missing = sealSecretEnvironment({ ...image, execPath: '/nonexistent/node' });
    expect(missing.kind === 'unsupported' && missing.reason).toMatch(
      /cannot re-execute \/nonexistent\/node: .*ENOENT/
    );
    expect(replaced).toEqual([]);
  });

  it('ignores an empty marker, and refuses one that points anywhere but at a file of its own', () => {
    const { image, replaced } = imageThatRecordsExecve({ ...runnerEnv(), [SEALED_ENV_VARIABLE]: '' });
    sealSecretEnvironment(image);
    expect(replaced).toHaveLength(1); // an empty value is not a sealed environment: seal as usual

    // A folder someone wants deleted: refused, and nothing in it is touched.
    const victim = mkdtempSync(path.join(tmpdir(), 'victim-'));
    writeFileSync(path.join(victim, 'env.json'), '{}', { mode: 0o600 });
    expect(() =>
      sealSecretEnvironment(secondPass({ [SEALED_ENV_VARIABLE]: path.join(victim, 'env.json') }))
    ).toThrow(
      /not a file compact-agent wrote: its folder is not a compact-agent-sealed-\* folder.*Do not set COMPACT_AGENT_SEALED_ENV/s
    );
    expect(existsSync(path.join(victim, 'env.json'))).toBe(true);

    const readable = sealedFile('{}', 0o644);
    expect(() => sealSecretEnvironment(secondPass({ [SEALED_ENV_VARIABLE]: readable }))).toThrow(
      /its mode is 644, not 600/
    );
    expect(existsSync(readable)).toBe(true);

    const elsewhere = mkdtempSync(path.join(tmpdir(), 'other-'));
    const nested = path.join(elsewhere, 'compact-agent-sealed-x');
    mkdirSync(nested);
    writeFileSync(path.join(nested, 'env.json'), '{}', { mode: 0o600 });
    expect(() =>
      sealSecretEnvironment(secondPass({ [SEALED_ENV_VARIABLE]: path.join(nested, 'env.json') }))
    ).toThrow(/its folder is not in/);
  });

  it('fails with a clear error when its own file is gone or damaged, instead of running without keys', () => {
    const damaged = sealedFile('{"INPUT_GITHUB_TOKEN": 42}');
    expect(() => sealSecretEnvironment(secondPass({ [SEALED_ENV_VARIABLE]: damaged }))).toThrow(
      /could not read back its sealed environment.*re-run the job/s
    );
    expect(existsSync(path.dirname(damaged))).toBe(false);
    const gone = path.join(path.dirname(sealedFile('{}')), 'missing', 'env.json');
    expect(() => sealSecretEnvironment(secondPass({ [SEALED_ENV_VARIABLE]: gone }))).toThrow(
      /not a file compact-agent wrote/
    );
  });
});
