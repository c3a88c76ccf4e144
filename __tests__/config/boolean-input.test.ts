import { CLI_INPUT_NAMING } from '../../src/cli/args.js';
import { parseActionConfig } from '../../src/config/github-inputs.js';
import { InputError, parseAgentConfig } from '../../src/config/inputs.js';

const reader = (inputs: Record<string, string>) => (name: string) => inputs[name] ?? '';
const base = { anthropic_api_key: 'sk-test', github_token: 'ghs_test' };

function problemsOf(parse: () => unknown): readonly string[] {
  try {
    parse();
  } catch (error) {
    if (error instanceof InputError) return error.problems;
    throw error;
  }
  throw new Error('expected an InputError');
}

const parseAction = (inputs: Record<string, string>) =>
  parseActionConfig(reader({ ...base, ...inputs }), { AWS_REGION: 'us-east-1' });

/** Each on/off input, and how to read its value from a parsed configuration. */
const SWITCHES: ReadonlyArray<[string, (inputs: Record<string, string>) => boolean]> = [
  ['allow_workflow_changes', (inputs) => parseAction(inputs).agent.allowWorkflowChanges],
  ['include_untrusted_comments', (inputs) => parseAction(inputs).github.includeUntrustedComments],
  ['use_bedrock', (inputs) => parseAction(inputs).agent.provider.kind === 'bedrock']
];

describe.each(SWITCHES)('the on/off input %s', (input, valueOf) => {
  it('is off when empty, and reads the spellings @actions/core getBooleanInput accepts', () => {
    expect(valueOf({})).toBe(false);
    expect(valueOf({ [input]: '  ' })).toBe(false);
    for (const on of ['true', 'True', 'TRUE', ' true ']) expect(valueOf({ [input]: on })).toBe(true);
    for (const off of ['false', 'False', 'FALSE']) expect(valueOf({ [input]: off })).toBe(false);
  });

  // Before, `ture` and `yes` read as false for allow_workflow_changes and include_untrusted_comments.
  it.each(['ture', 'yes', 'on', '1', 'tRUE', 'fals'])(
    'refuses %j, naming the input and the spellings',
    (typo) => {
      const problems = problemsOf(() => parseAction({ [input]: typo }));
      expect(problems).toEqual([
        `${input}: "${typo}" is not true or false. Write true (or True, TRUE) to turn it on, false (or False, ` +
          'FALSE) to turn it off, or leave it empty for the default (false).'
      ]);
    }
  );
});

it('names the flag, not the input, on the command line', () => {
  const problems = problemsOf(() =>
    parseAgentConfig(reader({ anthropic_api_key: 'k', allow_workflow_changes: 'ture' }), {}, CLI_INPUT_NAMING)
  );
  expect(problems).toEqual([
    expect.stringMatching(/^--allow-workflow-changes: "ture" is not true or false\./)
  ]);
});
