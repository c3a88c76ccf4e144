import { netFilesChanged } from '../../src/audit/net-files.js';
import { parseTranscript } from '../../src/audit/parse-transcript.js';
import { renderHtmlReport } from '../../src/audit/html-report.js';
import type { AuditTurn } from '../../src/audit/run-audit.js';
import { demoTranscript, type DemoTranscript } from './page/demo-transcript.js';

let id = 0;
/** One turn of tool calls: `write` and `edit` by path, `bash` by command; each answered. */
function turn(calls: Array<[string, string, string?]>): AuditTurn {
  return {
    turn: 1,
    text: '',
    stopReason: 'tool_use',
    contextTokens: undefined,
    costUsd: undefined,
    time: undefined,
    toolCalls: calls.map(([name, arg, output]) => ({
      id: `toolu_${++id}`,
      name: name === 'write' ? 'write_file' : name === 'edit' ? 'edit_file' : name,
      input: name === 'bash' ? { command: arg } : { path: arg },
      output: output ?? (name === 'bash' ? 'exit code: 0\n--- stdout ---\n' : 'Wrote it'),
      isError: false,
      durationMs: 1
    }))
  };
}

describe('the files a run changed, on balance', () => {
  it('leaves out a file written and then removed, alone or with its folder', () => {
    const turns = [
      turn([
        ['write', 'scratch/probe.mjs'],
        ['write', './notes.txt'],
        ['edit', 'src/a.ts'],
        ['write', 'tmp/x/y.txt']
      ]),
      turn([
        ['bash', 'node scratch/probe.mjs && rm -r scratch; rm -f notes.txt'],
        ['bash', 'git rm -rq tmp']
      ])
    ];
    expect(netFilesChanged(turns)).toEqual(['src/a.ts']);
  });

  it('follows a move, of a file or of a folder', () => {
    const turns = [
      turn([
        ['write', 'a.txt'],
        ['write', 'old/b.txt']
      ]),
      turn([['bash', 'mv a.txt c.txt && git mv old new']])
    ];
    expect(netFilesChanged(turns)).toEqual(['c.txt', 'new/b.txt']);
  });

  it('counts a file written again after it was removed', () => {
    const turns = [turn([['write', 'a.txt']]), turn([['bash', 'rm a.txt']]), turn([['write', 'a.txt']])];
    expect(netFilesChanged(turns)).toEqual(['a.txt']);
  });

  it('does not follow what it cannot know: a failed command, a glob, a variable, a change of folder', () => {
    const written: Array<[string, string]> = [
      ['write', 'a.txt'],
      ['write', 'b.txt'],
      ['write', 'c.txt'],
      ['write', 'sub/d.txt']
    ];
    const turns = [
      turn(written),
      turn([
        ['bash', 'rm a.txt', 'exit code: 1\n--- stderr ---\nrm: cannot remove'],
        ['bash', 'rm *.txt'],
        ['bash', 'rm "$FILE" c.txt'],
        ['bash', 'cd sub && rm d.txt']
      ])
    ];
    expect(netFilesChanged(turns)).toEqual(['a.txt', 'b.txt', 'c.txt', 'sub/d.txt']);
  });

  describe("on the demo's real transcript", () => {
    let demo: DemoTranscript;
    beforeAll(async () => {
      demo = await demoTranscript();
    }, 120_000);
    afterAll(() => demo?.remove());

    it('counts what the pull request shows: the fix and its test, not the scratch files removed', () => {
      const audit = parseTranscript(demo.text);
      const written = audit.timeline
        .flatMap((entry) => entry.toolCalls)
        .filter((call) => call.name === 'write_file')
        .map((call) => (call.input as { path: string }).path);
      // The demo's agent writes a scratch script, and later removes the folder with `rm -r scratch`.
      expect(written).toContain('scratch/compare-counts.mjs');
      expect(audit.filesChanged).toEqual(['src/word-count.js', 'test/word-count.test.js']);
      expect(renderHtmlReport(audit)).toContain('<h2 id="files-title">Files changed (2)</h2>');
    });
  });
});
