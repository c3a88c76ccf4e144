import { createHash } from 'node:crypto';
import { MARKER_JOINER } from '../github/markdown/outbound-hidden-markers.js';

/**
 * Each review comment the action posts ends with a hidden fingerprint of what it says, so a later
 * run can tell exactly that it said this already: `<!-- compact-agent-finding:<16 hex> -->`, the
 * sha256 of the path and the normalised body. Only the comment's last line is read as its marker,
 * and that line is always the action's own (appended after the model's text), so text the model
 * wrote, even inside a suggestion block, cannot stand in for it; the model's prose is defused too.
 */
export const FINDING_MARKER_NAME = 'compact-agent-finding';

const LAST_LINE_MARKER = /(?:^|\n)<!-- compact-agent-finding:([0-9a-f]{16}) -->\s*$/;

/** The 16-hex fingerprint of a finding: what it says about which file, not where or how it is dressed. */
export function findingFingerprint(path: string, body: string): string {
  return createHash('sha256')
    .update(`${path}\n${normalizeText(body)}`)
    .digest('hex')
    .slice(0, 16);
}

export function fingerprintMarker(fingerprint: string): string {
  return `<!-- ${FINDING_MARKER_NAME}:${fingerprint} -->`;
}

/** The fingerprint a posted comment carries on its last line, if any. */
export function readFingerprint(commentBody: string): string | undefined {
  return LAST_LINE_MARKER.exec(commentBody)?.[1];
}

/** Case, spacing and the invisible joiners of defusing do not change what a text says. */
export function normalizeText(text: string): string {
  return text.normalize('NFKC').replaceAll(MARKER_JOINER, '').toLowerCase().replace(/\s+/g, ' ').trim();
}
