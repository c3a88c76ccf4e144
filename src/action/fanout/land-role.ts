import * as core from '@actions/core';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { FANOUT_ROLLUP_ARTIFACT } from '../../artifacts/fanout-artifacts.js';
import { readPlan, readShardResults } from '../../artifacts/fanout-contents.js';
import type { FanoutSettings } from '../../config/fanout-inputs.js';
import { errorMessage } from '../../errors/error-message.js';
import { FanoutInputError } from '../../fanout/fanout-error.js';
import { publishLandingOnGitHub, type PublishedLanding } from '../../fanout/github-landing.js';
import { boxedValidation } from '../../fanout/boxed-validation.js';
import { landAndRollUp } from '../../fanout/land-and-roll-up.js';
import { formatRollup, type Rollup } from '../../fanout/rollup.js';
import { gitHubClients, type GitHubClients } from '../../github/api/clients.js';
import { botIdentity } from '../../github/events/bot-author.js';
import { ownWorkflowOrigin } from '../../followup/workflow-origin.js';
import { rollupMarkdown } from '../../fanout/rollup-markdown.js';
import { writeRollup } from '../../fanout/rollup-target.js';
import { WritePacer } from '../../github/api/paced-writes.js';
import { inlineText } from '../../github/markdown/outbound-neutralize.js';
import { GitRepository } from '../../git/repository.js';
import { guardRepository } from '../../git/repository-guard.js';
import { repositoryOf } from '../event-parts.js';
import { publishOutputs } from '../outputs.js';
import { runUrl } from '../runner-env.js';
import type { FanoutJob } from './fanout-job.js';

/**
 * The land job (`if: always()`), the only writer of a fan-out. It reads the plan and every shard
 * result of this run (and the finished ones a resume carried forward), checks each (scope, budget,
 * cost against its transcripts), lands the finished ones on the checked-out base with the engine's
 * landShards (a patch that no longer applies, or overlaps another's, is a conflict left for a
 * resume), pushes the deterministic branches and opens or updates one pull request per branch, all
 * through one write pacer, then writes the roll-up.
 */
export async function runLandRole(job: FanoutJob, settings: FanoutSettings): Promise<void> {
  const { action } = job;
  const plan = await readPlan(job.artifacts, job.origin, job.scratch);
  if (plan === undefined)
    throw new FanoutInputError(
      "This run has no fan-out plan (the artifact compact-agent-fanout-plan): the land job must run after the plan job's " +
        "success (needs: [plan, shard] and if: always() && needs.plan.result == 'success')."
    );
  const { manifest } = plan;
  const settingsGitHub = action.config.github;
  const { results, problems, spent } = await readShardResults(job.artifacts, manifest, job.scratch);
  // A carried shard was finished by an earlier run and is not in this run's matrix: its result stands.
  for (const [shardId, result] of plan.carried) {
    results.set(shardId, result);
    problems.delete(shardId);
  }
  for (const [shardId, problem] of problems) core.warning(`${shardId}'s result is not trusted: ${problem}.`);
  const spentUsd = [...plan.ledger, ...spent].reduce((sum, line) => sum + line.costUsd, 0);
  const workspace = new GitRepository(action.runner.workspace);
  // The push credential leaves git's config (kept in memory for the push) before anything runs
  // near the checkout: the landing applies patches an agent wrote, and the re-scan runs their code.
  const guard = await guardRepository(workspace, settingsGitHub.token);
  const base = await workspace.head();
  const { landing, rollup, rescanSkipped } = await landAndRollUp({
    repo: workspace,
    base,
    manifest,
    results,
    problems,
    policy: settings.land,
    identity: { name: settingsGitHub.botName, email: settingsGitHub.botEmail },
    stateDir: runUrl(action.runner),
    spentUsd,
    env: action.env,
    // The burndown re-scan runs the unit command on the landed code: in the box whatever the
    // sandbox mode (no box: no re-scan), never on the host of the job that holds the write
    // credential (security review E, finding 3; review G, finding 1).
    runner: boxedValidation(action.config.agent, action.env, (line) => core.info(action.redact(line)), {
      requireBox: true
    }),
    signal: new AbortController().signal
  });
  if (rescanSkipped !== undefined)
    core.warning(`The burndown's ${rescanSkipped.summary}: ${rescanSkipped.detail}`);
  const writer = landWriter(job);
  const published = await publish(job, writer, guard.git, landing, manifest);
  const unfinished = rollup.rows.filter((row) => !['landed', 'empty'].includes(row.status));
  const rendered = rollupMarkdown({
    rollup,
    published,
    // A shard's transcripts are in its artifact, listed on the run's page.
    transcriptUrls: new Map(
      [...results.keys()].map((shardId) => [shardId, `${runUrl(action.runner)}#artifacts`])
    ),
    runUrl: runUrl(action.runner),
    ...(unfinished.length > 0
      ? { resumeHint: `dispatch the workflow with \`resume_run: ${action.runner.runId}\` (fanout_resume)` }
      : {})
  });
  // Why the burndown has no count, under the roll-up (its "unknown" alone would read as a failure).
  const rescanNote = rescanSkipped === undefined ? '' : `\n\nBurndown: ${rescanSkipped.summary}.\n`;
  const markdown = { full: `${rendered.full}${rescanNote}`, body: `${rendered.body}${rescanNote}` };
  await uploadRollup(job, rollup, published, markdown.full);
  const written = await writeRollup(
    {
      posts: writer.clients.markedPosts(),
      planId: manifest.planId,
      runId: Number(action.runner.runId),
      bot: botIdentity(settingsGitHub.botName, settingsGitHub.botEmail),
      origin: ownWorkflowOrigin(writer.clients.workflowRunReads(), {
        workflowRef: action.env.GITHUB_WORKFLOW_REF,
        repositoryFullName: job.origin.repository
      }),
      ...(settingsGitHub.reportIssue !== undefined ? { reportIssue: settingsGitHub.reportIssue } : {}),
      issueTitle: `Fan-out ${manifest.planId}: ${promptHeadline(manifest.prompt, 80)}`,
      warn: (message) => action.commands.warning(message)
    },
    markdown.body
  );
  core.info(`The roll-up: ${written.url}${written.created ? '' : ' (edited)'}.`);
  await core.summary
    .addRaw(`${markdown.body}\n`)
    .write()
    .catch(() => undefined);
  publishOutputs({
    conclusion: unfinished.length === 0 ? 'success' : 'failure',
    ...(unfinished.length > 0
      ? {
          noChangeReason: `${unfinished.length} shard(s) not landed: ${unfinished.map((row) => `${row.shardId} ${row.status}`).join(', ')}`
        }
      : {})
  });
  core.info(formatRollup(rollup));
  if (unfinished.length > 0)
    core.setFailed(
      `${unfinished.length} of ${rollup.rows.length} shard(s) are not landed (${unfinished
        .map((row) => `${row.shardId}: ${row.status}`)
        .join(
          ', '
        )}). The others are landed. To run only these, on the current base, with what is left of the cap, ` +
        `dispatch this workflow again with its input resume_run: ${action.runner.runId} (the example ` +
        `workflow passes it to the action's input fanout_resume; a workflow of your own: set ` +
        `fanout_resume: ${action.runner.runId} on the plan job's step).`
    );
}

