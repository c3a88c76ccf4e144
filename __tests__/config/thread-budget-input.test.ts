import { parseActionConfig } from '../../src/config/github-inputs.js';
import { InputError } from '../../src/config/inputs.js';

const reader = (inputs: Record<string, string>) => (name: string) => inputs[name] ?? '';
const base = { anthropic_api_key: 'sk-test', github_token: 'ghs_test' };

function problemsOf(inputs: Record<string, string>): readonly string[] {
  try {
    parseActionConfig(reader({ ...base, ...inputs }), {});
  } catch (error) {
    if (error instanceof InputError) return error.problems;
    throw error;
  }
  throw new Error('expected an InputError');
}

const github = (inputs: Record<string, string>) =>
  parseActionConfig(reader({ ...base, ...inputs }), {}).github;

describe('max_thread_budget_usd', () => {
  it('is five times max_budget_usd when unset: 50 by default, and it follows a raised max_budget_usd', () => {
    expect(github({}).maxThreadBudgetUsd).toBe(50);
    expect(github({ max_budget_usd: '200' }).maxThreadBudgetUsd).toBe(1000);
  });

  it('takes an amount as given, with or without a dollar sign', () => {
    expect(github({ max_thread_budget_usd: '12.5' }).maxThreadBudgetUsd).toBe(12.5);
    expect(github({ max_thread_budget_usd: ' $30 ' }).maxThreadBudgetUsd).toBe(30);
  });

  it.each(['0', '-5', 'ten', 'Infinity'])(
    'refuses %s, saying what it caps and what the default is',
    (value) => {
      expect(problemsOf({ max_thread_budget_usd: value })).toEqual([
        `max_thread_budget_usd must be a positive amount of US dollars (e.g. 50), got "${value}". It caps what all runs on one issue or pull request may cost together; leave it empty for the default (5 times max_budget_usd).`
      ]);
    }
  );
});

describe('fail_on_limit', () => {
  it('is off by default, and on when set to true', () => {
    expect(github({}).failOnLimit).toBe(false);
    expect(github({ fail_on_limit: 'true' }).failOnLimit).toBe(true);
    expect(github({ fail_on_limit: 'False' }).failOnLimit).toBe(false);
  });

  it('refuses a value that is not true or false', () => {
    expect(problemsOf({ fail_on_limit: 'yes' })).toEqual([
      expect.stringMatching(/^fail_on_limit: "yes" is not true or false\./)
    ]);
  });
});
