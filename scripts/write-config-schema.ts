import { writeFileSync } from 'node:fs';
import { format, resolveConfig } from 'prettier';
import { configFileSchema } from '../src/config/config-schema.js';

/**
 * Writes schemas/compact-agent.schema.json from the key table (src/config/config-file-keys.ts),
 * formatted as `npm run format:check` (in CI) wants it, so a fresh schema passes that check.
 */
const file = 'schemas/compact-agent.schema.json';
const options = (await resolveConfig(file)) ?? {};
writeFileSync(
  file,
  await format(JSON.stringify(configFileSchema(), null, 2), { ...options, filepath: file })
);
