import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brokenLinks, linksOf, problemOf } from '../../scripts/docs-links.js';
import { allHeadingsOf } from '../../scripts/markdown-anchors.js';
import { createTempDir } from '../support/temp-repo.js';

describe('every link of README.md and docs/', () => {
  it('names a file that exists, and a heading that exists in it', () => {
    expect(brokenLinks()).toEqual([]);
  });
});

describe('the pages that messages and comments in src/ name', () => {
  it('exist, with the heading their anchor names', () => {
    const named = readdirSync('src', { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts'))
      .flatMap((file) => {
        const text = readFileSync(path.join('src', file), 'utf8');
        return [...text.matchAll(/\bdocs\/[\w./-]+\.md(?:#[\w-]+)?/g)].map((match) => `${file}: ${match[0]}`);
      });
    expect(named.length).toBeGreaterThan(5);
    const broken = named.filter((mention) => {
      const target = mention.slice(mention.indexOf(': ') + 2);
      return problemOf({ page: 'README.md', line: 0, target }, '.', anchorsOf) !== undefined;
    });
    expect(broken).toEqual([]);
  });
});

function anchorsOf(page: string): Set<string> {
  return new Set(allHeadingsOf(readFileSync(page, 'utf8')).map((heading) => heading.anchor));
}

describe('the link check', () => {
  const roots: string[] = [];
  afterAll(() => roots.forEach((root) => rmSync(root, { recursive: true, force: true })));

  function site(files: Record<string, string>): string {
    const root = createTempDir('docs-links-');
    roots.push(root);
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      writeFileSync(path.join(root, file), text);
    }
    return root;
  }

  it('finds a missing page, a missing anchor, a path out of the repository and a malformed URL', () => {
    const root = site({
      'README.md': [
        '# Front',
        '[ok](docs/a.md#part-one) [ok too](#front) [folder](docs) [gone](docs/missing.md)',
        '[no anchor](docs/a.md#part-two) [out](../elsewhere.md) [bad](https://) [ftp](ftp://example.com/x)',
        '`[in code](nowhere.md)`',
        '```md',
        '[in a fence](nowhere.md)',
        '```'
      ].join('\n'),
      'docs/a.md':
        '# A\n\n## Part one\n\n[back](../README.md#front) [self](#part-one) [web](https://example.com/x#y)\n'
    });
    expect(brokenLinks(root, ['README.md', 'docs/a.md'])).toEqual([
      'README.md:2: docs/missing.md: docs/missing.md does not exist',
      'README.md:3: docs/a.md#part-two: docs/a.md has no heading with the anchor #part-two',
      'README.md:3: ../elsewhere.md: ../elsewhere.md leads out of the repository',
      'README.md:3: https://: not a URL: https://',
      'README.md:3: ftp://example.com/x: a scheme other than http, https or mailto'
    ]);
  });

  it('reads inline links, images, link definitions and HTML links, with or without a title', () => {
    const text = [
      '![chart](docs/chart.png "the chart") [a](<docs/a b.md>)',
      '[ref]: docs/ref.md',
      '<img src="docs/i.png"> <a href="#top">top</a>'
    ].join('\n');
    expect(linksOf('README.md', text).map((link) => link.target)).toEqual([
      'docs/chart.png',
      'docs/a b.md',
      'docs/ref.md',
      'docs/i.png',
      '#top'
    ]);
  });
});
