import path from 'node:path';
import { wordStatsFixer } from '../../demo/word-stats-fixer.js';
import { ACTION_FROM_SOURCE, runAction } from '../../test-support/action-runner.js';
import { startFakeAnthropic, type FakeAnthropic } from '../../test-support/fake-anthropic/index.js';
import { startFakeArtifacts, type FakeArtifacts } from '../../test-support/fake-artifacts/index.js';
import { startFakeBedrock, type FakeBedrock } from '../../test-support/fake-bedrock/index.js';
import { startFakeGitHub, stateFromPayload, type FakeGitHub } from '../../test-support/fake-github/index.js';
import { createRepoWithRemote, type RepoWithRemote } from '../support/temp-repo.js';
import { webhookExample } from '../support/webhook-examples.js';

/**
 * The action itself (from src/, through tsx), as a runner starts it after
 * aws-actions/configure-aws-credentials or google-github-actions/auth: the credentials arrive in the
 * job's environment, pass through the sealed re-execution, and reach the cloud SDK.
 */
let repo: RepoWithRemote;
let github: FakeGitHub;
let artifacts: FakeArtifacts;
let anthropic: FakeAnthropic;
let bedrock: FakeBedrock | undefined;

const AWS = {
  accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  sessionToken: 'IQoJb3JpZ2luX2VjEXAMPLESESSIONTOKENfortests'
};

function comment(body: string): Record<string, unknown> {
  const payload = webhookExample('issue_comment', 'created');
  (payload.comment as { body: string }).body = body;
  (payload.repository as { default_branch: string }).default_branch = 'main';
  return payload;
}

beforeEach(async () => {
  repo = createRepoWithRemote(path.resolve('examples/word-stats'));
  [github, artifacts, anthropic] = await Promise.all([
    startFakeGitHub(stateFromPayload(comment('/agent x'), { senderPermission: 'write' })),
    startFakeArtifacts(),
    startFakeAnthropic({ script: wordStatsFixer })
  ]);
});
afterEach(async () => {
  await Promise.all([github.close(), artifacts.close(), anthropic.close(), bedrock?.close()]);
  bedrock = undefined;
  repo.remove();
});

describe('the action on a cloud provider', () => {
  it('runs on Bedrock with the credentials configure-aws-credentials exports, every request signed', async () => {
    bedrock = await startFakeBedrock({
      inner: anthropic,
      region: 'us-east-1',
      credentials: AWS,
      models: { 'anthropic.claude-sonnet-5-5': 'claude-sonnet-5-5' }
    });
    const run = await runAction({
      eventName: 'issue_comment',
      payload: comment('/agent the word count test fails, please fix it'),
      inputs: { anthropic_api_key: '', use_bedrock: 'true' },
      env: {
        AWS_ACCESS_KEY_ID: AWS.accessKeyId,
        AWS_SECRET_ACCESS_KEY: AWS.secretAccessKey,
        AWS_SESSION_TOKEN: AWS.sessionToken,
        AWS_REGION: 'us-east-1',
        AWS_EC2_METADATA_DISABLED: 'true',
        ANTHROPIC_BEDROCK_BASE_URL: bedrock.url
      },
      workspace: repo.root,
      github,
      artifacts,
      anthropicUrl: anthropic.url,
      entry: ACTION_FROM_SOURCE
    });
    expect(run.outputs.conclusion).toBe('success');
    expect(run.code).toBe(0);
    expect(bedrock.requests.length).toBeGreaterThan(2);
    expect(bedrock.requests.filter((r) => r.rejected !== undefined)).toEqual([]);
    expect(new Set(bedrock.requests.map((r) => r.modelId))).toEqual(new Set(['anthropic.claude-sonnet-5-5']));
    // Nothing went to the first-party address: every call came through the Bedrock fake.
    expect(anthropic.requests.every((r) => r.headers['x-api-key'] === 'forwarded-by-cloud-fake')).toBe(true);
    expect(Number(run.outputs.total_cost_usd)).toBeCloseTo(anthropic.totalBilledUsd, 6);
    // The secrets are registered with the runner's masking, and appear nowhere else in the log or the report.
    const log = (run.stdout + run.stderr).split('\n');
    expect(log).toContain(`::add-mask::${AWS.secretAccessKey}`);
    expect(
      log.filter((line) => !line.startsWith('::add-mask::') && line.includes(AWS.secretAccessKey))
    ).toEqual([]);
    expect(github.createdComments.map((c) => c.body).join('\n')).not.toContain(AWS.sessionToken);
  });

  it('refuses to start on Vertex when the credentials file is in the workspace, and says so on the thread', async () => {
    const file = repo.write('gha-creds-7d1e2f.json', '{"type":"external_account"}');
    const run = await runAction({
      eventName: 'issue_comment',
      payload: comment('/agent fix it'),
      inputs: { anthropic_api_key: '', use_vertex: 'true', vertex_project_id: 'p', vertex_region: 'global' },
      env: { GOOGLE_APPLICATION_CREDENTIALS: file, GOOGLE_GHA_CREDS_PATH: file },
      workspace: repo.root,
      github,
      artifacts,
      anthropicUrl: anthropic.url,
      entry: ACTION_FROM_SOURCE
    });
    expect(run.code).toBe(1);
    expect(run.outputs.conclusion).toBe('failure');
    const [reply] = github.createdComments;
    expect(reply!.body).toContain('compact-agent could not start');
    expect(reply!.body).toContain('(gha-creds-7d1e2f.json) is inside the repository');
    expect(reply!.body).toContain('create_credentials_file: false');
    expect(anthropic.requests).toHaveLength(0);
  });
});
