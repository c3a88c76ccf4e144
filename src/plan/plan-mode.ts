import type { RunMode } from '../agent/run-mode.js';

/** The longest plan the thread carries whole to `/agent go` (the carried state's summary bound is 6,000). */
export const PLAN_MAX_CHARS = 5_000;

/**
 * A plan run: read-only, and its final answer is the plan, in fixed sections so that a maintainer can
 * check it quickly and the approving run finds the steps, files and tests where it expects them.
 */
export const PLAN_MODE: RunMode = {
  name: 'plan',
  readOnly: true,
  tools: [],
  brief: [
    'This is a plan run. A maintainer asked for a plan before any change is made: study the code, run what helps',
    '(the tests, a build), then reply without tool calls with the plan in Markdown, in these sections:',
    '## Goal: one or two sentences.',
    '## Steps: numbered, each small enough to check on its own.',
    '## Files: each file to change or add, and why.',
    '## Risks: what could break, open questions, and the choices you made where the task left one open.',
    '## Tests: the commands to run, and the tests to add or change.',
    `Keep the plan under ${PLAN_MAX_CHARS.toLocaleString('en-US')} characters. It is posted on the thread; once a maintainer`,
    'approves it, the next run carries it out.'
  ].join('\n')
};
