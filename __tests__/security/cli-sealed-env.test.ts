/**
 * Finding 6 of the fourth attack review, end to end with the built CLI (dist/cli/index.js, run on the
 * Node that has process.execve): without the box, the agent's shell reads its parent's initial
 * environment (/proc/$PPID/environ) and every ancestor's. A secret under a name and in a shape no
 * pattern knows (a DATABASE_URL password, a SENTRY_DSN key) must not reach the model.
 */
import { jest } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startFakeAnthropic, type FakeAnthropic } from '../../test-support/fake-anthropic/index.js';
import {
  reply,
  scriptFrom,
  text,
  toolResults,
  toolResultText,
  toolUse
} from '../../test-support/fake-anthropic/replies.js';
import { runBuiltCli } from '../support/cli.js';
import { createTempRepo, type TempRepo } from '../support/temp-repo.js';

jest.setTimeout(60_000);

// The parent's environment, then each ancestor's up to init, each under a header naming it.
const READ_PARENT_CHAIN =
  'p=$PPID; while [ "$p" -gt 1 ]; do echo "== process $p"; tr "\\0" "\\n" < /proc/$p/environ; ' +
  "p=$(awk '/^PPid:/ {print $2}' /proc/$p/status); done";

/** A PATH with the few programs the run and the scripted command use, and no bwrap among them. */
function pathWithoutBubblewrap(): string {
  const bin = mkdtempSync(path.join(tmpdir(), 'compact-agent-no-bwrap-'));
  for (const program of ['bash', 'sh', 'git', 'tr', 'awk', 'cat']) {
    symlinkSync(path.join('/usr/bin', program), path.join(bin, program));
  }
  return bin;
}

describe('compact-agent run without the box (built CLI)', () => {
  let repo: TempRepo;
  let fake: FakeAnthropic;
  let noBwrap: string;
  const canary = randomBytes(8).toString('hex');
  const databasePassword = `hunter2secret${canary}`;
  const sentryKey = `f3a1${canary}c0ffee`;

  beforeAll(() => {
    noBwrap = pathWithoutBubblewrap();
  });
  afterAll(() => rmSync(noBwrap, { recursive: true, force: true }));
  beforeEach(async () => {
    repo = createTempRepo();
    repo.write('README.md', 'x\n');
    repo.git('add', '-A');
    repo.git('commit', '--quiet', '-m', 'seed');
    fake = await startFakeAnthropic({
      script: scriptFrom([
        reply(toolUse('bash', { command: READ_PARENT_CHAIN }, 'toolu_environ')),
        reply(text('Done.'))
      ])
    });
  });
  afterEach(async () => {
    await fake.close();
    repo.remove();
  });

  const secretsOfTheUser = (PATH: string): NodeJS.ProcessEnv => ({
    PATH,
    HOME: process.env.HOME,
    ANTHROPIC_API_KEY: 'k',
    ANTHROPIC_BASE_URL: fake.url,
    DATABASE_URL: `postgres://u:${databasePassword}@db/x`,
    SENTRY_DSN: `https://${sentryKey}@o1.ingest.sentry.io/2`
  });

  /** What the fake model received as the command's output. */
  const environReadByModel = (): string => {
    const second = fake.requests.filter((request) => request.path === '/v1/messages')[1];
    expect(second?.request).toBeDefined();
    return toolResults(second!.request!).map(toolResultText).join('\n');
  };

  it.each([
    ['--sandbox off', ['--sandbox', 'off'], () => process.env.PATH ?? '/usr/bin:/bin'],
    ['sandbox auto where bwrap is not installed', [], () => noBwrap]
  ])('with %s, the model reads no secret of the environment in /proc', async (_name, flags, PATH) => {
    const finished = await runBuiltCli(
      ['run', '--repo', repo.root, '--prompt', 'Check.', ...flags],
      secretsOfTheUser(PATH())
    );
    expect(finished.code).toBe(0);
    if (flags.length === 0) expect(finished.stderr).toContain('run WITHOUT the sandbox');
    const seen = environReadByModel();
    // The command did read the parent chain (so an absent secret means a sealed one, not a failed read).
    expect(seen).toMatch(/== process \d+\n/);
    expect(seen).toContain(`PATH=${PATH()}`);
    expect(seen).not.toContain(databasePassword);
    expect(seen).not.toContain(sentryKey);
    expect(seen).not.toContain('DATABASE_URL=');
    expect(seen).not.toContain('SENTRY_DSN=');
  });
});
