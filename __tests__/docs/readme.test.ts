import { readFileSync } from 'node:fs';
import { allHeadingsOf, anchorsOf, headingsOf, withContents } from '../../scripts/readme-contents.js';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const headings = headingsOf(readme);
const topLevel = headings.filter((heading) => heading.level === 2).map((heading) => heading.text);

function positionOf(prefix: string): number {
  const index = topLevel.findIndex((text) => text.startsWith(prefix));
  if (index < 0)
    throw new Error(`README.md has no "## ${prefix}…" section; sections: ${topLevel.join(' | ')}`);
  return index;
}

describe('anchors as GitHub makes them', () => {
  it('drops punctuation and code ticks, joins words with dashes, numbers repeats', () => {
    expect(
      anchorsOf([
        'Quick start: /agent in issues',
        "CI on the agent's pull requests (a GitHub App token)",
        'Inputs',
        'Inputs'
      ])
    ).toEqual([
      'quick-start-agent-in-issues',
      'ci-on-the-agents-pull-requests-a-github-app-token',
      'inputs',
      'inputs-1'
    ]);
  });

  it('ignores headings inside fenced code', () => {
    const found = headingsOf(['## Real', '```sh', '## not a heading', '```', '### Also real'].join('\n'));
    expect(found.map((heading) => heading.text)).toEqual(['Real', 'Also real']);
  });
});

describe('README.md', () => {
  it('has a table of contents that matches its headings (npm run docs:contents)', () => {
    expect(withContents(readme)).toBe(readme);
  });

  it('links only to headings that exist', () => {
    const anchors = new Set(allHeadingsOf(readme).map((heading) => heading.anchor));
    const targets = [...readme.matchAll(/\]\(#([^)]+)\)/g)].map((match) => match[1] ?? '');
    expect(targets.length).toBeGreaterThan(10);
    expect(targets.filter((target) => !anchors.has(target))).toEqual([]);
  });

  it('puts the quick start, cost and limits, security and troubleshooting before the reference', () => {
    const firstFour = [
      positionOf('Quick start'),
      positionOf('Cost and limits'),
      positionOf('Security'),
      positionOf('Troubleshooting')
    ];
    expect([...firstFour].sort((a, b) => a - b)).toEqual(firstFour);
    expect(Math.max(...firstFour)).toBeLessThan(positionOf('Reference'));
    expect(firstFour[0]).toBeLessThanOrEqual(1);
  });

  it('answers the questions a team asks in its first week, under Troubleshooting', () => {
    const start = readme.indexOf('\n## Troubleshooting');
    const section = readme.slice(start, readme.indexOf('\n## ', start + 5));
    const questions = [...section.matchAll(/^### (.+)$/gm)].map((match) => (match[1] ?? '').toLowerCase());
    for (const topic of ['no pull request', 'ci does not run', 'tests fail', 'did nothing', 'budget']) {
      expect(questions.some((question) => question.includes(topic))).toBe(true);
    }
  });
});
