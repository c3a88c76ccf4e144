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
  private spans(skeleton: Buffer, positions: SkeletonPositions): [number, number][] {
    const found: [number, number][] = [];
    for (const needle of this.needles) {
      for (let at = skeleton.indexOf(needle); at !== -1; at = skeleton.indexOf(needle, at + needle.length)) {
        found.push([positions.starts[at]!, positions.ends[at + needle.length - 1]!]);
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

const AMPERSAND = 0x26;
/** `&#8203;`, `&#x200B;`, `&ZeroWidthSpace;`: an HTML character reference (GitHub renders it). */
const CHARACTER_REFERENCE = /&(?:#(\d{1,7})|#[xX]([0-9A-Fa-f]{1,6})|[A-Za-z][A-Za-z0-9]{1,31});/y;

/**
 * The character reference at `index`, as Markdown renders it: its length, and the letter or digit it
 * stands for (a secret spelled `&#103;&#104;…` renders as the letters), or undefined for anything
 * else (a zero-width space, a named reference), which is a separator like the character itself.
 */
function characterReference(
  text: string,
  index: number
): { length: number; kept: number | undefined } | undefined {
  CHARACTER_REFERENCE.lastIndex = index;
  const match = CHARACTER_REFERENCE.exec(text);
  if (match === null) return undefined;
  const code =
    match[1] !== undefined
      ? Number(match[1])
      : match[2] !== undefined
        ? Number.parseInt(match[2], 16)
        : undefined;
  return { length: match[0].length, kept: code !== undefined && isKept(code) ? code : undefined };
}

/** Where each skeleton byte comes from in the text: its first character, and the one after its last. */
interface SkeletonPositions {
  readonly starts: Int32Array;
  readonly ends: Int32Array;
}

/**
 * The text's ASCII letters and digits, one byte each, and, when `positions` is given, where in the
 * text each of them is written (one character, or a character reference).
 */
function skeletonBytes(text: string, positions?: SkeletonPositions): Buffer {
  const out = Buffer.allocUnsafe(text.length);
  let length = 0;
  const keep = (code: number, start: number, end: number) => {
    if (positions !== undefined) {
      positions.starts[length] = start;
      positions.ends[length] = end;
    }
    out[length++] = code;
  };
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (isKept(code)) {
      keep(code, index, index + 1);
    } else if (code === BACKSLASH) {
      index += escapeLength(text, index) - 1;
    } else if (code === AMPERSAND) {
      const reference = characterReference(text, index);
      if (reference === undefined) continue;
      if (reference.kept !== undefined) keep(reference.kept, index, index + reference.length);
      index += reference.length - 1;
    }
  }
  return out.subarray(0, length);
}

/** For each byte of the skeleton, where its character is in the text. */
function skeletonPositions(text: string): SkeletonPositions {
  const positions = { starts: new Int32Array(text.length), ends: new Int32Array(text.length) };
  const length = skeletonBytes(text, positions).length;
  return { starts: positions.starts.subarray(0, length), ends: positions.ends.subarray(0, length) };
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
