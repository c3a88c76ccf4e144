/**
 * A finding or comment cut to a few lines' worth for a list: whitespace runs become one space, and
 * the cut falls between code points (never inside a surrogate pair), marked with `…`.
 */
export function excerpt(text: string, maxCharacters: number): string {
  const characters = [...text.replace(/\s+/g, ' ').trim()];
  return characters.length <= maxCharacters
    ? characters.join('')
    : `${characters.slice(0, maxCharacters - 1).join('')}…`;
}
