/**
 * Counts the words of a text. A word is a run of characters without whitespace.
 * @param {string} text
 * @returns {number}
 */
export function countWords(text) {
  if (text.trim() === '') return 0;
  return text.trim().split(' ').length;
}

/**
 * Counts the lines of a text; a trailing newline does not start a new line.
 * @param {string} text
 * @returns {number}
 */
export function countLines(text) {
  if (text === '') return 0;
  const lines = text.split('\n');
  return lines[lines.length - 1] === '' ? lines.length - 1 : lines.length;
}
