/**
 * Fake GitHub REST API for tests and spawned actions.
 *
 *   const fake = await startFakeGitHub({ ...stateFromPayload(payload, { senderPermission: 'write' }) });
 *   const octokit = getOctokit(fake.token, { baseUrl: fake.url });
 *   ...
 *   fake.comments(1); fake.createdPulls; fake.requestsTo('POST', /\/comments$/);
 *   await fake.close();
 */
export * from './types.js';
export * from './server.js';
export * from './payload.js';
export * from './rate-limits.js';
export * from './token-grants.js';
export { ACTIONS_BOT, WEB_URL, legacyPermission, nodeId, stableId } from './render.js';
export * from './artifacts.js';
export type { FakeDispatchWorkflow, RecordedDispatch } from './workflow-dispatch.js';
export type { FakeRunStatus } from './workflow-runs.js';
export type { FakeJobSeed } from './ci-jobs.js';
