import { writeFileSync } from 'node:fs';
import { configFileSchema } from '../src/config/config-schema.js';

/** Writes schemas/compact-agent.schema.json from the key table (src/config/config-file-keys.ts). */
writeFileSync('schemas/compact-agent.schema.json', `${JSON.stringify(configFileSchema(), null, 2)}\n`);
