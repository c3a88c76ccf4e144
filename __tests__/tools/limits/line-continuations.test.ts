import { judgeBashCommand, readToolLimits, type BashLimits } from '../../../src/tools/limits/index.js';
import { joinContinuedLines } from '../../../src/tools/limits/line-continuations.js';

function limits(allowed: string, disallowed: string): BashLimits {
  const problems: string[] = [];
  const inputs: Record<string, string> = {
    allowed_bash_commands: allowed,
    disallowed_bash_commands: disallowed
  };
  const parsed = readToolLimits(
    (input) => inputs[input] ?? '',
    (input) => input,
    problems
  );
  expect(problems).toEqual([]);
  return parsed.bash!;
}

describe('continued lines are joined as bash joins them', () => {
  it.each([
    ['git st\\\natus', 'git status'],
    ['"$\\\n(x)"', '"$(x)"'],
    ['$\\\n\\\n{x}', '${x}'],
    ["'a\\\nb'", "'a\\\nb'"],
    ['a # c \\\nb', 'a # c \\\nb'],
    ['a\\\n# c', 'a# c'],
    ['a \\\n# c \\\nb', 'a # c \\\nb'],
    ['a \\\\\nb', 'a \\\\\nb'],
    ['"a\\\\\n$(b)"', '"a\\\\\n$(b)"'],
    ['"it\'s \\\n"', '"it\'s "']
  ])('%j reads as %j', (command, joined) => {
    expect(joinContinuedLines(command)).toBe(joined);
  });
});

describe('a backslash-newline inside an expansion, under a bash list (issue #33, finding 2)', () => {
  const hidden = [
    'git status --short "$\\\n(touch x)"',
    'git status --short "$\\\n{X:-$\\\n(touch x)}"',
    'git status --short "$\\\n((a[$\\\n(touch x)]))"'
  ];

  it.each(hidden)('is denied by an allow list: %j', (command) => {
    expect(judgeBashCommand(command, limits('git status', ''))).toMatchObject({
      allowed: false,
      rule: 'unreadable',
      head: 'git status'
    });
  });

  it.each(hidden)('is denied by a deny list: %j', (command) => {
    expect(judgeBashCommand(command, limits('', 'touch'))).toMatchObject({ allowed: false });
  });

  it('still lets a plain continued command through', () => {
    expect(judgeBashCommand('git status \\\n  --short', limits('git status', 'touch'))).toEqual({
      allowed: true
    });
  });
});
