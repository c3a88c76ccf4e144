import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { loadCarriedState, StateNotFoundError } from '../../src/followup/state-file.js';
import { createTempDir } from '../support/temp-repo.js';

// `--resume` reads what a user points it at: a FIFO or a device must be refused, not waited on.
describe('loadCarriedState on what is not a regular file', () => {
  it.each([
    [
      'a FIFO with no writer',
      () => {
        const fifo = path.join(createTempDir('resume-fifo-'), 'state.json');
        execFileSync('mkfifo', [fifo]);
        return fifo;
      }
    ],
    ['a device that never ends', () => '/dev/zero']
  ])('refuses %s', async (_what, target) => {
    const error = await loadCarriedState(target()).then(
      () => undefined,
      (caught: unknown) => caught
    );
    expect(error).toBeInstanceOf(StateNotFoundError);
    expect((error as Error).message).toContain('is not a regular file');
  });
});
