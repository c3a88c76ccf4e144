import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadCarriedState, STATE_FILE, StateNotFoundError } from '../../src/followup/state-file.js';
import { createTempDir } from '../support/temp-repo.js';

/** Each path --resume cannot use says why, in the words of files/file-problem.ts, and what to give. */
async function refusal(target: string): Promise<string> {
  const error = await loadCarriedState(target).then(
    () => undefined,
    (caught: unknown) => caught
  );
  expect(error).toBeInstanceOf(StateNotFoundError);
  return (error as Error).message;
}

/**
 * The refusal, from a process that is not root: root reads every file whatever its mode, so there the
 * check runs as the user nobody (setpriv), through tsx from src.
 */
function refusalAsUser(target: string): string {
  const script =
    `import { loadCarriedState } from ${JSON.stringify(path.resolve('src/followup/state-file.ts'))};\n` +
    `loadCarriedState(${JSON.stringify(target)}).then(() => console.log('read'), (e) => console.log(e.message));`;
  const node = [
    process.execPath,
    '--import',
    pathToFileURL(path.resolve('node_modules/tsx/dist/loader.mjs')).href,
    '--input-type=module',
    '-e',
    script
  ];
  const asNobody = ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups'];
  const [command, ...args] = process.getuid?.() === 0 ? [...asNobody, ...node] : node;
  const run = spawnSync(command!, args, { encoding: 'utf8', timeout: 60_000, killSignal: 'SIGKILL' });
  expect(run.stderr).toBe('');
  return run.stdout.trim();
}

const ADVICE = 'Point --resume at a run folder, a .transcripts folder or an artifact zip of a finished run.';

describe('loadCarriedState on a path it cannot use', () => {
  it('names a state file that is a folder instead of passing over it', async () => {
    const run = createTempDir('resume-folder-');
    mkdirSync(path.join(run, STATE_FILE));
    const state = path.join(run, STATE_FILE);
    expect(await refusal(run)).toBe(`${state} is not a regular file: it is a folder. ${ADVICE}`);
  });

  it('says a missing path is missing, with the advice', async () => {
    const missing = path.join(createTempDir('resume-missing-'), 'gone');
    expect(await refusal(missing)).toBe(`${missing} does not exist (no such file). ${ADVICE}`);
  });

  it('calls a folder it may not enter a permission problem, not a missing file', () => {
    const folder = createTempDir('resume-denied-');
    const file = path.join(folder, STATE_FILE);
    writeFileSync(file, '{}');
    chmodSync(folder, 0o000);
    try {
      expect(refusalAsUser(file)).toBe(
        `${file} cannot be read: permission denied on it or on a folder above it. ${ADVICE}`
      );
    } finally {
      chmodSync(folder, 0o700);
    }
  });
});
