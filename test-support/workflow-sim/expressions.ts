/**
 * GitHub Actions expressions as the runner evaluates them, with GitHub's own evaluator
 * (@actions/expressions): contexts, the status functions of a job's `if:`, and `${{ }}` parts in
 * strings. Facts (docs.github.com/en/actions/reference/workflows-and-actions/expressions, read
 * 2026-11-28): an `if:` may be written with or without `${{ }}`; one that calls no status function
 * is checked as `success() && (<if>)`; `${{ }}` inside a string is replaced by the value as a string.
 */
import { Evaluator, Lexer, Parser, data } from '@actions/expressions';
import type { FunctionDefinition } from '@actions/expressions/funcs/info';
import { truthy } from '@actions/expressions/result';

/** The contexts an expression may read (github, inputs, needs, matrix, secrets, steps, ...). */
export type Contexts = Readonly<Record<string, unknown>>;

/** What the status functions of a job's `if:` answer: from the results of the jobs it needs. */
export interface JobStatus {
  /** Every needed job succeeded (none failed, was cancelled or skipped). */
  readonly success: boolean;
  /** A needed job failed. */
  readonly failure: boolean;
  /** The run was cancelled. */
  readonly cancelled: boolean;
}

const CONTEXT_NAMES = [
  'github',
  'inputs',
  'needs',
  'matrix',
  'secrets',
  'steps',
  'strategy',
  'env',
  'vars',
  'job',
  'runner'
];
const STATUS_FUNCTIONS = /\b(?:success|failure|cancelled|always)\s*\(/i;

function statusFunctions(status: JobStatus): Map<string, FunctionDefinition> {
  const fn = (name: string, value: boolean): [string, FunctionDefinition] => [
    name,
    { name, minArgs: 0, maxArgs: 0, call: () => new data.BooleanData(value) }
  ];
  return new Map([
    fn('always', true),
    fn('success', status.success && !status.cancelled),
    fn('failure', status.failure && !status.cancelled),
    fn('cancelled', status.cancelled)
  ]);
}

/** `${{ x }}` around a whole expression dropped; anything else as it is. */
function unwrap(expression: string): string {
  return /^\s*\$\{\{([\s\S]*)\}\}\s*$/.exec(expression)?.[1] ?? expression;
}

export function toData(value: unknown): data.ExpressionData {
  return JSON.parse(JSON.stringify(value ?? null), data.reviver) as data.ExpressionData;
}

/** An expression's value as plain JSON (objects, arrays, strings, numbers, booleans, null). */
export function toJson(value: data.ExpressionData): unknown {
  return JSON.parse(JSON.stringify(value, data.replacer)) as unknown;
}

/** One expression (with or without `${{ }}`), evaluated against `contexts`. */
export function evaluateExpression(
  expression: string,
  contexts: Contexts,
  status: JobStatus = { success: true, failure: false, cancelled: false }
): data.ExpressionData {
  const functions = statusFunctions(status);
  const tokens = new Lexer(unwrap(expression)).lex().tokens;
  const tree = new Parser(tokens, CONTEXT_NAMES, [...functions.values()]).parse();
  const context = new data.Dictionary(
    ...Object.entries(contexts).map(([key, value]) => ({ key, value: toData(value) }))
  );
  return new Evaluator(tree, context, functions).evaluate();
}

/** A job's `if:` as GitHub judges it (no `if:` = `success()`). */
export function conditionHolds(
  condition: string | boolean | undefined,
  contexts: Contexts,
  status: JobStatus
): boolean {
  if (condition === undefined) return status.success && !status.cancelled;
  const text = String(condition);
  const implied = STATUS_FUNCTIONS.test(text) ? text : `success() && (${unwrap(text)})`;
  return truthy(evaluateExpression(implied, contexts, status));
}

/** A string with `${{ }}` parts, each replaced by its value as a string (a `with:` value, a group). */
export function interpolate(template: string, contexts: Contexts): string {
  return template.replace(/\$\{\{([\s\S]*?)\}\}/g, (_whole, inner: string) =>
    evaluateExpression(inner, contexts).coerceString()
  );
}

/**
 * A value of the workflow file: a string that is one whole `${{ }}` becomes the expression's value
 * (how `matrix: ${{ fromJSON(...) }}` becomes an object); other strings are interpolated; objects
 * and arrays are walked.
 */
export function evaluateValue(value: unknown, contexts: Contexts): unknown {
  if (typeof value === 'string') {
    if (/^\s*\$\{\{[\s\S]*\}\}\s*$/.test(value) && value.indexOf('${{') === value.lastIndexOf('${{'))
      return toJson(evaluateExpression(value, contexts));
    return interpolate(value, contexts);
  }
  if (Array.isArray(value)) return value.map((item) => evaluateValue(item, contexts));
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, evaluateValue(item, contexts)])
    );
  return value;
}
