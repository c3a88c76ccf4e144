import type { data } from '@actions/expressions';
import { truthy } from '@actions/expressions/result';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { evaluateExpression } from '../../test-support/workflow-sim/expressions.js';

/** A job of an example workflow, as far as the checks read it. */
export interface WorkflowJob {
  readonly if?: string;
  readonly concurrency?:
    string | { readonly group: string; readonly 'cancel-in-progress'?: string | boolean };
  readonly 'timeout-minutes'?: number;
}

export interface Workflow {
  readonly on: Record<string, unknown>;
  readonly concurrency?: unknown;
  readonly jobs: Record<string, WorkflowJob>;
}

export const EXAMPLES = path.resolve('examples/workflows');

export function readWorkflow(file: string): Workflow {
  return parse(readFileSync(path.join(EXAMPLES, file), 'utf8')) as Workflow;
}

/** The `github` context a run of `eventName` with this payload sees (the fields the examples read). */
export function githubContext(eventName: string, payload: Record<string, unknown>, runId = 1): unknown {
  const repository = (payload.repository as { full_name?: string } | undefined)?.full_name ?? 'octo/repo';
  return {
    event_name: eventName,
    event: payload,
    run_id: String(runId),
    repository,
    action: payload.action ?? ''
  };
}

/**
 * One expression evaluated by GitHub's own evaluator (@actions/expressions), with the `github` and
 * `inputs` contexts. `${{ }}` around it is dropped, as GitHub does for a job's `if:`.
 */
export function evaluate(expression: string, github: unknown, inputs: unknown = {}): data.ExpressionData {
  return evaluateExpression(expression, { github, inputs });
}

/**
 * A job's `if:` as GitHub judges it. The examples' jobs have no `needs`, so the implied `success()`
 * GitHub adds to an `if:` without a status function is true, and is left out here.
 */
export function jobRuns(job: WorkflowJob, github: unknown): boolean {
  return job.if === undefined ? true : truthy(evaluate(job.if, github));
}

/** A string with `${{ }}` parts (a concurrency group), each part evaluated and put in its place. */
export function interpolate(template: string, github: unknown, inputs: unknown = {}): string {
  return template.replace(/\$\{\{([\s\S]*?)\}\}/g, (_whole, inner: string) =>
    evaluate(inner, github, inputs).coerceString()
  );
}

/** The job's concurrency group for that event, or undefined when it has none. */
export function concurrencyGroup(job: WorkflowJob, github: unknown): string | undefined {
  if (job.concurrency === undefined) return undefined;
  const group = typeof job.concurrency === 'string' ? job.concurrency : job.concurrency.group;
  return interpolate(group, github);
}
