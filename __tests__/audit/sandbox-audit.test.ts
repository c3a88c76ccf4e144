import { sandboxAudit, sandboxLine } from '../../src/audit/sandbox-audit.js';

describe('the sandbox in an audited transcript', () => {
  it('counts each refused host once per tool call, keeps the first turn and reason, and lists them', () => {
    const audit = sandboxAudit({ state: 'on', network: 'allowlist' }, [
      { turn: 2, sandbox_blocked: [{ host: 'evil.example', port: 443, reason: 'not on the allow list' }] },
      { turn: 3 },
      {
        turn: 5,
        sandbox_blocked: [
          { host: 'evil.example', port: 443, reason: 'not on the allow list' },
          { host: '169.254.169.254', port: 80, reason: 'an IP literal not listed' }
        ]
      }
    ]);
    expect(audit?.refused).toEqual([
      { host: 'evil.example', port: 443, calls: 2, reason: 'not on the allow list', firstTurn: 2 },
      { host: '169.254.169.254', port: 80, calls: 1, reason: 'an IP literal not listed', firstTurn: 5 }
    ]);
    expect(sandboxLine(audit)).toBe(
      [
        'Sandbox: on, network allowed hosts only · refused:',
        '  evil.example:443 ×2 (not on the allow list; first at turn 2)',
        '  169.254.169.254:80 ×1 (an IP literal not listed; first at turn 5)'
      ].join('\n')
    );
  });

  it('says why the box was off, that nothing was refused, or that an older transcript does not say', () => {
    expect(sandboxLine(sandboxAudit({ state: 'off', network: 'off', reason: 'sandbox: off' }, []))).toBe(
      'Sandbox: off (sandbox: off)'
    );
    expect(sandboxLine(sandboxAudit({ state: 'on', network: 'off' }, []))).toBe(
      'Sandbox: on, network off · nothing refused'
    );
    expect(sandboxAudit(undefined, [{ turn: 1 }])).toBeUndefined();
    expect(sandboxLine(undefined)).toBe('Sandbox: not recorded (a transcript from before the box)');
  });
});
