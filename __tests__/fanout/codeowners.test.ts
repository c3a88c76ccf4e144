import { parseCodeowners, ownersOf } from '../../src/fanout/codeowners.js';
import { readCodeowners } from '../../src/fanout/codeowners-file.js';
import { FanoutInputError } from '../../src/fanout/fanout-error.js';
import { GitRepository } from '../../src/git/repository.js';
import { createTempRepo } from '../support/temp-repo.js';

/**
 * The rules of the example CODEOWNERS file on GitHub's "About code owners" page
 * (docs.github.com, read 2026-11-28), with its comments (one of them inline) shortened.
 */
const GITHUB_EXAMPLE = `# This is a comment.
# Each line is a file pattern followed by one or more owners.

# Default owners for everything in the repo.
*       @global-owner1 @global-owner2

# The last matching pattern takes the most precedence.
*.js    @js-owner #This is an inline comment.

*.go docs@example.com

*.txt @octo-org/octocats

/build/logs/ @doctocat

# Matches docs/getting-started.md but not docs/build-app/troubleshooting.md.
docs/*  docs@example.com

apps/ @octocat

/docs/ @doctocat

/scripts/ @doctocat @octocat

**/logs @octocat

/apps/ @octocat
/apps/github
`;

describe('CODEOWNERS as GitHub reads it', () => {
  const owners = parseCodeowners(GITHUB_EXAMPLE, '.github/CODEOWNERS');
  const of = (file: string, folder = false) => ownersOf(owners, file, folder);

  it("gives each path the last matching rule's owners, as the docs' example says", () => {
    expect(of('README.md')).toEqual(['@global-owner1', '@global-owner2']);
    // The inline comment is no owner.
    expect(of('src/index.js')).toEqual(['@js-owner']);
    expect(of('cmd/main.go')).toEqual(['docs@example.com']);
    expect(of('notes/todo.txt')).toEqual(['@octo-org/octocats']);
    // `**/logs` comes after `/build/logs/`, and wins.
    expect(of('build/logs/today.log')).toEqual(['@octocat']);
    expect(of('deeply/nested/logs/x.log')).toEqual(['@octocat']);
    expect(of('scripts/deploy.sh')).toEqual(['@doctocat', '@octocat']);
    // `apps/` owns an apps folder anywhere, and everything below it.
    expect(of('lib/apps/deep/thing.rb')).toEqual(['@octocat']);
  });

  it('leaves a path without owners when the last match names none (/apps/github)', () => {
    expect(of('apps/github/hub.rb')).toEqual([]);
    expect(of('apps/github', true)).toEqual([]);
    expect(of('apps/other/x.rb')).toEqual(['@octocat']);
  });

  it("matches docs/* against the folder's direct files only, while /docs/ owns everything below", () => {
    const only = parseCodeowners('docs/*  docs@example.com\n', 'CODEOWNERS');
    expect(ownersOf(only, 'docs/getting-started.md', false)).toEqual(['docs@example.com']);
    expect(ownersOf(only, 'docs/build-app/troubleshooting.md', false)).toEqual([]);
    expect(of('docs/build-app/troubleshooting.md')).toEqual(['@doctocat']);
  });

  it('anchors a pattern with a slash to the root, and matches one without at any depth', () => {
    const rules = parseCodeowners('/top @a\nany @b\nsrc/lib @c\n', 'CODEOWNERS');
    expect(ownersOf(rules, 'top/x.ts', false)).toEqual(['@a']);
    expect(ownersOf(rules, 'nested/top/x.ts', false)).toEqual([]);
    expect(ownersOf(rules, 'deep/any/x.ts', false)).toEqual(['@b']);
    expect(ownersOf(rules, 'src/lib/x.ts', false)).toEqual(['@c']);
    expect(ownersOf(rules, 'pkg/src/lib/x.ts', false)).toEqual([]);
  });

  it('keeps * and ? within a segment, ** across segments, and a trailing slash for folders', () => {
    const rules = parseCodeowners(
      'src/*.ts @one\nsrc/**/gen @two\nlib/** @three\nf?o @four\nout/ @five\n',
      'CODEOWNERS'
    );
    expect(ownersOf(rules, 'src/a.ts', false)).toEqual(['@one']);
    expect(ownersOf(rules, 'src/deep/a.ts', false)).toEqual([]);
    expect(ownersOf(rules, 'src/gen/x.ts', false)).toEqual(['@two']);
    expect(ownersOf(rules, 'src/a/b/gen/x.ts', false)).toEqual(['@two']);
    expect(ownersOf(rules, 'lib/a/b.ts', false)).toEqual(['@three']);
    expect(ownersOf(rules, 'lib', true)).toEqual([]);
    expect(ownersOf(rules, 'x/foo', false)).toEqual(['@four']);
    expect(ownersOf(rules, 'x/fooo', false)).toEqual([]);
    // A file named `out` is not the folder `out/`; the folder and its files are.
    expect(ownersOf(rules, 'out', false)).toEqual([]);
    expect(ownersOf(rules, 'out', true)).toEqual(['@five']);
    expect(ownersOf(rules, 'a/out/b.txt', false)).toEqual(['@five']);
  });

  it('is case sensitive about paths', () => {
    const rules = parseCodeowners('/Docs/ @a\n', 'CODEOWNERS');
    expect(ownersOf(rules, 'Docs/x.md', false)).toEqual(['@a']);
    expect(ownersOf(rules, 'docs/x.md', false)).toEqual([]);
  });

  it.each([
    ['!*.js @a', /negated with `!`/],
    ['\\#notes @a', /leading `#` cannot be escaped/],
    ['Python/ceval*.[ch] @a', /character ranges/],
    ['*.js owner-without-at', /is not an owner/]
  ])('refuses the line %s, which GitHub does not accept either', (line, reason) => {
    const parse = () => parseCodeowners(`* @a\n${line}\n`, '.github/CODEOWNERS');
    expect(parse).toThrow(FanoutInputError);
    expect(parse).toThrow(reason);
    expect(parse).toThrow(/\.github\/CODEOWNERS, line 2/);
  });
});

