/**
 * The built action against a command that plants a repository for git to run later, outside the
 * box (issue 33, finding 1): in the box, it makes `vendor/tool` a repository of its own with a
 * `core.fsmonitor` program, writes `.gitmodules` and stages the gitlink. After the run, the job's
 * later steps run git in the workspace: actions/checkout's post step, and anyone's `git status`.
 * Nothing planted may run there, the published commit carries no gitlink, and the report says what
 * was moved out and what was withheld. Once as a fix run, once as the fork's own test.js during a
 * maintainer's `/agent review`.
 */
import { jest } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { reply, scriptFrom, text, toolUse } from '../../test-support/fake-anthropic/index.js';
import { stateFromPayload } from '../../test-support/fake-github/index.js';
import { actionWorldPerTest, examplePayload, type ActionWorld } from '../support/action-world.js';

jest.setTimeout(120_000);

const startWorld = actionWorldPerTest();
const PULL = 1;

let loot: string;
let marker: string;
beforeEach(() => {
  // In the host's temp folder, which the box does not show: only git run outside the box can write it.
  loot = mkdtempSync(path.join(os.tmpdir(), 'compact-agent-nested-'));
  marker = path.join(loot, 'ran');
});
afterEach(() => rmSync(loot, { recursive: true, force: true }));

/** The plant, as shell: a nested repository with its own program, made a submodule of the workspace. */
function plantCommands(): string {
  return [
    'mkdir -p vendor/tool',
    'git -C vendor/tool init -q',
    `git -C vendor/tool config core.fsmonitor 'touch ${marker}; false'`,
    `printf '[submodule "tool"]\\n\\tpath = vendor/tool\\n\\turl = ./vendor/tool\\n' > .gitmodules`,
    'git -c user.name=x -c user.email=x@example.com -C vendor/tool commit -q --allow-empty -m tool',
    'git add .gitmodules vendor/tool'
  ].join(' && ');
}

/**
 * What actions/checkout's post step runs in the workspace (src/git-auth-helper.ts,
 * removeSubmoduleGitConfig, through git-command-manager.ts submoduleForeach(command, true):
 * `git submodule foreach --recursive <command>`; read 2026-11-28), for the token's extraheader of
 * https://github.com, its pattern escaped by regexpHelper.escape. Then a person's `git status`.
 */
function laterStepsOfTheJob(workspace: string): void {
  const key = 'http.https://github.com/.extraheader';
  const pattern = key.replace(/[.*+?^${}()|[\]\\/:]/g, '\\$&');
  const env = { ...process.env, INPUT_TOKEN: 'ghs_the-jobs-token' };
  execFileSync(
    'git',
    [
      'submodule',
      'foreach',
      '--recursive',
      `sh -c "git config --local --name-only --get-regexp '${pattern}' && git config --local --unset-all '${key}' || :"`
    ],
    { cwd: workspace, env, stdio: 'pipe' }
  );
  execFileSync('git', ['status'], { cwd: workspace, env, stdio: 'pipe' });
}

function treeEntries(world: ActionWorld, revision: string): string[] {
  return world.repo.remoteGit('ls-tree', '-r', revision).trim().split('\n');
}

