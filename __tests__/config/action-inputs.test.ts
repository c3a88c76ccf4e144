import { readFileSync } from 'node:fs';
import {
  ACCEPTED_INPUT_NAMES,
  ACTION_INPUT_NAMES,
  unknownInputProblems
} from '../../src/config/action-inputs.js';
import { closestInput } from '../../src/config/closest-name.js';
import { deprecatedInputWarnings } from '../../src/config/deprecated-inputs.js';
import { missingPromptProblem } from '../../src/config/github-inputs.js';

/** The input names action.yml declares, in its order (a flat, two-level YAML: no parser needed). */
function declaredInputs(): string[] {
  const yaml = readFileSync('action.yml', 'utf8');
  const inputs = yaml.slice(yaml.indexOf('\ninputs:'), yaml.indexOf('\noutputs:'));
  return [...inputs.matchAll(/^ {2}([A-Za-z0-9_ -]+):\s*$/gm)].map((match) => match[1]!);
}

describe('the inputs the action knows', () => {
  it('are the inputs action.yml declares (add a new input to ACTION_INPUT_NAMES too)', () => {
    expect([...ACTION_INPUT_NAMES].sort()).toEqual(declaredInputs().sort());
  });
});

describe('the inputs action.yml no longer declares', () => {
  // 25 for a run's own inputs, and the fan-out's five (issue 35): a job's role and its matrix shard,
  // and a dispatch's units, cap and resume, which differ per job or per dispatch, so no shared file holds them.
  it('are at most 30 declared inputs', () => {
    expect(declaredInputs().length).toBeLessThanOrEqual(30);
  });

  it('still work for a release, with a warning naming the new key and the migration page', () => {
    const env = { INPUT_MAX_OUTPUT_TOKENS: '8000', INPUT_USE_BEDROCK: 'true', INPUT_MAX_TURNS: '5' };
    expect(unknownInputProblems(env)).toEqual([]);
    expect(deprecatedInputWarnings(env)).toEqual([
      'The input use_bedrock is deprecated and will be removed in the next release; it still works in this one. ' +
        'Set provider: bedrock (the input provider, or model.provider in the file) instead (docs/migration.md shows each old input and its new key).',
      'The input max_output_tokens is deprecated and will be removed in the next release; it still works in this one. ' +
        'Set model.max_output_tokens in .github/compact-agent.yml instead (docs/migration.md shows each old input and its new key).'
    ]);
  });
});

describe('a with: key that is not an input', () => {
  // As the runner sets them: every declared default, plus each with: key, upper-cased.
  const runnerEnv = (extra: Record<string, string>) => ({
    INPUT_GITHUB_TOKEN: 't',
    INPUT_MAX_TURNS: '200',
    INPUT_ALLOW_WORKFLOW_CHANGES: 'false',
    PATH: '/usr/bin',
    ...extra
  });

  it('is named, with the closest known input', () => {
    expect(unknownInputProblems(runnerEnv({ INPUT_MAX_TURN: '5' }))).toEqual([
      "max_turn is not an input of compact-agent, so it would be ignored. Did you mean max_turns? Correct or remove it under the step's with: (docs/configuration.md lists the inputs, docs/migration.md the old ones)."
    ]);
  });

  it('is found with a hyphen for an underscore, or a letter swapped', () => {
    const problems = unknownInputProblems(
      runnerEnv({ 'INPUT_MAX-BUDGET-USD': '5', INPUT_ALLOW_WORKFLOW_CHNAGES: 'true' })
    );
    expect(problems).toEqual([
      expect.stringMatching(
        /^allow_workflow_chnages is not an input .* Did you mean allow_workflow_changes\?/
      ),
      expect.stringMatching(/^max-budget-usd is not an input .* Did you mean max_budget_usd\?/)
    ]);
  });

  it('gets no suggestion when nothing is close, and declared inputs are no problem', () => {
    expect(unknownInputProblems(runnerEnv({ INPUT_FAVOURITE_COLOUR: 'blue' }))).toEqual([
      expect.not.stringContaining('Did you mean')
    ]);
    expect(unknownInputProblems(runnerEnv({}))).toEqual([]);
    expect(closestInput('model', ACCEPTED_INPUT_NAMES)).toBe('model');
    expect(closestInput('xyz', ACCEPTED_INPUT_NAMES)).toBeUndefined();
  });
});

describe('a dispatched or scheduled run without a task', () => {
  const reader = (inputs: Record<string, string>) => (name: string) => inputs[name] ?? '';

  it('is a problem naming prompt and prompt_file, and how to pass one', () => {
    expect(missingPromptProblem('workflow_dispatch', reader({}))).toBe(
      'A workflow_dispatch run needs a task, and prompt and prompt_file are both unset or empty. ' +
        "Pass one under the step's with: (e.g. prompt: ${{ inputs.task }}, with a task input under on: workflow_dispatch: inputs:)."
    );
    expect(missingPromptProblem('schedule', reader({ prompt: '  ' }))).toMatch(/prompt_file: \.github\//);
  });

  it('is none with either input, or for an event that brings its own task', () => {
    expect(missingPromptProblem('schedule', reader({ prompt_file: 'task.md' }))).toBeUndefined();
    expect(missingPromptProblem('workflow_dispatch', reader({ prompt: 'Refactor' }))).toBeUndefined();
    expect(missingPromptProblem('issue_comment', reader({}))).toBeUndefined();
  });
});
