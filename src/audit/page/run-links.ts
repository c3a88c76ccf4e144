import type { RunAudit } from '../run-audit.js';

export interface PageLink {
  readonly label: string;
  readonly href: string;
}

/**
 * The thread, the workflow run and the pull request, as run_start recorded them. A transcript is a
 * file anyone may have edited: only an http(s) address becomes a link (never `javascript:` or
 * `data:`), and the template escapes it like any text.
 */
export function pageLinksOf(audit: Pick<RunAudit, 'thread'>): PageLink[] {
  const links = audit.thread?.links ?? {};
  const candidates: Array<[string, string | undefined]> = [
    ['Thread', links.thread],
    ['Workflow run', links.run],
    ['Pull request', links.pull_request]
  ];
  return candidates.flatMap(([label, href]) =>
    href !== undefined && isWebAddress(href) ? [{ label, href }] : []
  );
}

function isWebAddress(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.href === text;
  } catch {
    return false;
  }
}
