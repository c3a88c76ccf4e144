/** `npm run build:audit-client`: writes src/audit/page/client-script.ts from its TypeScript source. */
import { readFileSync, writeFileSync } from 'node:fs';
import {
  AUDIT_CLIENT_OUTPUT,
  AUDIT_CLIENT_SOURCE,
  clientScriptModule,
  transpileAuditClient
} from './audit-client.js';

const script = transpileAuditClient(readFileSync(AUDIT_CLIENT_SOURCE, 'utf8'));
writeFileSync(AUDIT_CLIENT_OUTPUT, await clientScriptModule(script));
console.log(`Wrote ${AUDIT_CLIENT_OUTPUT} (${script.length.toLocaleString('en-US')} characters of script).`);
