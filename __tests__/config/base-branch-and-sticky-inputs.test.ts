import { branchNameProblem } from '../../src/config/branch-name.js';
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

describe('base_branch', () => {
  it('is unset by default (the default branch) and takes a branch name as given', () => {
    expect(parseActionConfig(reader(base), {}).github.baseBranch).toBeUndefined();
    expect(parseActionConfig(reader({ ...base, base_branch: ' release/2.x ' }), {}).github.baseBranch).toBe(
      'release/2.x'
    );
  });

  it.each([
    ['main..evil', "'..'"],
    ['-uorigin', "starts with '-'"],
    ['--upload-pack=touch /tmp/x', "starts with '-'"],
    ['dev branch', 'a space'],
    ['feature:main', 'a space, a control character'],
    ['topic@{1}', "'@{'"],
    ['refs/heads/develop', 'not a full ref'],
    ['develop/', "ends with '/'"],
    ['a//b', 'empty part'],
    ['release/.hidden', "starts with '.'"],
    ['topic.lock', "'.lock'"],
    ['HEAD', 'names a commit'],
    ['tab\there', 'control character']
  ])('refuses %j, naming the input and why', (value, why) => {
    const problems = problemsOf({ base_branch: value });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain('base_branch');
    expect(problems[0]).toContain(value.trim());
    expect(problems[0]).toContain(why);
  });

  it.each(['develop', 'release/2.x', 'feature/issue-42_fix', 'v1.0', 'user/naïve'])('accepts %j', (name) => {
    expect(branchNameProblem(name)).toBeUndefined();
  });
});

describe('use_sticky_comment', () => {
  it('is false by default and reads true or false as getBooleanInput spells them', () => {
    expect(parseActionConfig(reader(base), {}).github.useStickyComment).toBe(false);
    expect(
      parseActionConfig(reader({ ...base, use_sticky_comment: 'TRUE' }), {}).github.useStickyComment
    ).toBe(true);
    expect(
      parseActionConfig(reader({ ...base, use_sticky_comment: 'false' }), {}).github.useStickyComment
    ).toBe(false);
  });

  it('refuses anything else, with the other problems', () => {
    expect(problemsOf({ use_sticky_comment: 'yes', base_branch: 'a..b' })).toEqual([
      expect.stringContaining('base_branch'),
      expect.stringMatching(/^use_sticky_comment: "yes" is not true or false\./)
    ]);
  });
});
