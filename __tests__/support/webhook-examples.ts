import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

interface ExampleSet {
  readonly name: string;
  readonly examples: ReadonlyArray<Record<string, unknown> & { action?: string }>;
}

/** Real webhook payloads from @octokit/webhooks-examples, deep-copied so a test may change them. */
export function webhookExample(event: string, action?: string, index = 0): Record<string, unknown> {
  const sets = require('@octokit/webhooks-examples/api.github.com/index.json') as ExampleSet[];
  const set = sets.find((candidate) => candidate.name === event);
  const matching = (set?.examples ?? []).filter(
    (example) => action === undefined || example.action === action
  );
  const example = matching[index];
  if (!example) throw new Error(`no ${event}${action ? `.${action}` : ''} example #${index}`);
  return structuredClone(example);
}
