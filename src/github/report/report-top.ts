import type { CommandOutcome } from '../../compaction/work-ledger.js';
import { codeSpan, inlineText } from '../markdown/outbound-neutralize.js';

/**
 * The setting GitHub names for "may a workflow's token open a pull request", word for word as GitHub
 * shows it: Settings → Actions → General → Workflow permissions, on the repository and on its
 * organization (an organization's "off" greys out the repository's box). Source: GitHub Docs,
 * "Managing GitHub Actions settings for a repository", section "Preventing GitHub Actions from
 * creating or approving pull requests"
 * (https://docs.github.com/en/repositories/managing-your-repositorys-settings-and-features/enabling-features-for-your-repository/managing-github-actions-settings-for-a-repository),
 * and the changelog that extended it to creating pull requests
 * (https://github.blog/changelog/2022-05-03-github-actions-prevent-github-actions-from-creating-and-approving-pull-requests),
 * both read 2026-11-26.
 */
export const CREATE_PULL_REQUESTS_SETTING = 'Allow GitHub Actions to create and approve pull requests';

/** A GitHub login: letters, digits and single hyphens, at most 39 characters (no bots, no teams). */
const LOGIN = /^[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}$/;
/** The request's line in the report: long enough to recognise it, short enough to stay one line. */
const MAX_REQUEST_CHARS = 200;
/** Test runs listed before the rest are counted. */
const MAX_TEST_RUNS = 3;

/**
 * Who asked and what, for the report's first lines. The requester is mentioned once, here, so GitHub
 * notifies them; every other `@` in the report is defused (inlineText). A login that is not a plain
 * user's (a bot, or a malformed one) is named as code: no mention.
 */
/** `@login` for a plain user's login, which GitHub turns into a notification; undefined for a bot or a malformed one. */
export function mentionOf(login: string): string | undefined {
  return LOGIN.test(login) ? `@${login}` : undefined;
}

export function renderRequest(requester: string | undefined, request: string | undefined): string {
  const who = requester === undefined ? '' : (mentionOf(requester) ?? codeSpan(requester));
  const line = request === undefined ? '' : oneLine(request);
  if (who === '' && line === '') return '';
  if (line === '') return `Asked by ${who}.`;
  return who === '' ? `📝 Task: ${line}` : `📝 ${who} asked: ${line}`;
}

/** The first line of the request with text, cut to one readable line, neutralized. */
function oneLine(request: string): string {
  const lines = request.split(/\r\n?|\n/).filter((line) => line.trim() !== '');
  const first = lines[0]?.trim() ?? '';
  if (first === '') return '';
  const cut = first.length > MAX_REQUEST_CHARS ? `${first.slice(0, MAX_REQUEST_CHARS - 1)}…` : first;
  return inlineText(lines.length > 1 && cut === first ? `${cut} …` : cut);
}

/**
 * Where the work can be seen: the pull request, or, when GitHub refused to open it, a compare link
 * from which anyone with write access opens it by hand, and the setting that usually refused it.
 */
export function renderWhere(where: {
  readonly branch: string;
  readonly pullRequestUrl: string | undefined;
  readonly pullRequestError: string | undefined;
  readonly compareUrl: string | undefined;
}): string {
  if (where.pullRequestUrl) return `🔀 Pull request: ${where.pullRequestUrl}`;
  // A push to a pull request's own branch, or pull_request_type `branch`: no pull request to open.
  if (where.pullRequestError === undefined) return `🌿 Pushed to ${codeSpan(where.branch)}.`;
  return [
    `⚠️ No pull request: ${inlineText(where.pullRequestError).replace(/\.$/, '')}.`,
    where.compareUrl ? `Open it from the pushed branch: [compare and create](${where.compareUrl}).` : '',
    `If GitHub says Actions may not create pull requests, an admin turns on **${CREATE_PULL_REQUESTS_SETTING}** ` +
      '(Settings → Actions → General → Workflow permissions, on the repository, and on its organization when that one ' +
      'greys it out), or the workflow passes a GitHub App token as `github_token`.'
  ]
    .filter((part) => part !== '')
    .join(' ');
}

/**
 * GitHub's compare page of the pushed branch against its base, where "Create pull request" is. Each
 * branch name keeps its slashes; anything that could end a Markdown link or a URL is escaped.
 */
export function compareUrl(repositoryUrl: string, base: string, branch: string): string {
  const part = (name: string) =>
    encodeURIComponent(name)
      .replace(/%2F/gi, '/')
      .replace(/[()'!*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${repositoryUrl}/compare/${part(base)}...${part(branch)}`;
}

/**
 * The commands that looked like test runs (the work ledger's pattern: `npm test`, `pytest`, `go test`,
 * …) and their exit codes, the last one first: whether the tests passed when the agent stopped.
 */
export function renderTests(runs: readonly CommandOutcome[]): string {
  if (runs.length === 0) return '🧪 Tests: the agent ran no command that looked like a test run.';
  const last = runs.at(-1)!;
  const earlier = runs.slice(-MAX_TEST_RUNS, -1).reverse();
  const more = runs.length - 1 - earlier.length;
  return [
    `🧪 Tests: the last test run, ${codeSpan(last.command)} (turn ${last.turn}), ${verdict(last.exit, last.command)}.`,
    earlier.length > 0
      ? `Before it: ${earlier.map((run) => `${codeSpan(run.command)} ${verdict(run.exit, run.command)}`).join('; ')}${
          more > 0 ? `; and ${more} earlier` : ''
        }.`
      : ''
  ]
    .filter((part) => part !== '')
    .join(' ');
}

/** A `|` or `||` outside quotes, roughly: enough not to call such a run "passed". */
const PIPED = /^(?:[^'"|]|'[^']*'|"[^"]*")*\|/;

function verdict(exit: string, command: string): string {
  // `npm test | tail` exits with tail's status, `npm test || true` with true's: a 0 says nothing about the tests.
  if (exit === '0' && PIPED.test(command))
    return '❔ exit 0, but from a `|` or `||` after the tests, not from them';
  if (exit === '0') return '✅ passed (exit 0)';
  if (exit === 'timeout') return '⏱️ timed out';
  return `❌ failed (exit ${exit})`;
}
