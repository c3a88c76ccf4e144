import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ACTION_FROM_SOURCE, type ActionRun } from '../../test-support/action-runner.js';
import { reply, scriptFrom, text, toolUse } from '../../test-support/fake-anthropic/index.js';
import { stateFromPayload } from '../../test-support/fake-github/index.js';
import { basicAuthHeader } from '../../src/git/credentials.js';
import { actionWorldPerTest, examplePayload, type ActionWorld } from '../support/action-world.js';
import { startAuthenticatedGitServer, type AuthenticatedGitServer } from '../support/git-http-server.js';

/**
 * The action from src/, end to end, with an App token as `github_token` and the workflow's own
 * token in the checkout's header: the remote (git over HTTP) accepts the App token only, as a
 * push that must start the repository's CI needs. A scripted model looks for the token the way an
 * agent would (`git config --list`, `env`, `cat .git/config`) and saves what it saw where the test
 * can read it unredacted.
 */
const startWorld = actionWorldPerTest();
const RUN_ID = '2727';

describe('the action pushes with github_token when it is an App token', () => {
  const newToken = () => `ghs_${randomBytes(18).toString('hex')}`;
  /**
   * An installation token in the stateless format GitHub began rolling out on 2026-04-27
   * (`ghs_<app id>_<JWT>`, longer than 40 characters, with dots): what create-github-app-token mints now.
   */
  const statelessAppToken = () => {
    const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    return `ghs_1234567_${part({ alg: 'RS256', typ: 'JWT' })}.${part({ iss: 1234567, exp: 1_900_000_000 })}.${randomBytes(32).toString('base64url')}`;
  };
  let server: AuthenticatedGitServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  async function runWith(options: {
    /** The token the remote accepts, the REST fake accepts, and the action gets as github_token. */
    readonly githubToken: string;
    /** The token actions/checkout persisted in .git/config. */
    readonly checkoutToken: string;
  }): Promise<{ world: ActionWorld; run: ActionRun }> {
    const payload = examplePayload('issue_comment', 'created', '/agent add a note');
    // In the git folder: the box shows the agent no folder of the host's but the repository, and
    // nothing there is committed.
    const seen = '.git/compact-agent-seen.txt';
    const world = await startWorld({
      github: { ...stateFromPayload(payload, { senderPermission: 'write' }), token: options.githubToken },
      anthropic: {
        script: scriptFrom([
          reply(
            text('Looking for credentials first.'),
            toolUse('bash', {
              command: `{ git config --list --show-origin; echo ---; env; echo ---; cat .git/config; } > '${seen}' 2>&1; wc -l '${seen}'`
            })
          ),
          reply(toolUse('write_file', { path: 'notes/note.md', content: 'a note\n' })),
          reply(text('Added notes/note.md.'))
        ])
      }
    });
    // The checkout's token may fetch (the config file is read from the base), only github_token push.
    server = await startAuthenticatedGitServer(path.dirname(world.repo.remote), options.githubToken, [
      options.checkoutToken
    ]);
    world.repo.git('remote', 'set-url', 'origin', `${server.url}/${path.basename(world.repo.remote)}`);
    // As actions/checkout v4/v5 leaves it, with the workflow's GITHUB_TOKEN.
    world.repo.git('config', `http.${server.url}/.extraheader`, basicAuthHeader(options.checkoutToken));
    const run = await world.run({
      eventName: 'issue_comment',
      payload,
      inputs: { github_token: options.githubToken, bash_timeout_seconds: '20' },
      runId: RUN_ID,
      entry: ACTION_FROM_SOURCE
    });
    return { world, run };
  }

  const forms = (secret: string) => [secret, basicAuthHeader(secret).split(' ').at(-1)!];
  /** `where: token` for each place that holds one of the tokens in any of its forms. */
  function leaks(sources: Array<[string, string]>, tokens: string[]): string[] {
    return sources.flatMap(([where, content]) =>
      tokens.flatMap(forms).some((form) => content.includes(form)) ? [where] : []
    );
  }

  it('the push carries the App token; the agent, the config, the transcript, the outputs and the report never hold it', async () => {
    const appToken = statelessAppToken();
    const workflowToken = newToken();
    const { world, run } = await runWith({ githubToken: appToken, checkoutToken: workflowToken });

    expect(run.outputs.conclusion).toBe('success');
    const branch = run.outputs.branch_name!;
    expect(world.repo.remoteGit('show', `${branch}:notes/note.md`)).toBe('a note\n');
    expect(run.stdout).toContain('The push will authenticate with github_token');
    // The remote answers 401 to any other credential: every request carried the App token.
    expect(
      server!.attempts.filter((attempt) => attempt.service === 'git-receive-pack').length
    ).toBeGreaterThan(0);
    expect(server!.attempts.every((attempt) => attempt.authorized)).toBe(true);

    // What the agent saw, unredacted: git's config, its environment and .git/config.
    const seen = readFileSync(path.join(world.repo.root, '.git', 'compact-agent-seen.txt'), 'utf8');
    expect(seen).toContain('remote.origin.url');
    expect(seen).toMatch(/^PATH=/m);
    expect(seen).not.toMatch(/extraheader|AUTHORIZATION/i);

    const artifact = world.artifacts.files(`agent-transcripts-${RUN_ID}-1`);
    expect(artifact.size).toBeGreaterThan(0);
    expect(
      leaks(
        [
          ['what the agent saw', seen],
          ['.git/config after the run', readFileSync(path.join(world.repo.root, '.git', 'config'), 'utf8')],
          ...[...artifact].map(([name, content]): [string, string] => [
            `artifact ${name}`,
            content.toString('utf8')
          ]),
          ['outputs', JSON.stringify(run.outputs)],
          ['step summary', run.summary],
          [
            'stdout',
            run.stdout
              .split('\n')
              .filter((line) => !line.startsWith('::add-mask::'))
              .join('\n')
          ],
          ['stderr', run.stderr],
          ...world.github.requests.map((request): [string, string] => [
            `GitHub ${request.method} ${request.path}`,
            request.rawBody
          ]),
          ...world.anthropic.requests.map((request): [string, string] => [
            `model request ${request.seq}`,
            JSON.stringify(request.body)
          ]),
          ['pushed history', world.repo.remoteGit('log', '-p', '--all')]
        ],
        [appToken, workflowToken]
      )
    ).toEqual([]);
    // The report (the tracking comment turned report) and the pull request were written.
    expect(world.github.createdPulls).toHaveLength(1);
  }, 120_000);

  it('github_token the same as the checkout’s token: the checkout’s credential, as before', async () => {
    const workflowToken = newToken();
    const { world, run } = await runWith({ githubToken: workflowToken, checkoutToken: workflowToken });
    expect(run.outputs.conclusion).toBe('success');
    expect(run.stdout).toContain("The push will authenticate with actions/checkout's credential");
    expect(server!.attempts.every((attempt) => attempt.authorized)).toBe(true);
    expect(world.repo.remoteGit('show', `${run.outputs.branch_name!}:notes/note.md`)).toBe('a note\n');
    expect(readFileSync(path.join(world.repo.root, '.git', 'config'), 'utf8')).not.toMatch(/extraheader/i);
  }, 120_000);
});
