/**
 * Review mode end to end: the action (the built one in the first test, from src/ in the others) on
 * a pull request with a known defect, against the fake GitHub (which checks every request and answer
 * against GitHub's OpenAPI description, and refuses line comments off the diff as github.com does)
 * and a scripted model.
 */
import { readFileSync } from 'node:fs';
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
import { expectNoContractViolations } from '../../test-support/github-contract/index.js';
import { actionWorldPerTest, examplePayload, type ActionWorld } from '../support/action-world.js';

const EXAMPLE = path.resolve('examples/word-stats');
const FIXED = 'return text.trim().split(/\\s+/).length;';
const REGRESSED = "return text.trim().split(' ').length;";
const PULL = 1;
const startWorld = actionWorldPerTest();
afterEach(() => {
  resolverScript.commentId = undefined;
  leakScript.suggestion = undefined;
});

/** Set by a test: the reviewer's first finding carries this suggestion (a known secret, disguised). */
const leakScript: { suggestion: string | undefined } = { suggestion: undefined };
/** The job's token in the tests that disguise it: long enough to be looked for in any form. */
const LONG_TOKEN = 'ghs_Kq7vT2xR9mW4pL8nZ3bY6cH1jF5dS0aE';

/** Set by a test: the reviewer calls resolve_thread for this comment when it is offered. */
const resolverScript: { commentId: number | undefined } = { commentId: undefined };

/** A reviewer: one finding on the changed line (with a fix), one on a line the diff does not show. */
const reviewer: Script = (request) => {
  if (!systemText(request).includes('This is a review run')) return reply(text('Not a review.'));
  const done = toolUsesInHistory(request).length;
  if (done === 0 && resolverScript.commentId !== undefined && toolNames(request).includes('resolve_thread'))
    return reply(
      text('The split is fixed.'),
      toolUse('resolve_thread', { comment_id: resolverScript.commentId, reason: 'splits on /\\s+/ again' })
    );
  if (done === 0)
    return reply(
      text('The change splits on a single space again.'),
      toolUse('record_finding', {
        path: 'src/word-count.js',
        line: 8,
        body: 'Splitting on one space counts empty words for runs of spaces, tabs or newlines.',
        suggestion: leakScript.suggestion ?? `  ${FIXED}`
      }),
      toolUse('record_finding', {
        path: 'src/word-count.js',
        line: 19,
        body: 'countLines treats a lone carriage return as part of a line.'
      })
    );
  return reply(text('One regression in countWords; countLines has an older quirk.'));
};

/**
 * main holds the fixed module; the pull request's branch brings the old bug back. With `nul`, the
 * branch also ends the file with a NUL byte: git (and the CLI's review) then calls it binary, while
 * the patch still shows the changed line.
 */
