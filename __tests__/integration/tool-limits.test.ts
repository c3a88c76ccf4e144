import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { runSession, type SessionOutcome } from '../../src/agent/session.js';
import { parseAgentConfig } from '../../src/config/inputs.js';
import { renderReport } from '../../src/github/report/report.js';
import { AnthropicModelClient } from '../../src/model/anthropic-client.js';
import type { TranscriptLine } from '../../src/transcript/events.js';
import { startFakeAnthropic, type FakeAnthropic } from '../../test-support/fake-anthropic/index.js';
import {
  reply,
  scriptFrom,
  text,
  toolNames,
  toolResults,
  toolResultText,
  toolUse
} from '../../test-support/fake-anthropic/replies.js';
import { createTempRepo, type TempRepo } from '../support/temp-repo.js';

let repo: TempRepo;
let fake: FakeAnthropic | undefined;
beforeEach(() => {
  repo = createTempRepo();
  repo.write('README.md', 'hi\n');
});
afterEach(async () => {
  await fake?.close();
  fake = undefined;
  repo.remove();
});

async function run(inputs: Record<string, string>, script: Parameters<typeof scriptFrom>[0]) {
  fake = await startFakeAnthropic({ script: scriptFrom(script) });
  const config = parseAgentConfig((name) => inputs[name] ?? '', { ANTHROPIC_API_KEY: 'test-key' });
  const outcome = await runSession({
    config,
    task: 'Run the checks.',
    repoDir: repo.root,
    transcriptsDir: path.join(repo.root, '.transcripts'),
    runId: 'limits-run',
    env: process.env,
    model: new AnthropicModelClient({ apiKey: 'test-key', baseURL: fake.url, retryBaseDelayMs: 1 })
  });
  const requests = fake.requests.filter((request) => request.path === '/v1/messages');
  return { outcome, requests };
}

function transcript(outcome: SessionOutcome): TranscriptLine[] {
  return readFileSync(outcome.transcriptPath, 'utf8')
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as TranscriptLine);
}

describe('tool limits in a real session against the fake API', () => {
  it('runs an allowed command, refuses a chained one and a withheld tool with tool errors, and reports them', async () => {
    const { outcome, requests } = await run(
      { allowed_bash_commands: 'echo, git status', disallowed_tools: 'write_file' },
      [
        reply(toolUse('bash', { command: 'echo ran-ok && git status --short' }, 'call_ok')),
        reply(toolUse('bash', { command: 'echo hi && touch pwned' }, 'call_chained')),
        reply(toolUse('bash', { command: 'echo hi; touch pwned' }, 'call_again')),
        reply(toolUse('write_file', { path: 'pwned', content: 'x' }, 'call_withheld')),
        reply(text('Done.'))
      ]
    );
    expect(outcome.result.stopReason).toBe('success');
    // The withheld tool is never offered; bash is, with its limits in its description.
    const offered = toolNames(requests[0]!.request!);
    expect(offered).not.toContain('write_file');
    expect(offered).toContain('bash');
    const bash = requests[0]!.request!.tools!.find((tool) => tool.name === 'bash');
    expect(JSON.stringify(bash)).toContain('Each part must start with one of: echo, git status');

    const [ok] = toolResults(requests[1]!.request!);
    expect(ok!.is_error).toBeUndefined();
    expect(toolResultText(ok!)).toContain('ran-ok');
    for (const index of [2, 3]) {
      const [denied] = toolResults(requests[index]!.request!);
      expect(denied!.is_error).toBe(true);
      expect(toolResultText(denied!)).toContain('`touch pwned`');
      expect(toolResultText(denied!)).toContain('allowed_bash_commands');
      expect(toolResultText(denied!)).toContain('`echo`, `git status`');
    }
    const [withheld] = toolResults(requests[4]!.request!);
    expect(withheld!.is_error).toBe(true);
    expect(toolResultText(withheld!)).toContain(
      'write_file is not offered in this run (disallowed_tools names it'
    );
    expect(existsSync(path.join(repo.root, 'pwned'))).toBe(false);

    expect(outcome.deniedCalls).toEqual([
      { tool: 'bash', head: 'touch pwned', rule: 'allowed_bash_commands', count: 2 },
      { tool: 'write_file', head: 'write_file', rule: 'disallowed_tools', count: 1 }
    ]);
    const denials = transcript(outcome)
      .filter((line) => line.type === 'tool_result')
      .map((line) => (line.type === 'tool_result' ? line.denied : undefined));
    expect(denials).toEqual([
      undefined,
      { rule: 'allowed_bash_commands', head: 'touch pwned' },
      { rule: 'allowed_bash_commands', head: 'touch pwned' },
      { rule: 'disallowed_tools', head: 'write_file' }
    ]);

    const report = renderReport({
      result: outcome.result,
      runUrl: 'https://example.test/run',
      changes: { kind: 'none' },
      artifact: { kind: 'failed', error: 'not uploaded in this test' },
      transcriptDir: '.transcripts/limits-run',
      deniedCalls: outcome.deniedCalls ?? []
    });
    expect(report).toContain("### Tool limits\n\n3 tool calls were denied by this run's tool limits.");
    expect(report).toContain('| `bash` | `touch pwned` | `allowed_bash_commands` | 2 |');
    expect(report).toContain('| `write_file` | `write_file` | `disallowed_tools` | 1 |');
  });

  it('runs as before, with no section in the report, when no limit is set', async () => {
    const { outcome } = await run({}, [
      reply(toolUse('bash', { command: 'echo hi && touch made' })),
      reply(text('Done.'))
    ]);
    expect(existsSync(path.join(repo.root, 'made'))).toBe(true);
    expect(outcome.deniedCalls).toEqual([]);
    const report = renderReport({
      result: outcome.result,
      runUrl: 'https://example.test/run',
      changes: { kind: 'none' },
      artifact: { kind: 'failed', error: 'x' },
      transcriptDir: '.transcripts/limits-run',
      deniedCalls: outcome.deniedCalls ?? []
    });
    expect(report).not.toContain('Tool limits');
  });
});
