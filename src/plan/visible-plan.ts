/**
 * A plan as a maintainer approves it: what the report shows must be all the approving run is told.
 * Markdown can hide text that the model would still read: invisible format characters (zero-width
 * spaces, bidi controls, Unicode tag characters) and link reference definitions (`[x]: …` renders as
 * nothing). Both are made visible here, and the report and `/agent go` use this same text.
 */
export function visiblePlan(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/\p{Cf}/gu, (char) => `[U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}]`)
    .replace(/^( {0,3})\[(?=[^\]\n]*\]:)/gm, '$1\\[');
}
