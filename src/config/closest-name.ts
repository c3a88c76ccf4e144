/**
 * The known input nearest `given` in edit distance, with `-` and `_` counted alike (`max-turns`
 * is `max_turns` misspelled); none when even the nearest differs in more than a third of it.
 */
export function closestInput(given: string, known: readonly string[]): string | undefined {
  const wanted = given.replace(/-/g, '_');
  let best: { name: string; distance: number } | undefined;
  for (const name of known) {
    const distance = editDistance(wanted, name);
    if (best === undefined || distance < best.distance) best = { name, distance };
  }
  const allowed = Math.max(2, Math.floor(wanted.length / 3));
  return best !== undefined && best.distance <= allowed ? best.name : undefined;
}

/** Levenshtein distance: insertions, deletions and substitutions, one each. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min(previous[j]! + 1, current[j - 1]! + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length]!;
}
