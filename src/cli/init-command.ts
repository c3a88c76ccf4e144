import { lstatSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CliCommand, CliIo } from './command.js';
import { CliError, EXIT, usageError } from './exit-codes.js';
import { checkRepoFolder } from './repo-check.js';

/** The example workflows `init` can write, by the name given to --workflows (examples/workflows/<name>.yml). */
export const INIT_WORKFLOWS = ['agent', 'review', 'scheduled-refactor'] as const;
type WorkflowName = (typeof INIT_WORKFLOWS)[number];
const DEFAULT_WORKFLOWS: readonly WorkflowName[] = ['agent'];

export interface InitOptions {
  readonly repo: string;
  /** Comma-separated names from INIT_WORKFLOWS; undefined for the default (agent). */
  readonly workflows: string | undefined;
  readonly force: boolean;
  /** The folder holding workflows/ and compact-agent.yml (the package's examples/). */
  readonly examples?: string;
}

/** One file init manages: where it goes in the repository, and what it should hold. */
interface PlannedFile {
  readonly relative: string;
  readonly content: string;
}

type Outcome = 'written' | 'unchanged' | 'kept' | 'overwritten';

/**
 * The examples ship beside dist/ (package.json "files"), two folders up from this module both in
 * the source tree (src/cli/) and in the bundle (dist/cli/). The path is built at run time so that
 * the bundler does not copy the folder into dist/.
 */
function packagedExamples(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  return path.join(here, '..', '..', 'examples');
}

/**
 * `compact-agent init`: writes the chosen example workflows and a starter config into a repository,
 * then prints what only a person can do (the secret, the App token, the org setting). A file that is
 * already there is never overwritten without --force: a second run with nothing changed writes
 * nothing and says so.
 */
export async function initCommand(
  options: InitOptions,
  io: Pick<CliIo, 'stdout' | 'stderr'>
): Promise<number> {
  const names = parseWorkflowNames(options.workflows);
  const repo = await checkRepoFolder(options.repo, false);
  const examples = options.examples ?? packagedExamples();
  const planned: PlannedFile[] = [
    ...names.map((name) => ({
      relative: `.github/workflows/${name}.yml`,
      content: readExample(examples, path.join('workflows', `${name}.yml`))
    })),
    { relative: '.github/compact-agent.yml', content: readExample(examples, 'compact-agent.yml') }
  ];
  // Every destination is checked before anything is written: a refusal leaves the repository as it was.
  for (const file of planned) checkDestination(repo, file.relative);
  const outcomes = planned.map((file) => ({ file, outcome: place(repo, file, options.force) }));
  for (const { file, outcome } of outcomes) io.stdout(`${OUTCOME_WORDS[outcome]} ${file.relative}`);
  const kept = outcomes.filter(({ outcome }) => outcome === 'kept');
  if (kept.length > 0) {
    io.stdout(
      `\n${kept.length} file${kept.length === 1 ? '' : 's'} already there and different ${kept.length === 1 ? 'was' : 'were'} left as ${kept.length === 1 ? 'it was' : 'they were'}: ` +
        'compare them with the examples, or run again with --force to overwrite them.'
    );
  }
  if (outcomes.every(({ outcome }) => outcome === 'unchanged')) {
    io.stdout('\nNothing to do: every file is already as init writes it.');
  }
  io.stdout(`\n${CHECKLIST}`);
  return EXIT.success;
}

const OUTCOME_WORDS: Record<Outcome, string> = {
  written: 'wrote      ',
  overwritten: 'overwrote  ',
  unchanged: 'unchanged  ',
  kept: 'kept       '
};

const CHECKLIST = `What init cannot do for you:
  1. Add the model's key as a repository secret named ANTHROPIC_API_KEY:
     gh secret set ANTHROPIC_API_KEY   (or Settings > Secrets and variables > Actions)
     For Amazon Bedrock or Google Vertex AI instead, see docs/setup.md.
  2. So that CI runs on the agent's pull requests, give it a GitHub App token: a push made with the
     workflow's GITHUB_TOKEN starts no workflow (docs/setup.md, "CI on the agent's pull requests").
  3. In the repository's (or organization's) Settings > Actions > General > Workflow permissions, tick
     "Allow GitHub Actions to create and approve pull requests", or the agent's branch gets no pull request.
  4. Review the files, commit them and push them to the default branch: the config is read from there,
     never from a pull request's head. Then comment /agent <task> on an issue.`;

