import { execFileSync } from 'node:child_process';

/**
 * Commits everything under `root` as the first commit of a new repository on `main`, by a fixed
 * bench identity and without the person's git config, as actions/checkout would leave it.
 */
export function commitBenchRepository(root: string, message: string): void {
  const git = (...args: string[]) =>
    execFileSync('git', args, {
      cwd: root,
      stdio: 'ignore',
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        GIT_AUTHOR_NAME: 'Bench',
        GIT_AUTHOR_EMAIL: 'bench@example.com',
        GIT_COMMITTER_NAME: 'Bench',
        GIT_COMMITTER_EMAIL: 'bench@example.com'
      }
    });
  git('init', '--quiet', '--initial-branch=main');
  git('add', '-A');
  git('commit', '--quiet', '-m', message);
}
