/**
 * Every link of README.md and docs/: a relative link names a file or folder of the repository, and its
 * `#anchor`, if any, a heading of the Markdown page it names (anchors as GitHub makes them, see
 * markdown-anchors.ts). An external link is only checked for its form: no test reaches the network.
 * `npx tsx scripts/docs-links.ts` prints the broken ones.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { docsPages, REPOSITORY_ROOT } from './docs-files.js';
import { allHeadingsOf, linesOutsideCode } from './markdown-anchors.js';

export interface Link {
  readonly page: string;
  readonly line: number;
  readonly target: string;
}

/** The link targets of a page, outside fenced code and inline code: inline links, images, definitions. */
export function linksOf(page: string, markdown: string): Link[] {
  const links: Link[] = [];
  linesOutsideCode(markdown).forEach(({ line, inCode }, index) => {
    if (inCode) return;
    const prose = line.replace(/(`+)(?:(?!\1)[\s\S])*?\1/g, '');
    const found = [
      ...[...prose.matchAll(/\]\(\s*(?:<([^>]*)>|([^)\s]*))(?:\s+"[^"]*")?\s*\)/g)].map(
        (match) => match[1] ?? match[2]
      ),
      ...[...prose.matchAll(/^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/g)].map((match) => match[1]),
      ...[...prose.matchAll(/\b(?:href|src)="([^"]*)"/g)].map((match) => match[1])
    ];
    for (const target of found) links.push({ page, line: index + 1, target: target ?? '' });
  });
  return links;
}

/** Why a link is broken, or undefined when it is sound. */
export function problemOf(
  link: Link,
  root: string,
  anchorsOfPage: (page: string) => Set<string>
): string | undefined {
  const { target } = link;
  if (target === '') return 'an empty link';
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) {
    if (/^mailto:[^@\s]+@[^@\s]+$/.test(target)) return undefined;
    if (!/^https?:\/\//.test(target)) return 'a scheme other than http, https or mailto';
    try {
      const url = new URL(target);
      return url.hostname.includes('.') ? undefined : `no host with a domain in ${target}`;
    } catch {
      return `not a URL: ${target}`;
    }
  }
  const [rawPath = '', anchor] = target.split('#', 2);
  const filePath = decodeURIComponent(rawPath);
  const resolved = filePath
    ? path.posix.normalize(
        filePath.startsWith('/')
          ? filePath.slice(1)
          : path.posix.join(path.posix.dirname(link.page), filePath)
      )
    : link.page;
  if (resolved.startsWith('..')) return `${filePath} leads out of the repository`;
  if (!existsSync(path.join(root, resolved))) return `${resolved} does not exist`;
  if (anchor === undefined) return undefined;
  if (!resolved.endsWith('.md') || statSync(path.join(root, resolved)).isDirectory()) {
    return `#${anchor} on ${resolved}, which is not a Markdown page`;
  }
  return anchorsOfPage(resolved).has(anchor)
    ? undefined
    : `${resolved} has no heading with the anchor #${anchor}`;
}

/** Every broken link of the pages, as `page:line: target: why`. */
export function brokenLinks(
  root: string = REPOSITORY_ROOT,
  pages: readonly string[] = docsPages(root)
): string[] {
  const anchorCache = new Map<string, Set<string>>();
  const anchorsOfPage = (page: string): Set<string> => {
    let anchors = anchorCache.get(page);
    if (!anchors) {
      anchors = new Set(allHeadingsOf(readFileSync(path.join(root, page), 'utf8')).map((h) => h.anchor));
      anchorCache.set(page, anchors);
    }
    return anchors;
  };
  return pages.flatMap((page) =>
    linksOf(page, readFileSync(path.join(root, page), 'utf8')).flatMap((link) => {
      const problem = problemOf(link, root, anchorsOfPage);
      return problem ? [`${link.page}:${link.line}: ${link.target}: ${problem}`] : [];
    })
  );
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const broken = brokenLinks();
  for (const line of broken) console.error(line);
  process.exitCode = broken.length > 0 ? 1 : 0;
}
