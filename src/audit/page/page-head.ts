import { createHash } from 'node:crypto';
import { escapeHtml } from './html-text.js';

/**
 * The start of a self-contained page up to its body: the Content-Security-Policy (its directives
 * given; nothing else loads), no referrer, an empty icon (no request for /favicon.ico), the title and
 * the inline stylesheet. The audit page and the ledger page both begin so.
 */
export function renderPageHead(title: string, style: string, csp: readonly string[]): string[] {
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${csp.join('; ')}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="referrer" content="no-referrer">',
    '<link rel="icon" href="data:,">',
    `<title>${escapeHtml(title)}</title>`,
    `<style>${style}</style>`,
    '</head>'
  ];
}

/** A CSP source that allows exactly this inline text. */
export function cspHash(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}
