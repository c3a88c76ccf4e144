import type { Tool } from '../tools/tool.js';

/** The tools a read-only run does not offer: it changes no file, so there is nothing to publish. */
export const WRITING_TOOLS: readonly string[] = ['write_file', 'edit_file'];

/**
 * What kind of run the session is: a fix changes the repository; a plan or a review reads it, runs
 * commands (tests, builds) and answers, and the action publishes nothing. The mode is fixed for the
 * whole run, so its rules sit in the system prompt and its tools in the tool list, both in the
 * cached prefix.
 */
export interface RunMode {
  readonly name: 'fix' | 'plan' | 'review';
  /** write_file and edit_file are not offered (a call by name gets a clear refusal). */
  readonly readOnly: boolean;
  /** The mode's own rules, after the general ones in the system prompt. */
  readonly brief: string | undefined;
  /** The mode's own tools (a review's record_finding), after the built-in ones. */
  readonly tools: readonly Tool[];
}

export const FIX_MODE: RunMode = { name: 'fix', readOnly: false, brief: undefined, tools: [] };

/** Why a writing tool is refused in a read-only run, for the model (it can act on it) and the report. */
export function readOnlyRefusal(mode: RunMode['name']): string {
  return (
    `Denied: this is a read-only ${mode} run. Files are not changed and nothing is pushed; ` +
    (mode === 'plan'
      ? 'describe the changes in your plan instead.'
      : 'record what should change with record_finding (a suggestion can hold the replacement lines).')
  );
}