it('a fix run: the planted repository is moved out, the gitlink withheld, and nothing runs after the run', async () => {
  const payload = examplePayload('issue_comment', 'created', '/agent vendor the tool');
  const world = await startWorld({
    github: stateFromPayload(payload, { senderPermission: 'write' }),
    anthropic: {
      script: scriptFrom([
        reply(toolUse('bash', { command: `${plantCommands()} && echo vendored >> README.md` })),
        reply(text('The tool is vendored.'))
      ])
    }
  });
  const run = await world.run({ eventName: 'issue_comment', payload, inputs: { sandbox: 'required' } });
  expect(run.outputs.conclusion).toBe('success');

  // The plant worked in the box: git there saw the nested repository and staged its gitlink.
  const calls = world.anthropic.requests.filter((request) => request.path === '/v1/messages');
  expect(JSON.stringify(calls[1]!.request)).not.toMatch(/Read-only file system|fatal:/);

  laterStepsOfTheJob(world.repo.root);
  expect(existsSync(marker)).toBe(false);
  expect(existsSync(path.join(world.repo.root, 'vendor', 'tool', '.git'))).toBe(false);

  // The work is published, the submodule is not.
  const branch = run.outputs.branch_name!;
  expect(world.repo.remoteGit('show', `${branch}:README.md`)).toContain('vendored');
  const entries = treeEntries(world, branch);
  expect(entries.filter((entry) => entry.startsWith('160000'))).toEqual([]);
  expect(entries.some((entry) => entry.endsWith('\t.gitmodules'))).toBe(false);

  const report = world.github.createdComments.at(-1)!.body;
  expect(report).toContain('### Git repositories made during the run');
  expect(report).toContain('`vendor/tool/.git`');
  expect(report).toMatch(
    /Not published, because this run may not add or change submodules \(allow_submodule_changes is off\): `\.gitmodules`, `vendor\/tool`/
  );
});

it("a fork's test.js plants it while the agent runs the tests of `/agent review`: nothing runs after the run", async () => {
  const payload = examplePayload('issue_comment', 'created', '/agent review');
  const issue = payload.issue as Record<string, unknown>;
  issue.number = PULL;
  issue.pull_request = { url: `https://api.github.com/repos/Codertocat/Hello-World/pulls/${PULL}` };
  const world = await startWorld({
    github: stateFromPayload(payload, {
      senderPermission: 'write',
      pull: { head: { ref: 'fork-head', sha: '0'.repeat(40) }, base: { ref: 'main' } } as never
    }),
    anthropic: {
      script: scriptFrom([
        reply(toolUse('bash', { command: 'node test.js' })),
        reply(text('The tests pass; nothing to add.'))
      ])
    }
  });
  // The fork's head: a test.js that plants when run. It is the pull request's ref, on no branch.
  world.repo.git('checkout', '-qb', 'fork-head');
  world.repo.write(
    'test.js',
    `require('node:child_process').execSync(${JSON.stringify(plantCommands())}, { shell: '/bin/bash' });\n` +
      "console.log('1 passing');\n"
  );
  world.repo.git('add', 'test.js');
  world.repo.git('commit', '-qm', 'add tests');
  world.repo.git('push', '-q', 'origin', `HEAD:refs/pull/${PULL}/head`);
  const headSha = world.repo.git('rev-parse', 'HEAD').trim();
  world.repo.git('checkout', '-q', 'main');
  world.github.pushHead(PULL, {
    sha: headSha,
    files: [
      { filename: 'test.js', status: 'added', additions: 2, deletions: 0, patch: '@@ -0,0 +1,2 @@\n+x\n+y' }
    ]
  });
  world.github.pull(PULL)!.head.repoFullName = 'stranger/Hello-World';
  const remoteBefore = world.repo.remoteGit('for-each-ref', '--format=%(refname) %(objectname)');

  const workspace = world.cloneOrigin();
  const run = await world.run({
    eventName: 'issue_comment',
    payload,
    workspace,
    inputs: { sandbox: 'required' }
  });
  expect(run.code).toBe(0);
  const calls = world.anthropic.requests.filter((request) => request.path === '/v1/messages');
  expect(JSON.stringify(calls[1]!.request)).toContain('1 passing');

  laterStepsOfTheJob(workspace);
  expect(existsSync(marker)).toBe(false);
  expect(existsSync(path.join(workspace, 'vendor', 'tool', '.git'))).toBe(false);
  expect(world.repo.remoteGit('for-each-ref', '--format=%(refname) %(objectname)')).toBe(remoteBefore);
  const report = world.github.createdComments.at(-1)!.body;
  expect(report).toContain('`vendor/tool/.git`');
});
