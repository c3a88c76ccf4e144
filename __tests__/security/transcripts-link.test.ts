/**
 * Finding 8 of the fourth attack review, with the built CLI: a repository that commits
 * `.transcripts` as a link to a folder elsewhere. The run (and a review) must stop before any model
 * call with a message that says what to do, and write nothing where the link points.
 */
import { readdirSync, rmSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { startFakeAnthropic, type FakeAnthropic } from '../../test-support/fake-anthropic/index.js';
import { reply, scriptFrom, text } from '../../test-support/fake-anthropic/replies.js';
import { runBuiltCli } from '../support/cli.js';
import { createTempDir, createTempRepo, type TempRepo } from '../support/temp-repo.js';

describe('a committed .transcripts link (built CLI)', () => {
  let repo: TempRepo;
  let elsewhere: string;
  let fake: FakeAnthropic;

  beforeEach(async () => {
    elsewhere = createTempDir('compact-agent-elsewhere-');
    repo = createTempRepo();
    repo.write('README.md', 'x\n');
    repo.git('add', '-A');
    repo.git('commit', '--quiet', '-m', 'seed');
    repo.git('branch', 'base');
    symlinkSync(elsewhere, path.join(repo.root, '.transcripts'));
    repo.write('src/app.js', 'export const x = 1;\n');
    repo.git('add', '-A');
    repo.git('commit', '--quiet', '-m', 'the link and a change');
    expect(repo.git('ls-files', '-s', '.transcripts')).toMatch(/^120000 /); // committed as a link
    fake = await startFakeAnthropic({ script: scriptFrom([reply(text('Done.'))]) });
  });
  afterEach(async () => {
    await fake.close();
    repo.remove();
    rmSync(elsewhere, { recursive: true, force: true });
  });

  it.each([
    ['run', ['run', '--prompt', 'Check.'], 'Or choose another folder with --transcripts DIR.'],
    ['review', ['review', '--base', 'base'], 'nothing was written']
  ])(
    '%s stops before any model call, says what to do, and writes nothing outside',
    async (_name, args, advice) => {
      const finished = await runBuiltCli([...args, '--repo', repo.root], {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        ANTHROPIC_API_KEY: 'k',
        ANTHROPIC_BASE_URL: fake.url
      });
      expect(finished.code).toBe(2);
      expect(finished.stderr).toContain(
        `the run folder goes to .transcripts/ in the repository, but .transcripts is a symbolic link (to ${elsewhere})`
      );
      expect(finished.stderr).toContain(
        'Remove the link from the repository (git rm .transcripts, then commit)'
      );
      expect(finished.stderr).toContain(advice);
      expect(fake.requests.filter((request) => request.path === '/v1/messages')).toHaveLength(0);
      expect(readdirSync(elsewhere)).toEqual([]);
    }
  );
});
