import type { MovedGitEntry } from '../../git/nested-repositories.js';
import { codeSpan } from '../markdown/outbound-neutralize.js';

/** The paths shown in the report; the job's log names them all. */
const MAX_PATHS = 20;

/**
 * The report's account of the `.git` folders and files the agent's commands made in the workspace,
 * which were moved out of it: git would have run their settings (a core.fsmonitor program, hooks)
 * on the runner, outside the box, at the job's end. Paths are the agent's: shown as code.
 */
export function renderMovedGitSection(moved: readonly MovedGitEntry[] | undefined): string {
  if (!moved || moved.length === 0) return '';
  const shown = moved.slice(0, MAX_PATHS).map((entry) => codeSpan(entry.path));
  const more = moved.length - shown.length;
  return (
    `### Git repositories made during the run\n\n⚠️ The agent's commands made ${moved.length === 1 ? 'this git folder or file' : 'these git folders or files'} ` +
    `in the workspace: ${shown.join(', ')}${more > 0 ? `, and ${more} more` : ''}. ` +
    'Git runs the settings of a repository it finds there (a `core.fsmonitor` program, hooks) in later steps, outside the ' +
    "sandbox, so the action moved them out of the workspace (to the runner's temporary folder)."
  );
}