describe('readCodeowners', () => {
  it('reads the first of .github/CODEOWNERS, CODEOWNERS, docs/CODEOWNERS that the commit holds', async () => {
    const repo = createTempRepo();
    try {
      repo.write('docs/CODEOWNERS', '* @from-docs\n');
      repo.write('CODEOWNERS', '* @from-root\n');
      repo.write('x.ts', '');
      repo.git('add', '-A');
      repo.git('commit', '-qm', 'root and docs');
      const git = new GitRepository(repo.root);
      const rootFirst = await readCodeowners(git, await git.head());
      expect(rootFirst?.source).toBe('CODEOWNERS');
      expect(ownersOf(rootFirst!, 'x.ts', false)).toEqual(['@from-root']);

      repo.write('.github/CODEOWNERS', '* @from-github\n');
      // Not committed: the commit decides, not the working tree.
      expect((await readCodeowners(git, await git.head()))?.source).toBe('CODEOWNERS');
      repo.git('add', '-A');
      repo.git('commit', '-qm', 'github');
      const githubFirst = await readCodeowners(git, await git.head());
      expect(githubFirst?.source).toBe('.github/CODEOWNERS');
      expect(ownersOf(githubFirst!, 'x.ts', false)).toEqual(['@from-github']);
    } finally {
      repo.remove();
    }
  });

  it('answers undefined for a commit without one', async () => {
    const repo = createTempRepo();
    try {
      repo.write('x.ts', '');
      repo.git('add', '-A');
      repo.git('commit', '-qm', 'none');
      const git = new GitRepository(repo.root);
      expect(await readCodeowners(git, await git.head())).toBeUndefined();
    } finally {
      repo.remove();
    }
  });
});
