/**
 * Known secrets written with something between their characters: split over two lines (the end of
 * one suggestion line and the start of the next, which a reader or a later edit joins again), or
 * interleaved with characters that render as nothing. Unicode's Default_Ignorable_Code_Point
 * property (UAX #44 and DerivedCoreProperties.txt, unicode.org, read 2026-11-28: U+00AD soft hyphen,
 * U+200B..U+200F, U+2060..U+206F, U+FEFF, variation selectors, tags U+E0000..U+E0FFF and more) names
 * the characters a renderer shows as nothing; an HTML comment (`<!-- -->`) in markdown does the same.
 *
 * Rather than list separators, a secret is looked for in the text's skeleton: its ASCII letters and
 * digits alone. Every separator above, any whitespace, quotes and `+` of a string concatenation
 * vanish from it, and so do the escapes that stand for them in a JSON line or a string literal
 * (`\n`, `\u200b`), so the secret's own letters and digits show up in a row. A real secret's
 * skeleton is long and random, so finding it across words in ordinary text is not a real risk; a
 * short one could be, so only skeletons of at least MIN_SKELETON characters are looked for.
 *
 * Speed: the redactor runs on every tool result. The skeleton is built in one pass over the text
 * (a few milliseconds a megabyte) and searched once per secret; only on a hit (rare) are the
 * positions worked out.
 */
export const MIN_SKELETON = 12;

export class SeparatedSecrets {
  /** Each secret's skeleton, longest first, so a skeleton inside another is replaced with it. */
  private readonly needles: readonly Buffer[];

  constructor(secrets: Iterable<string>) {
    const unique = new Set<string>();
    for (const secret of secrets) {
      const skeleton = skeletonBytes(secret).toString('latin1');
      if (skeleton.length >= MIN_SKELETON) unique.add(skeleton);
    }
    this.needles = [...unique].sort((a, b) => b.length - a.length).map((text) => Buffer.from(text, 'latin1'));
  }

  /** The text with every stretch that spells a known secret's letters and digits replaced whole. */
  hide(text: string, replacement: string): string {
    if (this.needles.length === 0) return text;
    const skeleton = skeletonBytes(text);
    if (!this.needles.some((needle) => skeleton.includes(needle))) return text;
    return replaceSpans(text, this.spans(skeleton, skeletonPositions(text)), replacement);
  }

  /** Where in the text each occurrence starts and ends (end exclusive), in order, merged when they overlap. */
  private spans(skeleton: Buffer, positions: Int32Array): [number, number][] {
    const found: [number, number][] = [];
    for (const needle of this.needles) {
      for (let at = skeleton.indexOf(needle); at !== -1; at = skeleton.indexOf(needle, at + needle.length)) {
        found.push([positions[at]!, positions[at + needle.length - 1]! + 1]);
      }
    }
    found.sort((a, b) => a[0] - b[0]);
    const merged: [number, number][] = [];
    for (const span of found) {
      const last = merged.at(-1);
      if (last !== undefined && span[0] < last[1]) last[1] = Math.max(last[1], span[1]);
      else merged.push(span);
    }
    return merged;
  }
}

function isKept(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

const BACKSLASH = 0x5c;
/** n r t b f: the letter of a one-letter escape (`\n`), which stands for a separator, not a letter. */
const ESCAPE_LETTERS = new Set([0x6e, 0x72, 0x74, 0x62, 0x66]);
const isHex = (code: number) =>
  (code >= 48 && code <= 57) || (code >= 65 && code <= 70) || (code >= 97 && code <= 102);

/**
 * How many characters the escape at `index` takes when it stands for a separator: `\n`, `\t`, `\r`,
 * `\b`, `\f` and `\uXXXX` (a newline or a zero-width character in a JSON line or a string literal).
 * Other backslashes are one separator character.
 */
function escapeLength(text: string, index: number): number {
  const next = text.charCodeAt(index + 1);
  if (ESCAPE_LETTERS.has(next)) return 2;
  if (next === 0x75 && [2, 3, 4, 5].every((offset) => isHex(text.charCodeAt(index + offset)))) return 6;
  return next === BACKSLASH ? 2 : 1;
}

/**
 * The text's ASCII letters and digits, one byte each, and, when `positions` is given, the index in
 * the text of each of them.
 */
function skeletonBytes(text: string, positions?: Int32Array): Buffer {
  const out = Buffer.allocUnsafe(text.length);
  let length = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (isKept(code)) {
      if (positions !== undefined) positions[length] = index;
      out[length++] = code;
    } else if (code === BACKSLASH) {
      index += escapeLength(text, index) - 1;
    }
  }
  return out.subarray(0, length);
}

/** For each byte of the skeleton, the index of its character in the text. */
function skeletonPositions(text: string): Int32Array {
  const positions = new Int32Array(text.length);
  return positions.subarray(0, skeletonBytes(text, positions).length);
}

function replaceSpans(text: string, spans: readonly [number, number][], replacement: string): string {
  let result = '';
  let from = 0;
  for (const [start, end] of spans) {
    result += text.slice(from, start) + replacement;
    from = end;
  }
  return result + text.slice(from);
}
