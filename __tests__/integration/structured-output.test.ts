/**
 * Structured output end to end: the real SDK against the fake Anthropic API, the answer asked for
 * after the work, checked against json_schema, asked again once, billed and recorded; and the
 * action (from src/) writing it, and the denied tool calls, to its outputs.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { runSession, type SessionOutcome } from '../../src/agent/session.js';
import { parseTranscript } from '../../src/audit/parse-transcript.js';
import { parseAgentConfig } from '../../src/config/inputs.js';
import { AnthropicModelClient } from '../../src/model/anthropic-client.js';
import type { TranscriptLine } from '../../src/transcript/events.js';
import { ACTION_FROM_SOURCE } from '../../test-support/action-runner.js';
import {
  lastUserText,
  reply,
  scriptFrom,
  startFakeAnthropic,
  text,
  thinking,
  toolUse,
  type FakeAnthropic
} from '../../test-support/fake-anthropic/index.js';
import { actionWorldPerTest, examplePayload } from '../support/action-world.js';
import { createTempRepo, type TempRepo } from '../support/temp-repo.js';

const TRIAGE_SCHEMA = JSON.stringify({
  type: 'object',
  properties: {
    labels: { type: 'array', items: { type: 'string', enum: ['bug', 'docs', 'question'] } },
    priority: { type: 'integer', minimum: 1, maximum: 3 }
  },
  required: ['labels', 'priority'],
  additionalProperties: false
});

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

async function run(answers: Parameters<typeof scriptFrom>[0]) {
  fake = await startFakeAnthropic({
    script: scriptFrom([
      reply(toolUse('bash', { command: 'cat README.md' })),
      reply(text('The issue is a bug report.')),
      ...answers
    ])
  });
  const inputs: Record<string, string> = { json_schema: TRIAGE_SCHEMA };
  const config = parseAgentConfig((name) => inputs[name] ?? '', { ANTHROPIC_API_KEY: 'test-key' });
  const outcome = await runSession({
    config,
    task: 'Triage the issue.',
    repoDir: repo.root,
    transcriptsDir: path.join(repo.root, '.transcripts'),
    runId: 'structured-run',
    env: process.env,
    model: new AnthropicModelClient({ apiKey: 'test-key', baseURL: fake.url, retryBaseDelayMs: 1 })
  });
  const requests = fake.requests.filter((request) => request.path === '/v1/messages');
  expect(requests.filter((request) => request.rejected)).toEqual([]);
  return { outcome, requests, fake };
}

function transcript(outcome: SessionOutcome): TranscriptLine[] {
  return readFileSync(outcome.transcriptPath, 'utf8')
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as TranscriptLine);
}

function structuredEvents(outcome: SessionOutcome) {
  return transcript(outcome).flatMap((line) => (line.type === 'structured_output' ? [line] : []));
}

describe('structured output in a real session against the fake API', () => {
  it('asks for the answer after the work, with the schema, and keeps a matching one as compact JSON', async () => {
    const { outcome, requests, fake } = await run([reply(text('{ "labels": ["bug"], "priority": 2 }'))]);
    expect(outcome.result.stopReason).toBe('success');
    expect(outcome.result.structuredOutput).toBe('{"labels":["bug"],"priority":2}');
    // The agent's own closing words stay its summary.
    expect(outcome.result.summary).toBe('The issue is a bug report.');
    expect(requests).toHaveLength(3);
    // The same tools and system prompt as every turn: the request reads the cached prefix.
    expect(requests[2]!.request!.tools).toEqual(requests[1]!.request!.tools);
    expect(lastUserText(requests[2]!.request!)).toContain(`<json-schema>${TRIAGE_SCHEMA}</json-schema>`);
    // Billed like every request: the run's cost is what the fake billed for all three.
    expect(outcome.result.costUsd).toBeCloseTo(fake.totalBilledUsd, 9);
    expect(structuredEvents(outcome)).toEqual([
      expect.objectContaining({
        attempt: 1,
        output: '{"labels":["bug"],"priority":2}',
        problems: [],
        cost_usd: expect.any(Number)
      })
    ]);
    // The audit's timeline shows the answer, with the agent's last words, in the last turn.
    const audit = parseTranscript(readFileSync(outcome.transcriptPath, 'utf8'));
    expect(audit.timeline.at(-1)!.text).toContain('{ "labels": ["bug"], "priority": 2 }');
    expect(audit.costUsd).toBeCloseTo(fake.totalBilledUsd, 9);
  });

  it('asks again once with what was wrong, and takes the corrected answer', async () => {
    const { outcome, requests } = await run([
      // Thinking before the answer: sent back verbatim with the request that asks again (the fake checks).
      reply(
        thinking('Which labels fit?'),
        text('```json\n{"labels": ["bug", "urgent"], "priority": 2}\n```')
      ),
      reply(text('{"labels": ["bug"], "priority": 2}'))
    ]);
    expect(outcome.result.stopReason).toBe('success');
    expect(outcome.result.structuredOutput).toBe('{"labels":["bug"],"priority":2}');
    expect(requests).toHaveLength(4);
    expect(requests[3]!.request!.messages.at(-2)!.content).toEqual([
      expect.objectContaining({ type: 'thinking', thinking: 'Which labels fit?' }),
      expect.objectContaining({ type: 'text' })
    ]);
    expect(lastUserText(requests[3]!.request!)).toContain(
      'That answer was not accepted:\n- /labels/1: must be equal to one of the allowed values'
    );
    expect(
      structuredEvents(outcome).map(({ attempt, output, problems }) => ({ attempt, output, problems }))
    ).toEqual([
      { attempt: 1, output: null, problems: ['/labels/1: must be equal to one of the allowed values'] },
      { attempt: 2, output: '{"labels":["bug"],"priority":2}', problems: [] }
    ]);
  });

  it('fails the run, naming the problems, when the second answer does not match either', async () => {
    const { outcome, requests, fake } = await run([
      reply(text('The labels are bug and docs.')),
      reply(text('{"labels": ["bug"], "priority": 5}'))
    ]);
    expect(requests).toHaveLength(4);
    expect(outcome.result.stopReason).toBe('error_during_execution');
    expect(outcome.result.structuredOutput).toBeUndefined();
    expect(outcome.result.error).toBe(
      'The final answer did not match the JSON Schema (json_schema, --json-schema) after 2 requests for it, ' +
        'so no structured output was written: /priority: must be <= 3.'
    );
    expect(outcome.result.costUsd).toBeCloseTo(fake.totalBilledUsd, 9);
    const end = transcript(outcome).at(-1);
    expect(end).toMatchObject({ type: 'run_end', stop_reason: 'error_during_execution' });
    expect(structuredEvents(outcome).map((event) => event.problems)).toEqual([
      [expect.stringMatching(/^the answer is not valid JSON \(/)],
      ['/priority: must be <= 3']
    ]);
  });
});

describe('the action with json_schema and a tool limit', () => {
  const startWorld = actionWorldPerTest();

  it('writes the answer to structured_output and the refused command to denied_tool_calls', async () => {
    const payload = examplePayload('workflow_dispatch');
    const world = await startWorld({
      github: { repo: { owner: 'Codertocat', name: 'Hello-World', default_branch: 'main' } },
      anthropic: {
        script: scriptFrom([
          reply(toolUse('bash', { command: 'git push origin main' })),
          reply(text('Triaged.')),
          reply(text('{"labels": ["question"], "priority": 3}'))
        ])
      }
    });
    const run = await world.run({
      eventName: 'workflow_dispatch',
      payload,
      inputs: {
        prompt: 'Triage the issue.',
        json_schema: TRIAGE_SCHEMA,
        disallowed_bash_commands: 'git push'
      },
      entry: ACTION_FROM_SOURCE
    });
    expect(run.code).toBe(0);
    expect(run.outputs.conclusion).toBe('success');
    expect(run.outputs.structured_output).toBe('{"labels":["question"],"priority":3}');
    // The report (here the job summary) shows the answer too, folded.
    expect(run.summary).toContain(
      '<details><summary>Structured output (json_schema)</summary>\n\n```json\n{"labels":["question"],"priority":3}\n```'
    );
    expect(JSON.parse(run.outputs.denied_tool_calls!)).toEqual([
      { tool: 'bash', head: 'git push', rule: 'disallowed_bash_commands: git push', count: 1 }
    ]);
  }, 120_000);

  it('fails the step, with the problems in its error, when the answer never matches', async () => {
    const payload = examplePayload('workflow_dispatch');
    const world = await startWorld({
      github: { repo: { owner: 'Codertocat', name: 'Hello-World', default_branch: 'main' } },
      anthropic: {
        script: scriptFrom([
          reply(text('Triaged.')),
          reply(text('{"labels": []}')),
          reply(text('{"labels": []}'))
        ])
      }
    });
    const run = await world.run({
      eventName: 'workflow_dispatch',
      payload,
      inputs: { prompt: 'Triage the issue.', json_schema: TRIAGE_SCHEMA },
      entry: ACTION_FROM_SOURCE
    });
    expect(run.code).toBe(1);
    expect(run.outputs.conclusion).toBe('failure');
    expect(run.outputs.structured_output).toBe('');
    expect(run.outputs.denied_tool_calls).toBe('[]');
    expect(run.stdout).toContain(
      '::error::compact-agent stopped with error_during_execution: The final answer did not match the JSON Schema ' +
        '(json_schema, --json-schema) after 2 requests for it, so no structured output was written: ' +
        "(the root): must have required property 'priority'."
    );
  }, 120_000);
});
