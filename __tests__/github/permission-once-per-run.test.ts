import { permissionsOncePerRun } from '../../src/github/events/permissions.js';
import { reply, scriptFrom, text } from '../../test-support/fake-anthropic/index.js';
import { stateFromPayload, type CommentSeed } from '../../test-support/fake-github/index.js';
import { ACTION_FROM_SOURCE, type ActionRun } from '../../test-support/action-runner.js';
import { actionWorldPerTest, examplePayload, type ActionWorld } from '../support/action-world.js';
import { MemoryGitHub } from '../support/memory-github.js';

/**
 * The permission endpoint is asked once per login per run: the actor's check decides whether the
 * run starts, and the thread context reuses that answer for the actor's earlier comments. The
 * action from src/, spawned against the fakes (real Octokit); the fake GitHub records each request.
 */
const startWorld = actionWorldPerTest();

const PERMISSION_ROUTE = /\/collaborators\/[^/]+\/permission$/;

/** Codertocat comments `/agent ...` on issue #1 of the issue_comment.created example. */
async function runOnComment(
  senderPermission: 'write' | 'read',
  earlierComments: CommentSeed[]
): Promise<{ run: ActionRun; world: ActionWorld }> {
  const payload = examplePayload('issue_comment', 'created', '/agent fix the word count');
  const world = await startWorld({
    github: stateFromPayload(payload, { senderPermission, comments: earlierComments }),
    anthropic: { script: scriptFrom([reply(text('Nothing to do.'))]) }
  });
  const run = await world.run({ eventName: 'issue_comment', payload, entry: ACTION_FROM_SOURCE });
  return { run, world };
}

const permissionLookups = (w: ActionWorld) =>
  w.github.requestsTo('GET', PERMISSION_ROUTE).map((request) => decodeURIComponent(request.path));

describe('the permission of the person who asked', () => {
  it('is looked up once in a run, though they also wrote earlier comments on the thread', async () => {
    const { run, world: w } = await runOnComment('write', [
      { user: 'Codertocat', body: 'The count is off by one on empty lines.' },
      { user: 'Codertocat', body: 'Also on a trailing newline.' }
    ]);
    expect(run.outputs.conclusion).toBe('success');
    expect(permissionLookups(w)).toEqual([expect.stringMatching(/\/collaborators\/Codertocat\/permission$/)]);
    // The answer still counts: the writer's earlier comments reach the model as thread context.
    const firstRequest = JSON.stringify(w.anthropic.requests.find((r) => r.path === '/v1/messages')?.body);
    expect(firstRequest).toContain('The count is off by one on empty lines.');
  });

  it('still refuses a reader, with the same message, after one lookup', async () => {
    const { run, world: w } = await runOnComment('read', [{ user: 'Codertocat', body: 'Earlier.' }]);
    expect(run.outputs.conclusion).toBe('refused');
    expect(w.github.createdComments.map((comment) => comment.body)).toEqual([
      '🚫 compact-agent did not start: @Codertocat has read access to this repository; starting the agent needs write, maintain or admin.'
    ]);
    expect(permissionLookups(w)).toHaveLength(1);
  });
});

describe('permissionsOncePerRun', () => {
  it('asks once per login (case-insensitive, as GitHub logins are), failures included', async () => {
    const api = new MemoryGitHub();
    api.permissions.set('writer', 'write');
    const asked: string[] = [];
    const permissions = permissionsOncePerRun({
      permission: async (login) => {
        asked.push(login);
        if (login === 'broken') throw new Error('502 Bad Gateway');
        return api.permission(login);
      }
    });
    expect(await permissions.permission('writer')).toBe('write');
    expect(await permissions.permission('Writer')).toBe('write');
    expect(await permissions.permission('reader')).toBe('none');
    await expect(permissions.permission('broken')).rejects.toThrow('502 Bad Gateway');
    await expect(permissions.permission('broken')).rejects.toThrow('502 Bad Gateway');
    expect(asked).toEqual(['writer', 'reader', 'broken']);
  });
});
