import type { InputReader } from './inputs.js';

/** Where GitHub keeps a repository's workflow files; a run's `path` and GITHUB_WORKFLOW_REF name them there. */
const WORKFLOWS_FOLDER = '.github/workflows/';

/**
 * The config file's `thread.workflows`: the workflow files whose runs share a thread's states,
 * claims and spend (e.g. agent.yml and fix-ci.yml: a CI fix counts against the thread budget its
 * pull request's runs used). Each is a file name in .github/workflows/ (`agent.yml`) or its path
 * (`.github/workflows/agent.yml`); the answer is paths, as a run's `path` has them. The running
 * workflow's own file always counts, named or not (workflow-origin.ts).
 */
export function readThreadWorkflows(read: InputReader, problems: string[]): readonly string[] {
  const files: string[] = [];
  for (const raw of read('thread_workflows').split(/[\s,]+/)) {
    if (raw === '') continue;
    const name = raw.startsWith(WORKFLOWS_FOLDER) ? raw.slice(WORKFLOWS_FOLDER.length) : raw;
    if (!/^[A-Za-z0-9._-]+\.ya?ml$/.test(name) || name.startsWith('.')) {
      problems.push(
        `thread.workflows names workflow files in .github/workflows/ (e.g. agent.yml), got "${raw}". ` +
          'Write each file name as it is in .github/workflows/, e.g. workflows: [agent.yml, fix-ci.yml].'
      );
      continue;
    }
    const file = `${WORKFLOWS_FOLDER}${name}`;
    if (!files.includes(file)) files.push(file);
  }
  return files;
}