function parseWorkflowNames(raw: string | undefined): WorkflowName[] {
  if (raw === undefined) return [...DEFAULT_WORKFLOWS];
  const names = raw
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  if (names.length === 0) {
    throw usageError(
      `--workflows is empty. Give one or more of ${INIT_WORKFLOWS.join(', ')}, e.g. --workflows agent,review.`
    );
  }
  const unknown = names.filter((name) => !(INIT_WORKFLOWS as readonly string[]).includes(name));
  if (unknown.length > 0) {
    throw usageError(
      `--workflows: ${unknown.map((name) => `"${name}"`).join(', ')} ${unknown.length === 1 ? 'is' : 'are'} not an example workflow. ` +
        `Choose from ${INIT_WORKFLOWS.join(', ')}, e.g. --workflows agent,review.`
    );
  }
  return [...new Set(names as WorkflowName[])];
}

function readExample(examples: string, relative: string): string {
  try {
    return readFileSync(path.join(examples, relative), 'utf8');
  } catch (error) {
    throw new CliError(
      `The example ${relative} is not in ${examples} (${(error as NodeJS.ErrnoException).code ?? 'unreadable'}): ` +
        'this copy of compact-agent is incomplete. Reinstall it (npm install -g compact-agent).',
      EXIT.internal
    );
  }
}

/**
 * Each folder from the repository down to the file must be a real folder (or not exist yet), and the
 * file a regular file (or not exist): a committed link would send the write outside the repository.
 */
function checkDestination(repo: string, relative: string): void {
  let current = repo;
  const parts = relative.split('/');
  for (const [index, part] of parts.entries()) {
    current = path.join(current, part);
    let info;
    try {
      info = lstatSync(current);
    } catch {
      return; // not there yet: made as a real folder or file
    }
    const shown = parts.slice(0, index + 1).join('/');
    const last = index === parts.length - 1;
    if (info.isSymbolicLink()) {
      throw usageError(
        `${shown} in the repository is a symbolic link: init writes only inside the repository and never through a link. ` +
          `Replace the link with a real ${last ? 'file' : 'folder'} (or remove it) and run init again; nothing was written.`
      );
    }
    if (last ? !info.isFile() : !info.isDirectory()) {
      throw usageError(
        `${shown} in the repository is not a ${last ? 'regular file' : 'folder'}. Move it aside and run init again; nothing was written.`
      );
    }
  }
}

function place(repo: string, file: PlannedFile, force: boolean): Outcome {
  const target = path.join(repo, file.relative);
  let existing: string | undefined;
  try {
    existing = readFileSync(target, 'utf8');
  } catch {
    existing = undefined;
  }
  if (existing === file.content) return 'unchanged';
  if (existing !== undefined && !force) return 'kept';
  mkdirSync(path.dirname(target), { recursive: true });
  if (existing === undefined) {
    // O_EXCL: a file (or link) that appeared since the check is not written through.
    writeFileSync(target, file.content, { flag: 'wx', mode: 0o644 });
    return 'written';
  }
  // A new file renamed over the old one replaces it, and never writes through a link.
  const temporary = `${target}.compact-agent-init-${process.pid}`;
  writeFileSync(temporary, file.content, { flag: 'wx', mode: 0o644 });
  renameSync(temporary, target);
  return 'overwritten';
}

const INIT_HELP = `Usage: compact-agent init [--repo DIR] [--workflows NAMES] [--force]

Sets compact-agent up in a repository: writes the example workflows you pick under
.github/workflows/ and a starter config, .github/compact-agent.yml, then prints what only you can
do (the secret, the App token for CI, the organization setting). A file already there is left as it
is unless --force is given; a second run with nothing changed writes nothing.

Flags:
  --repo DIR         the repository's top folder (default: the current folder)
  --workflows NAMES  comma-separated, from ${INIT_WORKFLOWS.join(', ')} (default: agent)
  --force            overwrite files that are already there and differ
  -h, --help         show this help

Examples:
  compact-agent init
  compact-agent init --workflows agent,review
  compact-agent init --repo ../service --workflows scheduled-refactor --force

Exit codes: 0 done (files kept without --force are listed), 2 bad use (not a git repository, an
unknown workflow name, a link where a file goes), 4 this copy of compact-agent is incomplete.`;

export const INIT_COMMAND: CliCommand = {
  name: 'init',
  summary: 'write the example workflows and a starter config into a repository',
  help: INIT_HELP,
  stringFlags: ['repo', 'workflows'],
  booleanFlags: ['force'],
  maxPositionals: 0,
  execute: (invocation, io) =>
    initCommand(
      {
        repo: invocation.values.get('repo') ?? '.',
        workflows: invocation.values.get('workflows'),
        force: invocation.switches.has('force')
      },
      io
    )
};
