/**
 * A page's table of contents, made from its headings, between two markers. `npm run docs:contents`
 * writes it in every page of README.md and docs/ that holds the markers; `npm run docs:contents --
 * --check` (and a test) fail when one is stale, so a section added or renamed without the contents
 * shows up in CI instead of on GitHub.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { docsPages, REPOSITORY_ROOT } from './docs-files.js';
import { headingsOf, type Heading } from './markdown-anchors.js';

export const CONTENTS_START = '<!-- contents: made by `npm run docs:contents` -->';
export const CONTENTS_END = '<!-- /contents -->';

export function contentsBlock(headings: readonly Heading[]): string {
  const lines = headings.map(
    (heading) => `${'  '.repeat(heading.level - 2)}- [${heading.text}](#${heading.anchor})`
  );
  return [CONTENTS_START, '', ...lines, '', CONTENTS_END].join('\n');
}

/** Whether the page asks for a contents block. */
export function hasContents(markdown: string): boolean {
  return markdown.includes(CONTENTS_START);
}

/** The page with its contents block made anew; throws when the end marker is missing. */
export function withContents(markdown: string): string {
  const start = markdown.indexOf(CONTENTS_START);
  const end = markdown.indexOf(CONTENTS_END);
  if (start < 0 || end < start) {
    throw new Error(
      `The page has no contents markers: put the lines "${CONTENTS_START}" and "${CONTENTS_END}" where the table of contents goes.`
    );
  }
  const after = markdown.slice(end + CONTENTS_END.length);
  const headings = headingsOf(markdown.slice(0, start) + after);
  return markdown.slice(0, start) + contentsBlock(headings) + after;
}

/** The pages (repository paths) whose contents block is stale. */
export function staleContents(root: string = REPOSITORY_ROOT, write = false): string[] {
  const stale: string[] = [];
  for (const page of docsPages(root)) {
    const file = path.join(root, page);
    const current = readFileSync(file, 'utf8');
    if (!hasContents(current)) continue;
    const fresh = withContents(current);
    if (fresh === current) continue;
    stale.push(page);
    if (write) writeFileSync(file, fresh);
  }
  return stale;
}

function main(argv: readonly string[]): number {
  const check = argv.includes('--check');
  const stale = staleContents(REPOSITORY_ROOT, !check);
  if (check && stale.length > 0) {
    console.error(
      `The table of contents is stale in ${stale.join(', ')}. Run \`npm run docs:contents\` and commit the pages.`
    );
    return 1;
  }
  return 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  process.exitCode = main(process.argv.slice(2));
}
