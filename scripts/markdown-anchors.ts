/**
 * The headings of a Markdown file and the anchors GitHub gives them, for the docs' contents blocks
 * (scripts/docs-contents.ts) and the link check (scripts/docs-links.ts).
 */

export interface Heading {
  readonly level: number;
  readonly text: string;
  readonly anchor: string;
}

/**
 * GitHub's anchor for a heading: lower case, punctuation other than `-` and `_` dropped, each space
 * a `-`; a repeated anchor gets `-1`, `-2`, … The rule of GitHub's renderer as html-pipeline's
 * TableOfContentsFilter applies it (gjtorikian/html-pipeline, lib/html/pipeline/toc_filter.rb:
 * `downcase`, `gsub(/[^\p{Word}\- ]/u, '')`, `gsub(' ', '-')`, then `-N` for repeats), and as GitHub's
 * "Basic writing and formatting syntax" page shows it under "Section links" (docs.github.com, read
 * 2026-11-28).
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

/** Each line of the file, with whether it lies inside fenced code (the fence lines count as inside). */
export function linesOutsideCode(markdown: string): { readonly line: string; readonly inCode: boolean }[] {
  let fence: string | undefined;
  return markdown.split('\n').map((line) => {
    const fenceMark = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fenceMark && (!fence || (fenceMark[0] === fence[0] && fenceMark.length >= fence.length))) {
      fence = fence ? undefined : fenceMark;
      return { line, inCode: true };
    }
    return { line, inCode: fence !== undefined };
  });
}

/** Every heading outside fenced code, in order, with its anchor. */
export function allHeadingsOf(markdown: string): Heading[] {
  const found: { level: number; text: string }[] = [];
  for (const { line, inCode } of linesOutsideCode(markdown)) {
    if (inCode) continue;
    const [, hashes, text] = /^(#{1,6}) +(.+?) *#* *$/.exec(line) ?? [];
    if (hashes && text) found.push({ level: hashes.length, text: plainHeading(text) });
  }
  const anchors = anchorsOf(found.map((heading) => heading.text));
  return found.map((heading, index) => ({ ...heading, anchor: anchors[index] ?? '' }));
}

/** The `##` and `###` headings: what a contents block lists. */
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
