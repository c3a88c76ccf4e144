/**
 * The `limit` most frequent words, lower-cased, most frequent first; ties keep first appearance.
 * @param {string} text
 * @param {number} limit
 * @returns {Array<[string, number]>}
 */
export function topWords(text, limit) {
  const counts = new Map();
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}']+/gu) ?? []) {
    counts.set(word, (counts.get(word) ?? 0) + 1);
  }
  return [...counts.entries()].sort((a, b) => b[1] - a[1]).slice(0, limit);
}
