/**
 * Fake Anthropic Messages API for tests, the offline demo and benchmarks.
 *
 *   const fake = await startFakeAnthropic({ script: scriptFrom([reply(text('hi'))]) });
 *   const client = new Anthropic({ apiKey: 'test-key', baseURL: fake.url });
 *   ...
 *   await fake.close();
 */
export * from './types.js';
export * from './validate.js';
export * from './tokens.js';
export * from './usage.js';
export * from './sse.js';
export * from './replies.js';
export * from './server.js';
export * from './prompt-cache.js';
export * from './model-rules.js';
export * from './thinking-binding.js';
export * from './billing.js';
export * from './compaction.js';
export * from './models-route.js';
export * from './context-editing.js';
