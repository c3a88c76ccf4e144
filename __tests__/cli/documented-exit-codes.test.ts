import { readFileSync } from 'node:fs';
import { EXIT } from '../../src/cli/exit-codes.js';
import { generalHelp } from '../../src/cli/help.js';
import { CLI_COMMANDS } from '../../src/cli/commands.js';

/** Scripts rely on the exit codes: docs/cli.md, `compact-agent help` and the code must agree. */
describe('the documented exit codes', () => {
  const page = readFileSync('docs/cli.md', 'utf8');
  const start = page.indexOf('\n## Exit codes');
  const end = page.indexOf('\n## ', start + 3);
  const section = page.slice(start, end < 0 ? undefined : end);
  const documented = [...section.matchAll(/^- \*\*(\d)\*\* /gm)].map((match) => Number(match[1]));

  it('lists every code of exit-codes.ts in docs/cli.md, and no other', () => {
    expect(documented).toEqual(Object.values(EXIT).sort());
  });

  it('names every code in compact-agent help', () => {
    const help = generalHelp(CLI_COMMANDS);
    for (const code of Object.values(EXIT)) expect(help).toMatch(new RegExp(`\\b${code} [a-z]`));
  });
});