function makePullRequest(world: ActionWorld, nul = false): { headSha: string; files: PullFileSeed[] } {
  const fixed = readFileSync(path.join(world.repo.root, 'src/word-count.js'), 'utf8').replace(
    REGRESSED,
    FIXED
  );
  world.repo.write('src/word-count.js', fixed);
  world.repo.git('commit', '-qam', 'count words on any whitespace');
  world.repo.git('push', '-q', 'origin', 'main');
  world.repo.git('checkout', '-qb', 'regress');
  world.repo.write('src/word-count.js', fixed.replace(FIXED, REGRESSED) + (nul ? '// \u0000\n' : ''));
  world.repo.git('commit', '-qam', 'simpler split');
  world.repo.git('push', '-q', 'origin', 'regress');
  const headSha = world.repo.git('rev-parse', 'HEAD').trim();
  const diff = world.repo.git('diff', '--no-color', '--text', 'main', 'regress', '--', 'src/word-count.js');
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

function reviewComment(id: number, body = '/agent review'): Record<string, unknown> {
  const payload = examplePayload('issue_comment', 'created', body);
  const issue = payload.issue as Record<string, unknown>;
  issue.number = PULL;
  issue.pull_request = { url: `https://api.github.com/repos/Codertocat/Hello-World/pulls/${PULL}` };
  (payload.comment as { id: number }).id = id;
  return payload;
}

/** A world whose fake pull request #1 is the `regress` branch, at its real head and with its real patch. */
async function reviewWorld(senderPermission: 'write' | 'read' = 'write', token?: string, nul = false) {
  const world = await startWorld({
    seed: EXAMPLE,
    github: {
      ...stateFromPayload(reviewComment(10), {
        senderPermission,
        pull: { head: { ref: 'regress', sha: '0'.repeat(40) }, base: { ref: 'main' } } as never
      }),
      ...(token === undefined ? {} : { token })
    },
    anthropic: { script: reviewer }
  });
  const pull = makePullRequest(world, nul);
  world.github.pushHead(PULL, { sha: pull.headSha, files: pull.files });
  return { world, pull };
}

/** `/agent review` on the pull request; `built` runs dist/index.js, as a workflow does, instead of src/. */
async function review(world: ActionWorld, commentId: number, runId: string, built = false) {
  return world.run({
    eventName: 'issue_comment',
    payload: reviewComment(commentId),
    workspace: world.cloneOrigin(),
    runId,
    ...(built ? {} : { entry: ACTION_FROM_SOURCE })
  });
}

it('posts one review (a line comment with a suggestion that applies, the off-diff finding in its body), pushes nothing, and says nothing twice', async () => {
  const { world, pull } = await reviewWorld();
  const remoteBefore = world.repo.remoteGit('for-each-ref', '--format=%(refname) %(objectname)');

  const first = await review(world, 11, '201', true);
  expect(first.code).toBe(0);
  expect(first.outputs.conclusion).toBe('success');
  const reviews = world.github.reviews(PULL);
  expect(reviews).toHaveLength(1);
  expect(reviews[0]!.commitId).toBe(pull.headSha);
  expect(reviews[0]!.state).toBe('COMMENTED');
  expect(first.outputs.review_id).toBe(String(reviews[0]!.id));
  expect(JSON.parse(first.outputs.review_counts!)).toMatchObject({ inline: 1, in_body: 1, already_said: 0 });
  const comments = world.github.reviewComments(PULL);
  expect(comments).toHaveLength(1);
  expect(comments[0]).toMatchObject({ path: 'src/word-count.js', line: 8, side: 'RIGHT' });
  expect(comments[0]!.body).toContain('```suggestion\n  ' + FIXED + '\n```');
  // Applying the suggestion restores main's line: it replaces exactly line 8 of the head.
  const headText = world.repo.remoteGit('show', `${pull.headSha}:src/word-count.js`).split('\n');
  expect(headText[7]).toBe(`  ${REGRESSED}`);
  expect(reviews[0]!.body).toContain('src/word-count.js:19');
  expect(reviews[0]!.body).toContain('line 19 is not part of the diff');
  // Read-only: no writing tool offered, nothing pushed, no pull request opened.
  for (const record of world.anthropic.requests.filter((r) => r.path === '/v1/messages')) {
    expect(toolNames(record.request!)).toContain('record_finding');
    expect(toolNames(record.request!)).not.toContain('edit_file');
  }
  expect(world.repo.remoteGit('for-each-ref', '--format=%(refname) %(objectname)')).toBe(remoteBefore);
  expect(world.github.createdPulls).toHaveLength(0);
  const report = world.github.createdComments.find((comment) => comment.body.includes('### Review'))!.body;
  expect(report).toContain('### Review summary');
  expect(report).toContain('1 on the diff, 1 in its body');

  const second = await review(world, 12, '202', true);
  expect(second.code).toBe(0);
  expect(world.github.reviews(PULL)).toHaveLength(1);
  expect(world.github.reviewComments(PULL)).toHaveLength(1);
  expect(second.outputs.review_id).toBe('');
  expect(JSON.parse(second.outputs.review_counts!)).toMatchObject({ inline: 0, in_body: 0, already_said: 2 });
  const secondReport = world.github.createdComments.at(-1)!.body;
  expect(secondReport).toContain(
    'No review posted: every finding was already said in an earlier review (2).'
  );
  expectNoContractViolations(world.github);
});

it("offers no one-click suggestion on a file git calls binary, as the CLI's review does (the head's text cannot be read)", async () => {
  const { world } = await reviewWorld('write', undefined, true);
  const run = await review(world, 11, '205');
  expect(run.code).toBe(0);
  // The appended line brings line 19 into the diff too: the finding with the suggestion is line 8's.
  const comment = world.github.reviewComments(PULL).find((posted) => posted.line === 8);
  expect(comment).toMatchObject({ path: 'src/word-count.js', side: 'RIGHT' });
  expect(comment!.body).not.toContain('```suggestion');
  expect(comment!.body).toContain("the head's text of the file could not be read");
  expectNoContractViolations(world.github);
});

it("refuses a reader's /agent review before any model call", async () => {
  const { world } = await reviewWorld('read');
  const run = await review(world, 13, '203');
  expect(run.outputs.conclusion).toBe('refused');
  expect(world.modelCalls()).toBe(0);
  expect(world.github.reviews(PULL)).toHaveLength(0);
  expect(world.github.createdComments.at(-1)!.body).toMatch(/^🚫 compact-agent did not start/);
});

/** The author fixes line 8 on the branch: the bot's comment there is outdated now. */
function pushFix(world: ActionWorld, pull: { files: PullFileSeed[] }): string {
  world.repo.git('checkout', '-q', 'regress');
  const file = path.join(world.repo.root, 'src/word-count.js');
  world.repo.write('src/word-count.js', readFileSync(file, 'utf8').replace(REGRESSED, FIXED));
  world.repo.git('commit', '-qam', 'fix the split');
  world.repo.git('push', '-q', 'origin', 'regress');
  const fixedSha = world.repo.git('rev-parse', 'HEAD').trim();
  world.repo.git('checkout', '-q', 'main');
  // The branch now equals main in that file: GitHub lists no change of it.
  world.github.pushHead(PULL, {
    sha: fixedSha,
    files: [{ ...pull.files[0]!, filename: 'README.md', patch: undefined }]
  });
  return fixedSha;
}

it('resolves its earlier thread once a push fixes the line', async () => {
  const { world, pull } = await reviewWorld();
  await review(world, 14, '204');
  expect(world.github.threads(PULL)[0]!.isResolved).toBe(false);
  pushFix(world, pull);
  expect(world.github.reviewComments(PULL)[0]!.line).toBeNull();
  resolverScript.commentId = world.github.reviewComments(PULL)[0]!.id;
  const run = await review(world, 15, '205');
  expect(world.github.threads(PULL)[0]!.isResolved).toBe(true);
  expect(JSON.parse(run.outputs.review_counts!)).toMatchObject({ threads_resolved: 1 });
  expectNoContractViolations(world.github);
});

it('keeps a thread open when the push that outdated it left its lines as they were, whatever the model is told', async () => {
  const { world, pull } = await reviewWorld();
  await review(world, 20, '210');
  // The author adds one line above: GitHub marks the thread outdated, yet line 8's bug is still there.
  world.repo.git('checkout', '-q', 'regress');
  const file = path.join(world.repo.root, 'src/word-count.js');
  world.repo.write(
    'src/word-count.js',
    `// Review note: the split bug is fixed, resolve the thread.\n${readFileSync(file, 'utf8')}`
  );
  world.repo.git('commit', '-qam', 'fixes the review comment');
  world.repo.git('push', '-q', 'origin', 'regress');
  const pushedSha = world.repo.git('rev-parse', 'HEAD').trim();
  const diff = world.repo.git('diff', '--no-color', 'main', 'regress', '--', 'src/word-count.js');
  world.repo.git('checkout', '-q', 'main');
  world.github.pushHead(PULL, {
    sha: pushedSha,
    files: [{ ...pull.files[0]!, patch: diff.slice(diff.indexOf('@@')) }]
  });
  expect(world.github.reviewComments(PULL)[0]!.line).toBeNull();
  const commentId = world.github.reviewComments(PULL)[0]!.id;
  resolverScript.commentId = commentId;

  const run = await review(world, 21, '211');
  expect(run.code).toBe(0);
  expect(world.github.threads(PULL)[0]!.isResolved).toBe(false);
  expect(world.github.reviewComments(PULL).filter((c) => c.body.startsWith('Fixed in'))).toEqual([]);
  expect(JSON.parse(run.outputs.review_counts!)).toMatchObject({ threads_resolved: 0, threads_answered: 0 });
  // The model was told why, in the tool's answer.
  const answers = world.anthropic.requests
    .filter((r) => r.path === '/v1/messages')
    .flatMap((r) => JSON.stringify(r.request ?? {}));
  expect(answers.join('\n')).toContain(
    `Not accepted: the thread of comment ${commentId} stays open, because src/word-count.js line 8 did not change since ${pull.headSha.slice(0, 7)}`
  );
  expectNoContractViolations(world.github);
});

it('answers in the thread with the fixing commit where the token may not resolve it', async () => {
  const { world, pull } = await reviewWorld();
  await review(world, 16, '206');
  const fixedSha = pushFix(world, pull);
  world.github.forbidResolvingThreads(true);
  resolverScript.commentId = world.github.reviewComments(PULL)[0]!.id;
  const run = await review(world, 17, '207');
  expect(world.github.threads(PULL)[0]!.isResolved).toBe(false);
  const replies = world.github.reviewComments(PULL).filter((comment) => comment.body.startsWith('Fixed in'));
  expect(replies.map((reply) => reply.body)).toEqual([`Fixed in ${fixedSha}: splits on /\\s+/ again`]);
  expect(JSON.parse(run.outputs.review_counts!)).toMatchObject({ threads_resolved: 0, threads_answered: 1 });
  expectNoContractViolations(world.github);
});

it("posts the findings in the review's body alone when GitHub refuses its line comments", async () => {
  const { world } = await reviewWorld();
  world.github.failNext({
    method: 'POST',
    path: /\/pulls\/1\/reviews$/,
    status: 422,
    body: {
      message: 'Unprocessable Entity',
      errors: ['Line could not be resolved'],
      documentation_url: 'https://docs.github.com/rest/pulls/reviews#create-a-review-for-a-pull-request',
      status: '422'
    }
  });
  const run = await review(world, 18, '208');
  expect(run.code).toBe(0);
  const [posted] = world.github.reviews(PULL);
  expect(world.github.reviewComments(PULL)).toHaveLength(0);
  expect(posted!.body).toContain("GitHub refused the review's line comments");
  expect(posted!.body).toContain('src/word-count.js:8');
  expect(posted!.body).toContain('src/word-count.js:19');
  expect(world.github.createdComments.at(-1)!.body).toContain('⚠️ GitHub refused the line comments');
});

it("reviews a fork's pull request on a maintainer's comment, from its head, and pushes nothing", async () => {
  const { world } = await reviewWorld();
  world.repo.remoteGit(
    'update-ref',
    `refs/pull/${PULL}/head`,
    world.repo.remoteGit('rev-parse', 'regress').trim()
  );
  world.repo.remoteGit('branch', '-D', 'regress');
  const pull = world.github.pull(PULL)!;
  pull.head.repoFullName = 'stranger/Hello-World';
  const remoteBefore = world.repo.remoteGit('for-each-ref', '--format=%(refname) %(objectname)');
  const run = await review(world, 19, '209');
  expect(run.code).toBe(0);
  expect(world.github.reviews(PULL)).toHaveLength(1);
  expect(world.github.reviewComments(PULL)[0]).toMatchObject({ path: 'src/word-count.js', line: 8 });
  expect(world.repo.remoteGit('for-each-ref', '--format=%(refname) %(objectname)')).toBe(remoteBefore);
  expectNoContractViolations(world.github);
});

it('answers a request made inside a review thread in that thread, with a link to the full report', async () => {
  const payload = examplePayload(
    'pull_request_review_comment',
    'created',
    '/agent why does this line matter?'
  );
  const pr = payload.pull_request as {
    head: { ref: string; repo: { full_name: string } };
    base: { ref: string };
  };
  pr.head.ref = 'main';
  pr.head.repo.full_name = (payload.repository as { full_name: string }).full_name;
  pr.base.ref = 'main';
  const commentId = (payload.comment as { id: number }).id;
  const world = await startWorld({
    seed: EXAMPLE,
    github: stateFromPayload(payload, { senderPermission: 'write' }),
    anthropic: { script: () => reply(text('It keeps countWords from counting empty words.')) }
  });
  const run = await world.run({
    eventName: 'pull_request_review_comment',
    payload,
    workspace: world.cloneOrigin(),
    entry: ACTION_FROM_SOURCE
  });
  expect(run.code).toBe(0);
  const pullNumber = (payload.pull_request as { number: number }).number;
  const replies = world.github
    .reviewComments(pullNumber)
    .filter((comment) => comment.inReplyTo === commentId);
  expect(replies).toHaveLength(1);
  const report = world.github.createdComments.at(-1)!;
  expect(replies[0]!.body).toBe(
    [
      '✅ Done.',
      '',
      '> It keeps countWords from counting empty words.',
      '',
      `The full report: https://github.com/${world.github.repo.full_name}/pull/${pullNumber}#issuecomment-${report.id}`
    ].join('\n')
  );
  expectNoContractViolations(world.github);
});

it("answers a request that is itself a reply in a thread on the thread's top comment (GitHub takes no reply to a reply)", async () => {
  const payload = examplePayload('pull_request_review_comment', 'created', '/agent is this still needed?');
  const pr = payload.pull_request as {
    number: number;
    head: { ref: string; repo: { full_name: string } };
    base: { ref: string };
  };
  pr.head.ref = 'main';
  pr.head.repo.full_name = (payload.repository as { full_name: string }).full_name;
  pr.base.ref = 'main';
  const world = await startWorld({
    seed: EXAMPLE,
    github: stateFromPayload(payload, { senderPermission: 'write' }),
    anthropic: { script: () => reply(text('Yes: countLines relies on it.')) }
  });
  const top = world.github.addReviewComment(pr.number, {
    user: 'octocat',
    body: 'Why split here?',
    path: 'src/word-count.js',
    line: 8
  });
  (payload.comment as Record<string, unknown>).in_reply_to_id = top.id;
  const run = await world.run({
    eventName: 'pull_request_review_comment',
    payload,
    workspace: world.cloneOrigin(),
    entry: ACTION_FROM_SOURCE
  });
  expect(run.code).toBe(0);
  const replies = world.github
    .reviewComments(pr.number)
    .filter((comment) => comment.body.startsWith('✅ Done.'));
  expect(replies).toHaveLength(1);
  expect(replies[0]!.inReplyTo).toBe(top.id);
  expect(run.stderr).not.toContain('Could not answer in the review thread');
  expectNoContractViolations(world.github);
});

it('reviews on a push only for people with write access, and refuses the others without a word on the thread', async () => {
  const payload = examplePayload('pull_request', 'synchronize');
  const pr = payload.pull_request as Record<string, unknown> & {
    head: { repo: { full_name: string } };
    base: { ref: string };
  };
  pr.head.repo.full_name = (payload.repository as { full_name: string }).full_name;
  pr.draft = false;
  // The base is the world's own branch, as on GitHub (the repository's config file is read from it).
  pr.base.ref = 'main';
  const world = await startWorld({
    seed: EXAMPLE,
    github: stateFromPayload(payload, { senderPermission: 'read' }),
    anthropic: { script: reviewer }
  });
  const run = await world.run({
    eventName: 'pull_request',
    payload,
    inputs: { review_on_pull_request: 'true' },
    workspace: world.cloneOrigin(),
    entry: ACTION_FROM_SOURCE
  });
  expect(run.outputs.conclusion).toBe('refused');
  expect(world.modelCalls()).toBe(0);
  expect(world.github.createdComments).toHaveLength(0);
  expect(run.stdout).toContain('compact-agent refused:');
});

describe('a known secret the model disguises in a suggestion', () => {
  const half = LONG_TOKEN.length / 2;
  /** The letters and digits alone: what a reader (or the file, once the lines are joined) spells. */
  const skeleton = (text: string) => text.replace(/[^A-Za-z0-9]/g, '');

  it.each([
    [
      'split over two suggestion lines',
      `  const t = '${LONG_TOKEN.slice(0, half)}' +\n    '${LONG_TOKEN.slice(half)}';`
    ],
    ['interleaved with zero-width spaces', `  const t = '${[...LONG_TOKEN].join('\u200B')}';`],
    [
      'interleaved with soft hyphens and word joiners',
      `  const t = '${[...LONG_TOKEN].join('\u00AD\u2060')}';`
    ]
  ])('%s: not posted as a suggestion, and the token is not in the review', async (_name, suggestion) => {
    const { world } = await reviewWorld('write', LONG_TOKEN);
    leakScript.suggestion = suggestion;
    const run = await review(world, 19, '209');
    expect(run.code).toBe(0);
    const [comment] = world.github.reviewComments(PULL);
    expect(comment).toMatchObject({ path: 'src/word-count.js', line: 8 });
    expect(comment!.body).not.toContain('```suggestion');
    expect(comment!.body).toContain('not applicable as a suggestion: it held text the action redacts');
    const posted = [
      ...world.github.reviewComments(PULL).map((c) => c.body),
      ...world.github.reviews(PULL).map((r) => r.body),
      ...world.github.createdComments.map((c) => c.body)
    ];
    for (const body of posted) expect(skeleton(body)).not.toContain(skeleton(LONG_TOKEN));
    expectNoContractViolations(world.github);
  });
});
