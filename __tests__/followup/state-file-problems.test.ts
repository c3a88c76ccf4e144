import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
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

  // Root reads every file whatever its mode: there, no permission problem can be made this way.
  const asUser = process.getuid?.() === 0 ? it.skip : it;
  asUser('calls a permission problem a permission problem, not a missing file', async () => {
    const file = path.join(createTempDir('resume-denied-'), STATE_FILE);
    writeFileSync(file, '{}');
    chmodSync(file, 0o000);
    expect(await refusal(file)).toBe(
      `${file} cannot be read: permission denied on it or on a folder above it. ${ADVICE}`
    );
  });
});
