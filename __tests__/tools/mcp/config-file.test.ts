import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { mcpConfigInline, readMcpConfig } from '../../../src/tools/mcp/config.js';
import { createTempDir } from '../../support/temp-repo.js';

describe('readMcpConfig on a file', () => {
  it('refuses a file too big to be a configuration without reading it, saying by how much', () => {
    const file = path.join(createTempDir('mcp-big-'), 'mcp.json');
    writeFileSync(file, ' '.repeat(2 * 1024 * 1024));
    expect(readMcpConfig(file, '--mcp-config')).toEqual({
      ok: false,
      problems: [
        `--mcp-config: cannot read the file ${file} (it is too big (2 MiB; it is read only up to 391 KiB)). ` +
          'Give inline JSON, or the path of a regular JSON file of the form {"mcpServers": {...}}.'
      ]
    });
  });
});

describe('mcpConfigInline', () => {
  it('is read back as the same servers, so the action can pass on what it read once', () => {
    const file = path.join(createTempDir('mcp-inline-'), 'mcp.json');
    writeFileSync(
      file,
      JSON.stringify({
        mcpServers: {
          calc: { type: 'stdio', command: 'node', args: ['calc.mjs', '--fast'], env: { CALC_API_KEY: 'k1' } },
          bare: { command: 'bare-server' }
        }
      })
    );
    const read = readMcpConfig(file, 'mcp_config');
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect(read.servers).toHaveLength(2);
    expect(readMcpConfig(mcpConfigInline(read.servers), 'mcp_config')).toEqual(read);
  });
});
