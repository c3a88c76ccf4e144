import { getOctokit } from '@actions/github';
import { OctokitWorkflowDispatcher } from '../../src/github/api/workflow-dispatch.js';
import { expectNoContractViolations } from '../../test-support/github-contract/index.js';
import { startFakeGitHub, type FakeGitHub } from '../../test-support/fake-github/index.js';

let fake: FakeGitHub;
const repository = { owner: 'octo', name: 'repo' };
beforeEach(async () => {
  fake = await startFakeGitHub({ repo: { ...repository, default_branch: 'main' }, branches: ['release'] });
  fake.defineDispatchWorkflow({
    file: 'fanout.yml',
    inputs: ['prompt', 'report_issue'],
    required: ['prompt']
  });
});
afterEach(async () => {
  await fake.close();
  expectNoContractViolations(fake);
});

describe('OctokitWorkflowDispatcher against the fake GitHub', () => {
  it('asks for the run details and gives the new run its id and page', async () => {
    const dispatcher = new OctokitWorkflowDispatcher(fake.token, repository, fake.url);
    const run = await dispatcher.dispatch('fanout.yml', 'main', { prompt: 'x', report_issue: '7' });
    expect(run).toEqual({ runId: 880001, htmlUrl: 'https://github.com/octo/repo/actions/runs/880001' });
    expect(fake.requestsTo('POST', /\/dispatches$/).map((request) => request.body)).toEqual([
      { ref: 'main', inputs: { prompt: 'x', report_issue: '7' }, return_run_details: true }
    ]);
  });

  it('dispatches again without return_run_details where GitHub does not know it (an older GHES)', async () => {
    fake.failNext({
      method: 'POST',
      path: /\/dispatches$/,
      status: 422,
      message: 'Invalid request.\n\n"return_run_details" is not a permitted key.'
    });
    const dispatcher = new OctokitWorkflowDispatcher(fake.token, repository, fake.url);
    expect(await dispatcher.dispatch('fanout.yml', 'release', { prompt: 'x' })).toEqual({
      runId: undefined,
      htmlUrl: undefined
    });
    expect(fake.dispatches.map(({ ref, inputs }) => ({ ref, inputs }))).toEqual([
      { ref: 'release', inputs: { prompt: 'x' } }
    ]);
  });

  it('passes on any other refusal', async () => {
    const dispatcher = new OctokitWorkflowDispatcher(fake.token, repository, fake.url);
    await expect(dispatcher.dispatch('missing.yml', 'main', { prompt: 'x' })).rejects.toMatchObject({
      status: 404
    });
    await expect(dispatcher.dispatch('fanout.yml', 'main', { report_issue: '7' })).rejects.toThrow(
      /Required input 'prompt' not provided/
    );
    expect(fake.dispatches).toEqual([]);
  });
});

describe("the fake's dispatch route, as GitHub's description has it", () => {
  it('answers 204 without a body unless the run details are asked for, and 422 for what GitHub refuses', async () => {
    const octokit = getOctokit(fake.token, { baseUrl: fake.url });
    const plain = await octokit.rest.actions.createWorkflowDispatch({
      owner: 'octo',
      repo: 'repo',
      workflow_id: 'fanout.yml',
      ref: 'refs/heads/main',
      inputs: { prompt: 'x' }
    });
    expect(plain.status).toBe(204);
    const dispatch = (body: { ref: string; inputs: Record<string, string> }) =>
      octokit.rest.actions.createWorkflowDispatch({
        owner: 'octo',
        repo: 'repo',
        workflow_id: 'fanout.yml',
        ...body
      });
    await expect(dispatch({ ref: 'nope', inputs: { prompt: 'x' } })).rejects.toThrow(
      /No ref found for: nope/
    );
    await expect(dispatch({ ref: 'main', inputs: { prompt: 'x', units: 'ls' } })).rejects.toThrow(
      /Unexpected inputs provided: \["units"\]/
    );
    expect(fake.dispatches).toHaveLength(1);
  });
});
