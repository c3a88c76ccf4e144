import { judgeBashCommand, readToolLimits, type BashLimits } from '../../../src/tools/limits/index.js';

/** Limits as the config reader builds them from the two inputs (one prefix per line). */
function limits(allowed: string[], disallowed: string[] = []): BashLimits {
  const problems: string[] = [];
  const read = (input: string) =>
    ({ allowed_bash_commands: allowed.join('\n'), disallowed_bash_commands: disallowed.join('\n') })[input] ??
    '';
  const parsed = readToolLimits(read, (input) => input, problems);
  expect(problems).toEqual([]);
  return parsed.bash!;
}

const ALLOW_TESTS = limits(['npm test', 'npm run lint']);

describe('an allow list: every simple command must start with an allowed prefix', () => {
  it.each([
    'npm test',
    'npm test -- --watch=false',
    'npm run lint',
    "npm 'test'",
    'npm te\\st',
    'npm test && npm run lint',
    'npm test; npm run lint',
    'npm test 2>&1',
    'npm test > /dev/null 2>&1',
    'npm test # ; curl evil',
    'npm test \\; curl evil',
    "npm test '$(curl evil)'",
    'npm test "$HOME"',
    // Arguments after the prefix are the model's: documented, not a boundary.
    'npm test --prefix /'
  ])('allows %j', (command) => {
    expect(judgeBashCommand(command, ALLOW_TESTS)).toEqual({ allowed: true });
  });

  it.each([
    ['npm test; curl evil', 'curl evil'],
    ['npm test;curl evil', 'curl evil'],
    ['npm test && rm -rf .', 'rm -rf'],
    ['npm test || curl evil', 'curl evil'],
    ['npm test | sh', 'sh'],
    ['npm test |& sh', 'sh'],
    ['npm test & curl evil', 'curl evil'],
    ['npm test\ncurl evil', 'curl evil'],
    ['env X=1 npm test', 'env X=1'],
    ['X=1 npm test', 'npm test'],
    ["bash -c 'npm test'", 'bash -c'],
    ['npm testing', 'npm testing'],
    ['npm', 'npm'],
    ['/usr/bin/npm test', '/usr/bin/npm test']
  ])('denies %j (the part %j is not allowed)', (command, head) => {
    const verdict = judgeBashCommand(command, ALLOW_TESTS);
    expect(verdict).toMatchObject({ allowed: false, rule: 'allowed_bash_commands', head });
  });

  it.each([
    ['npm test $(curl evil)', 'command substitution'],
    ['npm test "$(curl evil)"', 'command substitution'],
    ['npm test `curl evil`', 'backticks'],
    ['npm test "`curl evil`"', 'backticks'],
    ['npm test <(curl evil)', 'process substitution'],
    ['npm test $((1+1))', 'arithmetic'],
    ['npm test ${X@P}', 'parameter expansion'],
    ["npm test $'\\x3b'", 'ANSI-C'],
    ['(curl evil)', 'subshell'],
    ['npm test && (curl evil)', 'subshell'],
    ['{ curl evil; }', 'compound'],
    ['if npm test; then curl evil; fi', 'compound'],
    ['for x in 1; do curl evil; done', 'compound'],
    ['npm test > .github/workflows/x.yml', 'redirection'],
    ['npm test >> ~/.bashrc', 'redirection'],
    ['npm test < /etc/passwd', 'redirection'],
    ['cat <<EOF\ncurl\nEOF', 'here-document'],
    ["npm test 'unterminated", 'unterminated'],
    ['npm test \\', 'backslash']
  ])('refuses %j, which it cannot judge (%s)', (command, reason) => {
    const verdict = judgeBashCommand(command, ALLOW_TESTS);
    expect(verdict).toMatchObject({ allowed: false, rule: 'unreadable' });
    expect(verdict.allowed === false && verdict.message).toContain(reason);
  });

  it('tells the model what was denied, what is allowed and who sets it', () => {
    const verdict = judgeBashCommand('npm test && curl evil.sh', ALLOW_TESTS);
    expect(verdict.allowed).toBe(false);
    const message = verdict.allowed ? '' : verdict.message;
    expect(message).toContain('nothing was run');
    expect(message).toContain('`curl evil.sh`');
    expect(message).toContain('allowed_bash_commands');
    expect(message).toContain('`npm test`, `npm run lint`');
    expect(message).toContain('whoever started the run');
  });
});

describe('a deny list: deny wins, and it matches in doubt', () => {
  const DENY_PUSH = limits([], ['git push', 'curl']);

  it.each(['git status', 'git commit -m "push it"', 'npm test && git log', 'echo curl'])(
    'allows %j',
    (command) => {
      expect(judgeBashCommand(command, DENY_PUSH)).toEqual({ allowed: true });
    }
  );

  it.each([
    'git push',
    'git push origin main --force',
    'npm test && git push',
    'git "push"',
    "g'i't push",
    '/usr/bin/git push',
    'GIT_TRACE=1 git push',
    'env GIT_TRACE=1 git push',
    'sudo -u root git push',
    'timeout 5 curl evil',
    'nice -n 5 curl evil',
    'xargs curl < /dev/null',
    "bash -c 'npm test; curl evil'",
    "sh -ec 'git push'",
    'eval curl evil',
    'bash -c "bash -c \'curl evil\'"',
    'git $SUB',
    '$CMD evil',
    'cur? evil'
  ])('denies %j', (command) => {
    expect(judgeBashCommand(command, DENY_PUSH).allowed).toBe(false);
  });

  it('says which rule denied it', () => {
    expect(judgeBashCommand('npm test && git push origin', DENY_PUSH)).toMatchObject({
      allowed: false,
      rule: 'disallowed_bash_commands: git push',
      head: 'git push'
    });
  });

  it('wins over an allow list that covers the same command', () => {
    const both = limits(['git'], ['git push']);
    expect(judgeBashCommand('git status', both).allowed).toBe(true);
    expect(judgeBashCommand('git push', both)).toMatchObject({
      allowed: false,
      rule: 'disallowed_bash_commands: git push'
    });
  });
});
