/**
 * A plan as a maintainer approves it: what the report shows must be all the approving run is told.
 * Characters that render as nothing (format characters such as zero-width spaces, bidi controls and
 * Unicode tags, and the other default-ignorable code points, variation selectors among them, which
 * can carry a hidden message after any visible character) are written out as `[U+XXXX]`, and link
 * reference definitions (`[x]: …` renders as nothing) are escaped. The report and `/agent go` use this
 * same text; markup that GitHub renders partly hidden is handled by planForReport.
 */
export function visiblePlan(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(
      /[\p{Cf}\p{Default_Ignorable_Code_Point}]/gu,
      (char) => `[U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}]`
    )
    .replace(/^( {0,3})\[(?=[^\]\n]*\]:)/gm, '$1\\[');
}
