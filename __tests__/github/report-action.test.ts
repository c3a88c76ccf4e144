import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseTranscript } from '../../src/audit/parse-transcript.js';
import { wordStatsFixer } from '../../demo/word-stats-fixer.js';
import { ACTION_FROM_SOURCE } from '../../test-support/action-runner.js';
import { stateFromPayload } from '../../test-support/fake-github/index.js';
import { CREATE_PULL_REQUESTS_SETTING } from '../../src/github/report/report-top.js';
import { actionWorldPerTest, examplePayload } from '../support/action-world.js';

const startWorld = actionWorldPerTest();

/**
 * The report as the action posts it, through the real Octokit against the fake GitHub, on a
 * repository whose settings refuse Actions the creation of pull requests (the fake answers 403 as
 * GitHub does, see test-support/fake-github/README.md).
 */
describe('the report of a run whose pull request GitHub refused', () => {
  it('names the requester once, the task, the compare link and the setting, the tests and the cost, first', async () => {
    const payload = examplePayload(
      'issue_comment',
      'created',
      '/agent the word count test fails, please fix it (as @octocat-friend said)'
    );
    const requester = (payload.comment as { user: { login: string } }).user.login;
    const world = await startWorld({
      seed: path.resolve('examples/word-stats'),
      github: {
        ...stateFromPayload(payload, { senderPermission: 'write' }),
        allowActionsToCreatePullRequests: false
      },
      anthropic: { script: wordStatsFixer }
    });
    const run = await world.run({
      eventName: 'issue_comment',
      payload,
      entry: ACTION_FROM_SOURCE,
      inputs: { micro_keep_recent: '1', micro_clear_at_least: '1', notify_requester: 'true' }
    });
    expect(run.code).toBe(0);
    const branch = run.outputs.branch_name!;
    expect(world.github.createdPulls).toEqual([]);

    const report = world.github.createdComments[0]!.body;
    const top = report.split('### Summary')[0]!;
    const paragraphs = top.split('\n\n');
    expect(paragraphs[0]).toMatch(/^✅ Done · `success` · /);
    expect(paragraphs[1]).toBe(
      `📝 @${requester} asked: the word count test fails, please fix it (as @\u2060octocat-friend said)`
    );
    expect(paragraphs[2]).toContain(
      '⚠️ No pull request: GitHub Actions is not permitted to create or approve pull requests.'
    );
    expect(paragraphs[2]).toContain(
      `[compare and create](https://github.com/${world.github.repo.full_name}/compare/main...${branch})`
    );
    expect(paragraphs[2]).toContain(`**${CREATE_PULL_REQUESTS_SETTING}**`);
    // The fixer runs `npm test` twice: failing, then passing after its edit.
    expect(paragraphs[3]).toMatch(
      /^🧪 Tests: the last test run, `npm test 2>&1 \| tail -12` \(turn \d+\), ❔ exit 0, but from a `\|` or `\|\|` after the tests, not from them\. Before it: `npm test 2>&1 \| tail -40` /
    );
    expect(paragraphs[4]).toMatch(/^💰 Cost: \$\d+\.\d{4} over \d+ turns/);
    // One live mention in the whole report: the requester's.
    const mentions = [...report.matchAll(/(^|[^\w])@([A-Za-z0-9][\w-]*)/g)].map((match) => match[2]);
    expect(mentions).toEqual([requester]);
    // What explains the run is folded, after what developers read.
    expect(report.indexOf('<details><summary>Context tokens per turn')).toBeGreaterThan(
      report.indexOf('### Changes')
    );
    expect(report).toContain('| turns | uncached input |');

    // The report is an edit, which GitHub notifies no one of: a reply mentions the requester.
    expect(world.github.createdComments).toHaveLength(2);
    const reportId = run.outputs.comment_id;
    expect(world.github.createdComments[1]!.body).toBe(
      `@${requester} the run you asked for has finished: [the report](https://github.com/${world.github.repo.full_name}/issues/1#issuecomment-${reportId}).`
    );

    // The transcript's run_start records where the run is on GitHub, for the audit page's links.
    const transcript = readFileSync(path.join(run.outputs.transcript_dir!, 'transcript.jsonl'), 'utf8');
    const repository = `https://github.com/${world.github.repo.full_name}`;
    expect(parseTranscript(transcript).thread?.links).toEqual({
      thread: `${repository}/issues/1`,
      run: `${repository}/actions/runs/4242`,
      pull_request: `${repository}/pulls?q=${encodeURIComponent(`is:pr head:${branch}`)}`
    });
  });
});
