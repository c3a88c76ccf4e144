import { readFileSync } from 'node:fs';
import { CLIENT_SCRIPT } from '../../../src/audit/page/client-script.js';
import { AUDIT_CLIENT_SOURCE, transpileAuditClient } from '../../../scripts/audit-client.js';

describe('the page script', () => {
  it('is its typed source with the types stripped (run `npm run build:audit-client` after editing it)', () => {
    expect(CLIENT_SCRIPT).toBe(transpileAuditClient(readFileSync(AUDIT_CLIENT_SOURCE, 'utf8')));
  });

  it('is a classic script that parses, keeps its names to itself, and cannot end its element', () => {
    expect(() => new Function(CLIENT_SCRIPT)).not.toThrow();
    expect(CLIENT_SCRIPT).toMatch(/^\(\(\) => \{\n'use strict';/);
    expect(CLIENT_SCRIPT).not.toMatch(/^\s*(import|export)\b/m);
    expect(CLIENT_SCRIPT).not.toMatch(/<\/script|<!--/i);
    // No helper a bundler would add and the browser lacks (tsx's __name, for one).
    expect(CLIENT_SCRIPT).not.toContain('__name');
  });

  it('refuses a source that imports a value, which a page script cannot load', () => {
    expect(() => transpileAuditClient("import { x } from './x.js';\nconsole.log(x);")).toThrow(
      /must not import or export anything but types/
    );
    expect(transpileAuditClient("import type { X } from './x.js';\nconst y: X = 1;")).toContain(
      'const y = 1;'
    );
  });
});