/** The land job's GitHub clients, every write of theirs (and every push) through one pacer. */
function landWriter(job: FanoutJob): { clients: GitHubClients; pacer: WritePacer } {
  const { action } = job;
  const pacer = new WritePacer({ logger: { warning: action.commands.warning } });
  const clients = gitHubClients({
    token: action.config.github.token,
    repository: repositoryOf(action.event, action.runner),
    apiUrl: action.runner.apiUrl,
    options: { logger: { warning: action.commands.warning }, writePacer: pacer }
  });
  return { clients, pacer };
}

/** Pushes the branches and opens or updates their pull requests. */
async function publish(
  job: FanoutJob,
  writer: { clients: GitHubClients; pacer: WritePacer },
  /** The checkout whose push carries the job's credential, kept out of git's config (guardRepository). */
  git: GitRepository,
  landing: Awaited<ReturnType<typeof landAndRollUp>>['landing'],
  manifest: Parameters<typeof publishLandingOnGitHub>[0]['manifest']
): Promise<PublishedLanding> {
  const { action } = job;
  const settings = action.config.github;
  const repository = repositoryOf(action.event, action.runner);
  const defaultBranch = repository.defaultBranch ?? 'main';
  return publishLandingOnGitHub({
    landing,
    manifest,
    git,
    pulls: writer.clients.headPullRequests(),
    pacer: writer.pacer,
    baseBranch: settings.baseBranch ?? refBranch(action.env) ?? defaultBranch,
    defaultBranch,
    identity: { name: settings.botName, email: settings.botEmail },
    title: `fan-out: ${promptHeadline(manifest.prompt, 60)}`,
    runUrl: runUrl(action.runner),
    draft: settings.pullRequestType === 'draft'
  });
}

/**
 * The prompt's first line for a title: the prompt is anyone's text (a dispatch input), so it is
 * defused like other outside text (no mention, closing keyword or tag in an issue or pull title).
 */
function promptHeadline(prompt: string, maxChars: number): string {
  return inlineText(prompt.split('\n')[0]!.slice(0, maxChars));
}

/** The branch the job checked out, for a run started on a branch (GITHUB_REF `refs/heads/<name>`). */
function refBranch(env: NodeJS.ProcessEnv): string | undefined {
  const ref = env.GITHUB_REF ?? '';
  return ref.startsWith('refs/heads/') ? ref.slice('refs/heads/'.length) : undefined;
}

/** The full roll-up as JSON (a resume reads which shards conflicted from it), Markdown and text. */
async function uploadRollup(
  job: FanoutJob,
  rollup: Rollup,
  published: PublishedLanding,
  markdown: string
): Promise<void> {
  const dir = await mkdtemp(path.join(job.scratch, 'rollup-'));
  try {
    const pullRequests = Object.fromEntries(
      [...published.byShard].map(([shardId, branch]) => [
        shardId,
        { branch: branch.branch, state: branch.state, url: branch.url ?? null }
      ])
    );
    await writeFile(
      path.join(dir, 'rollup.json'),
      `${JSON.stringify({ ...rollup, pullRequests }, null, 2)}\n`
    );
    await writeFile(path.join(dir, 'rollup.txt'), formatRollup(rollup));
    await writeFile(path.join(dir, 'rollup.md'), markdown);
    await job.artifacts.upload(FANOUT_ROLLUP_ARTIFACT, dir);
  } catch (error) {
    core.warning(`The roll-up artifact could not be uploaded: ${errorMessage(error)}`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
