/**
 * The README's table of contents, made from its headings, between two markers. `npm run docs:contents`
 * writes it; `npm run docs:contents -- --check` (and a test) fail when it is stale, so a section added
 * or renamed without the contents shows up in CI instead of on GitHub.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const CONTENTS_START = '<!-- contents: made by `npm run docs:contents` -->';
export const CONTENTS_END = '<!-- /contents -->';

export interface Heading {
  readonly level: number;
  readonly text: string;
  readonly anchor: string;
}

/**
 * GitHub's anchor for a heading: lower case, punctuation other than `-` and `_` dropped, each space
 * a `-`; a repeated anchor gets `-1`, `-2`, … (the rule of GitHub's Markdown renderer, as its
 * html-pipeline TableOfContentsFilter applies it).
 */
export function anchorsOf(texts: readonly string[]): string[] {
  const seen = new Map<string, number>();
  return texts.map((text) => {
    const base = text
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\p{M}\p{Pc}\- ]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    return count === 0 ? base : `${base}-${count}`;
  });
}

/** Every heading outside fenced code, in order, with its anchor. */
export function allHeadingsOf(markdown: string): Heading[] {
  const found: { level: number; text: string }[] = [];
  let fence: string | undefined;
  for (const line of markdown.split('\n')) {
    const fenceMark = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fenceMark && (!fence || (fenceMark[0] === fence[0] && fenceMark.length >= fence.length))) {
      fence = fence ? undefined : fenceMark;
      continue;
    }
    if (fence) continue;
    const [, hashes, text] = /^(#{1,6}) +(.+?) *#* *$/.exec(line) ?? [];
    if (hashes && text) found.push({ level: hashes.length, text: plainHeading(text) });
  }
  const anchors = anchorsOf(found.map((heading) => heading.text));
  return found.map((heading, index) => ({ ...heading, anchor: anchors[index] ?? '' }));
}

/** The `##` and `###` headings: what the contents list. */
export function headingsOf(markdown: string): Heading[] {
  return allHeadingsOf(markdown).filter((heading) => heading.level >= 2 && heading.level <= 3);
}

/** What GitHub anchors: the heading's text without inline code ticks, emphasis or link targets. */
function plainHeading(text: string): string {
  return text
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/`/g, '')
    .replace(/\*\*|__/g, '');
}

export function contentsBlock(headings: readonly Heading[]): string {
  const lines = headings.map(
    (heading) => `${'  '.repeat(heading.level - 2)}- [${heading.text}](#${heading.anchor})`
  );
  return [CONTENTS_START, '', ...lines, '', CONTENTS_END].join('\n');
}

/** The README with its contents block made anew; throws when the markers are missing. */
export function withContents(markdown: string): string {
  const start = markdown.indexOf(CONTENTS_START);
  const end = markdown.indexOf(CONTENTS_END);
  if (start < 0 || end < start) {
    throw new Error(
      `README.md has no contents markers: put the lines "${CONTENTS_START}" and "${CONTENTS_END}" where the table of contents goes.`
    );
  }
  const after = markdown.slice(end + CONTENTS_END.length);
  const headings = headingsOf(markdown.slice(0, start) + after);
  return markdown.slice(0, start) + contentsBlock(headings) + after;
}

function main(argv: readonly string[]): number {
  const path = fileURLToPath(new URL('../README.md', import.meta.url));
  const current = readFileSync(path, 'utf8');
  const fresh = withContents(current);
  if (argv.includes('--check')) {
    if (fresh === current) return 0;
    console.error(
      'README.md: the table of contents is stale. Run `npm run docs:contents` and commit README.md.'
    );
    return 1;
  }
  if (fresh !== current) writeFileSync(path, fresh);
  return 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  process.exitCode = main(process.argv.slice(2));
}
