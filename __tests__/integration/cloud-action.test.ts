import path from 'node:path';
import { wordStatsFixer } from '../../demo/word-stats-fixer.js';
import { ACTION_FROM_SOURCE } from '../../test-support/action-runner.js';
import { startFakeBedrock, type FakeBedrock } from '../../test-support/fake-bedrock/index.js';
import { stateFromPayload } from '../../test-support/fake-github/index.js';
import { actionWorldPerTest, examplePayload, type ActionWorld } from '../support/action-world.js';

/**
 * The action itself (from src/, through tsx), as a runner starts it after
 * aws-actions/configure-aws-credentials or google-github-actions/auth: the credentials arrive in the
 * job's environment, pass through the sealed re-execution, and reach the cloud SDK.
 */
const startWorld = actionWorldPerTest();
let world: ActionWorld;
let bedrock: FakeBedrock | undefined;

const AWS = {
  accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  sessionToken: 'IQoJb3JpZ2luX2VjEXAMPLESESSIONTOKENfortests'
};

const comment = (body: string) => examplePayload('issue_comment', 'created', body);

beforeEach(async () => {
  world = await startWorld({
    seed: path.resolve('examples/word-stats'),
    github: stateFromPayload(comment('/agent x'), { senderPermission: 'write' }),
    anthropic: { script: wordStatsFixer }
  });
});
afterEach(async () => {
  await bedrock?.close();
  bedrock = undefined;
});

describe('the action on a cloud provider', () => {
  it('runs on Bedrock with the credentials configure-aws-credentials exports, every request signed', async () => {
    bedrock = await startFakeBedrock({
      inner: world.anthropic,
      region: 'us-east-1',
      credentials: AWS,
      models: { 'anthropic.claude-sonnet-5-5': 'claude-sonnet-5-5' }
    });
    const run = await world.run({
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
      entry: ACTION_FROM_SOURCE
    });
    expect(run.outputs.conclusion).toBe('success');
    expect(run.code).toBe(0);
    expect(bedrock.requests.length).toBeGreaterThan(2);
    expect(bedrock.requests.filter((r) => r.rejected !== undefined)).toEqual([]);
    expect(new Set(bedrock.requests.map((r) => r.modelId))).toEqual(new Set(['anthropic.claude-sonnet-5-5']));
    // Nothing went to the first-party address: every call came through the Bedrock fake.
    expect(world.anthropic.requests.every((r) => r.headers['x-api-key'] === 'forwarded-by-cloud-fake')).toBe(
      true
    );
    expect(Number(run.outputs.total_cost_usd)).toBeCloseTo(world.anthropic.totalBilledUsd, 6);
    // The secrets are registered with the runner's masking, and appear nowhere else in the log or the report.
    const log = (run.stdout + run.stderr).split('\n');
    expect(log).toContain(`::add-mask::${AWS.secretAccessKey}`);
    expect(
      log.filter((line) => !line.startsWith('::add-mask::') && line.includes(AWS.secretAccessKey))
    ).toEqual([]);
    expect(world.github.createdComments.map((c) => c.body).join('\n')).not.toContain(AWS.sessionToken);
  });

  it('refuses to start on Vertex when the credentials file is in the workspace, and says so on the thread', async () => {
    const file = world.repo.write('gha-creds-7d1e2f.json', '{"type":"external_account"}');
    const run = await world.run({
      eventName: 'issue_comment',
      payload: comment('/agent fix it'),
      inputs: { anthropic_api_key: '', use_vertex: 'true', vertex_project_id: 'p', vertex_region: 'global' },
      env: { GOOGLE_APPLICATION_CREDENTIALS: file, GOOGLE_GHA_CREDS_PATH: file },
      entry: ACTION_FROM_SOURCE
    });
    expect(run.code).toBe(1);
    expect(run.outputs.conclusion).toBe('failure');
    const [reply] = world.github.createdComments;
    expect(reply!.body).toContain('compact-agent could not start');
    expect(reply!.body).toContain('(gha-creds-7d1e2f.json) is inside the repository');
    expect(reply!.body).toContain('create_credentials_file: false');
    expect(world.anthropic.requests).toHaveLength(0);
  });
});
