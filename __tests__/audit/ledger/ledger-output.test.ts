/** The ledger's files carry what a run's transcript says: a file name the agent chose must stay text. */
import { renderLedgerHtml } from '../../../src/audit/ledger/ledger-html.js';
import { ledgerCsv, type Ledger } from '../../../src/audit/ledger/ledger-records.js';
import type { LedgerRow } from '../../../src/audit/ledger/ledger-row.js';
import { renderLedgerTerminal } from '../../../src/audit/ledger/ledger-terminal.js';
import { ledgerTotals } from '../../../src/audit/ledger/ledger-totals.js';
import { githubEndpoint, parseRunUrl } from '../../../src/github/api/github-location.js';

function ledgerOf(rows: LedgerRow[]): Ledger {
  return {
    repository: 'acme/widgets',
    generatedAt: '2026-11-28T00:00:00.000Z',
    since: undefined,
    until: undefined,
    found: rows.length,
    workflow: '.github/workflows/agent.yml',
    rows,
    ignored: [],
    totals: ledgerTotals(rows)
  };
}

const row: LedgerRow = {
  runId: '1-1',
  runUrl: 'https://github.com/acme/widgets/actions/runs/1',
  time: '2026-10-01T00:00:00Z',
  thread: 7,
  threadUrl: 'javascript:alert(1)',
  reportUrl: undefined,
  requester: 'alice',
  kind: 'fix',
  outcome: 'Done · success',
  pullRequest: undefined,
  turns: 2,
  usage: { input: 1, cache_write: 0, cache_read: 0, output: 1 },
  costUsd: 0.1,
  tools: [{ name: 'bash', calls: 1 }],
  deniedCommands: [],
  refusedHosts: [],
  filesChanged: ['=HYPERLINK("https://evil.example","x")', '<img src=x onerror=alert(1)>.md'],
  verdict: 'intact',
  detail: 'ok, "quoted"',
  publishedHead: undefined
};

describe('the ledger files', () => {
  it('terminal: a control character from a report or a zip entry is printed as an escape, never sent', () => {
    const hostile: LedgerRow = {
      ...row,
      requester: '\u001b]0;owned\u0007eve',
      outcome: 'Done\u001b[2K\r',
      verdict: 'unreadable',
      detail: 'the zip entry "x\u001b[1A\u009bJ.jsonl" is unsafe'
    };
    const text = renderLedgerTerminal(ledgerOf([hostile]));
    expect(text).not.toMatch(/(?!\n)\p{Cc}/u);
    expect(text).toContain('\\x1b]0;owned\\x07eve');
    expect(text).toContain('x\\x1b[1A\\x9bJ.jsonl');
    expect(text.split('\n').length).toBeGreaterThan(5);
  });

  it('CSV: a cell a spreadsheet would run as a formula is prefixed, quotes are doubled', () => {
    const csv = ledgerCsv(ledgerOf([row]));
    expect(csv).toContain('"\'=HYPERLINK(""https://evil.example"",""x""); <img src=x onerror=alert(1)>.md"');
    expect(csv).toContain(',"ok, ""quoted"""');
    expect(csv.endsWith('\r\n')).toBe(true);
  });

  it('HTML: text is escaped and only http(s) URLs become links', () => {
    const page = renderLedgerHtml(ledgerOf([row]));
    expect(page).toContain('&lt;img src=x onerror=alert(1)&gt;.md');
    expect(page).not.toContain('<img');
    expect(page).not.toContain('href="javascript:');
    expect(page).toContain('<td>#7</td>');
  });

  it('HTML: the records left out are listed, escaped', () => {
    const page = renderLedgerHtml({
      ...ledgerOf([row]),
      ignored: [
        {
          source: 'artifact 9 (agent-transcripts-<b>-1)',
          reason: 'its name says run 1, but run 2 uploaded it'
        }
      ]
    });
    expect(page).toContain("Left out, not the agent's records (checked against .github/workflows/agent.yml)");
    expect(page).toContain('artifact 9 (agent-transcripts-&lt;b&gt;-1)');
  });
});

describe('run URLs', () => {
  it('a run page, with its attempt or job, on github.com', () => {
    const endpoint = githubEndpoint({});
    expect(endpoint).toEqual({ webHost: 'github.com', apiUrl: 'https://api.github.com' });
    for (const url of [
      'https://github.com/acme/widgets/actions/runs/42',
      'https://github.com/acme/widgets/actions/runs/42/attempts/2',
      'https://github.com/acme/widgets/actions/runs/42/job/99'
    ])
      expect(parseRunUrl(url, endpoint)).toEqual({
        owner: 'acme',
        name: 'widgets',
        runId: 42,
        url: 'https://github.com/acme/widgets/actions/runs/42'
      });
  });

  it('GitHub Enterprise Server: its host, and its API under /api/v3 unless GITHUB_API_URL says', () => {
    const endpoint = githubEndpoint({ GITHUB_SERVER_URL: 'https://git.corp.example' });
    expect(endpoint).toEqual({ webHost: 'git.corp.example', apiUrl: 'https://git.corp.example/api/v3' });
    expect(parseRunUrl('https://git.corp.example/a/b/actions/runs/1', endpoint).runId).toBe(1);
    expect(() => parseRunUrl('https://github.com/a/b/actions/runs/1', endpoint)).toThrow(
      'github.com is not git.corp.example'
    );
  });
});
