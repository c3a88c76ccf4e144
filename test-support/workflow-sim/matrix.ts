/**
 * A job's matrix expanded into its combinations, in GitHub's order: the first variable varies
 * slowest; `include` adds to (or extends) combinations and `exclude` removes them
 * (docs.github.com/en/actions/writing-workflows/choosing-what-your-workflow-does/
 * running-variations-of-jobs-in-a-workflow, read 2026-11-28). At most 256 jobs; a matrix with no
 * combination is an error, as on GitHub.
 */
export type MatrixCombination = Record<string, unknown>;

export const MATRIX_JOB_LIMIT = 256;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function matches(combination: MatrixCombination, partial: Record<string, unknown>): boolean {
  return Object.entries(partial).every(
    ([key, value]) => JSON.stringify(combination[key]) === JSON.stringify(value)
  );
}

export function expandMatrix(matrix: unknown, job: string): MatrixCombination[] {
  if (!isRecord(matrix))
    throw new Error(`Job ${job}: the matrix is not an object (${JSON.stringify(matrix)}).`);
  const { include, exclude, ...vectors } = matrix;
  let combinations: MatrixCombination[] = [{}];
  for (const [name, values] of Object.entries(vectors)) {
    if (!Array.isArray(values) || values.length === 0)
      throw new Error(`Job ${job}: matrix vector '${name}' does not contain any values.`);
    combinations = combinations.flatMap((combination) =>
      values.map((value) => ({ ...combination, [name]: value }))
    );
  }
  if (Object.keys(vectors).length === 0) combinations = [];
  for (const partial of Array.isArray(exclude) ? exclude.filter(isRecord) : [])
    combinations = combinations.filter((combination) => !matches(combination, partial));
  for (const extra of Array.isArray(include) ? include.filter(isRecord) : []) {
    const extended = combinations.filter((combination) =>
      Object.keys(vectors).every((key) => !(key in extra) || matches(combination, { [key]: extra[key] }))
    );
    if (extended.length > 0 && Object.keys(vectors).length > 0)
      for (const c of extended) Object.assign(c, extra);
    else combinations.push({ ...extra });
  }
  if (combinations.length === 0) throw new Error(`Job ${job}: the matrix has no combination to run.`);
  if (combinations.length > MATRIX_JOB_LIMIT)
    throw new Error(
      `Job ${job}: a matrix makes at most ${MATRIX_JOB_LIMIT} jobs, this one ${combinations.length}.`
    );
  return combinations;
}
