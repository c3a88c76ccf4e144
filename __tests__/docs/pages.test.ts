import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { docsPages } from '../../scripts/docs-files.js';
import { staleContents } from '../../scripts/docs-contents.js';
import { linksOf } from '../../scripts/docs-links.js';
import { allHeadingsOf, anchorsOf, headingsOf } from '../../scripts/markdown-anchors.js';

const readme = readFileSync('README.md', 'utf8');

describe('anchors as GitHub makes them', () => {
  it('drops punctuation and code ticks, joins words with dashes, numbers repeats', () => {
    expect(
      anchorsOf([
        'Quick start: /agent in issues',
        "CI on the agent's pull requests (a GitHub App token)",
        'Inputs',
        'Inputs',
        'max_turns'
      ])
    ).toEqual([
      'quick-start-agent-in-issues',
      'ci-on-the-agents-pull-requests-a-github-app-token',
      'inputs',
      'inputs-1',
      'max_turns'
    ]);
  });

  it('ignores headings inside fenced code', () => {
    const found = headingsOf(['## Real', '```sh', '## not a heading', '```', '### Also real'].join('\n'));
    expect(found.map((heading) => heading.text)).toEqual(['Real', 'Also real']);
  });
});

describe('README.md, the front page', () => {
  it('is at most 15 KB', () => {
    expect(Buffer.byteLength(readme)).toBeLessThanOrEqual(15 * 1024);
  });

  it('starts with the two commands that set everything up', () => {
    const firstBlock = /```sh\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
    expect(readme.indexOf('```sh')).toBeLessThan(readme.indexOf('\n## '));
    expect(firstBlock).toContain('npm ci && npm run demo');
    expect(firstBlock).toContain('npm test');
  });

  it('leads to every page under docs/, through its links and theirs', () => {
    const reached = new Set(['README.md']);
    const queue = ['README.md'];
    for (let page = queue.shift(); page !== undefined; page = queue.shift()) {
      for (const { target } of linksOf(page, readFileSync(page, 'utf8'))) {
        const file = path.posix.normalize(
          path.posix.join(path.posix.dirname(page), target.split('#')[0] ?? '')
        );
        if (file.endsWith('.md') && !reached.has(file)) {
          reached.add(file);
          queue.push(file);
        }
      }
    }
    expect(docsPages().filter((page) => !reached.has(page))).toEqual([]);
  });

  it('lists set-up, cost and limits, security and troubleshooting before the configuration reference', () => {
    const position = (page: string): number => {
      const index = readme.indexOf(`](docs/${page})`);
      if (index < 0) throw new Error(`README.md does not link docs/${page}`);
      return index;
    };
    const firstFour = ['setup.md', 'cost-and-limits.md', 'security.md', 'troubleshooting.md'].map(position);
    expect(Math.max(...firstFour)).toBeLessThan(position('configuration.md'));
  });
});

describe('the docs pages', () => {
  it('have tables of contents that match their headings (npm run docs:contents)', () => {
    expect(staleContents()).toEqual([]);
  });

  it('answer the questions a team asks in its first week, on Troubleshooting', () => {
    const questions = allHeadingsOf(readFileSync('docs/troubleshooting.md', 'utf8'))
      .filter((heading) => heading.level === 2)
      .map((heading) => heading.text.toLowerCase());
    for (const topic of ['no pull request', 'ci does not run', 'tests fail', 'did nothing', 'budget']) {
      expect(questions.some((question) => question.includes(topic))).toBe(true);
    }
  });

  it('name every folder of src/ on Architecture, with what it holds and what it imports', () => {
    const page = readFileSync('docs/architecture.md', 'utf8');
    const folders = readdirSync('src', { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => `${entry.name}/`);
    expect(folders.length).toBeGreaterThan(10);
    for (const section of ['## The folders of src/', '## What may import what']) {
      const start = page.indexOf(`\n${section}\n`);
      expect(start).toBeGreaterThan(0);
      const end = page.indexOf('\n## ', start + 3);
      const listed = page.slice(start, end < 0 ? undefined : end);
      expect(folders.filter((folder) => !listed.includes(`\n- \`${folder}\`: `))).toEqual([]);
    }
  });
});
