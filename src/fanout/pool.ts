/**
 * Runs `work` over `items` with at most `parallel` at a time, in order of start, and returns the
 * results in the items' order. A rejection of one item does not stop the others; it is rethrown
 * after all have settled (callers turn expected failures into results themselves).
 */
export async function mapWithLimit<T, R>(
  items: readonly T[],
  parallel: number,
  work: (item: T, index: number) => Promise<R>
): Promise<R[]> {
  const results = new Array<R>(items.length);
  const failures: unknown[] = [];
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      try {
        results[index] = await work(items[index]!, index);
      } catch (error) {
        failures.push(error);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallel, items.length) }, worker));
  if (failures.length > 0) throw failures[0];
  return results;
}
