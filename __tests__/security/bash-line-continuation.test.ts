import { existsSync } from 'node:fs';
import path from 'node:path';
import {
  reply,
  scriptFrom,
  startFakeAnthropic,
  text,
  toolResults,
  toolResultText,
  toolUse
} from '../../test-support/fake-anthropic/index.js';
import { stateFromPayload } from '../../test-support/fake-github/index.js';
import { actionWorldPerTest, examplePayload } from '../support/action-world.js';
import { fakeModelEnv, runBuiltCli } from '../support/cli.js';
import { createTempRepo } from '../support/temp-repo.js';

const startWorld = actionWorldPerTest();

/**
 * Issue #33, finding 2, through the built action: with `allowed_bash_commands: git status`, a
 * backslash-newline between `$` and `(` made the bash limits read the command as `git status`,
 * while bash joined the lines first and ran `touch x`.
 */
const HIDDEN = [
  ['$(…)', 'git status --short "$\\\n(touch x)"'],
  ['${…}', 'git status --short "$\\\n{X:-$\\\n(touch x)}"'],
  ['$((…))', 'git status --short "$\\\n((a[$\\\n(touch x)]))"']
] as const;

describe('the bash allow list and a backslash-newline inside an expansion', () => {
  it.each(HIDDEN)(
    'denies %s split by a continued line, reports it, and nothing runs',
    async (_form, command) => {
      const payload = examplePayload('issue_comment', 'created', '/agent check the status');
      const world = await startWorld({
        github: stateFromPayload(payload, { senderPermission: 'write' }),
        anthropic: {
          script: scriptFrom([reply(toolUse('bash', { command }, 'call_split')), reply(text('Checked.'))])
        }
      });
      const run = await world.run({
        eventName: 'issue_comment',
        payload,
        inputs: { allowed_bash_commands: 'git status' }
      });
      expect(run.code).toBe(0);
      expect(existsSync(path.join(world.repo.root, 'x'))).toBe(false);
      const denied = JSON.parse(run.outputs.denied_tool_calls ?? 'null') as unknown;
      expect(denied).toEqual([{ tool: 'bash', head: 'git status', rule: 'unreadable', count: 1 }]);
      const report = world.github.createdComments[0]!.body;
      expect(report).toContain('### Tool limits');
      expect(report).toContain('1 tool call was denied by this run');
    },
    120_000
  );
});

describe('the built CLI with --allowed-bash-commands and a backslash-newline inside an expansion', () => {
  it.each(HIDDEN)(
    'denies %s split by a continued line, and nothing runs',
    async (_form, command) => {
      const repo = createTempRepo();
      const fake = await startFakeAnthropic({
        script: scriptFrom([reply(toolUse('bash', { command }, 'call_split')), reply(text('Checked.'))])
      });
      try {
        repo.write('README.md', 'hi\n');
        repo.git('add', '-A');
        repo.git('commit', '--quiet', '-m', 'seed');
        const args = [
          'run',
          '--repo',
          repo.root,
          '--prompt',
          'Check.',
          '--allowed-bash-commands',
          'git status'
        ];
        expect((await runBuiltCli(args, fakeModelEnv(fake.url))).code).toBe(0);
        expect(existsSync(path.join(repo.root, 'x'))).toBe(false);
        const calls = fake.requests.filter((request) => request.path === '/v1/messages');
        const [denied] = toolResults(calls[1]!.request!);
        expect(toolResultText(denied!)).toContain("Denied by the run's bash limits, nothing was run");
      } finally {
        await fake.close();
        repo.remove();
      }
    },
    120_000
  );
});
