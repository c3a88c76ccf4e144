/**
 * Where a GitHub run or repository lives, as the CLI is given it: the host of its web pages, the REST
 * API that serves it, and the token to read it with. github.com's API is https://api.github.com;
 * GitHub Enterprise Server's is `https://HOST/api/v3` (GitHub Docs, "Getting started with the REST
 * API", and Enterprise Server's "REST API" pages, read 2026-11-28). GITHUB_SERVER_URL and
 * GITHUB_API_URL (the names the Actions runner sets) choose another host, and point the tests at
 * the fake GitHub.
 */
import { execFileSync } from 'node:child_process';

/** A run URL, repository name or GitHub host that cannot be used: the message says why and what to give. */
export class GitHubTargetError extends Error {
  override readonly name = 'GitHubTargetError';
}

export interface GitHubEndpoint {
  /** The host of the web pages (github.com, or the Enterprise Server's). */
  readonly webHost: string;
  readonly apiUrl: string;
}

export interface RepositoryName {
  readonly owner: string;
  readonly name: string;
}

export interface RunLocation extends RepositoryName {
  readonly runId: number;
  /** The run's page, as given without its attempt or job. */
  readonly url: string;
}

const ENTERPRISE_HINT =
  'For GitHub Enterprise Server, set GITHUB_SERVER_URL (https://HOST) and GITHUB_API_URL (https://HOST/api/v3).';

/** The web host and REST API from GITHUB_SERVER_URL / GITHUB_API_URL, by default github.com's. */
export function githubEndpoint(env: NodeJS.ProcessEnv): GitHubEndpoint {
  const server = env.GITHUB_SERVER_URL?.trim() || 'https://github.com';
  if (!URL.canParse(server))
    throw new GitHubTargetError(`GITHUB_SERVER_URL "${server}" is not a URL. ${ENTERPRISE_HINT}`);
  const webHost = new URL(server).host.toLowerCase();
  const api =
    env.GITHUB_API_URL?.trim() ||
    (webHost === 'github.com' ? 'https://api.github.com' : `${server.replace(/\/+$/, '')}/api/v3`);
  if (!URL.canParse(api))
    throw new GitHubTargetError(`GITHUB_API_URL "${api}" is not a URL. ${ENTERPRISE_HINT}`);
  return { webHost, apiUrl: api.replace(/\/+$/, '') };
}

/** Whether the CLI was given a web address rather than a path. */
export function looksLikeUrl(text: string): boolean {
  return /^https?:\/\//i.test(text.trim());
}

const NAME = /^[A-Za-z0-9_.-]{1,100}$/;
const RUN_PATH = /^\/([^/]+)\/([^/]+)\/actions\/runs\/(\d{1,20})(?:\/(?:attempts\/\d+|job\/\d+))?\/?$/;

/** `https://github.com/OWNER/REPO/actions/runs/ID` (an attempt's or a job's page too), on the endpoint's host. */
export function parseRunUrl(text: string, endpoint: GitHubEndpoint): RunLocation {
  const example = `https://${endpoint.webHost}/OWNER/REPO/actions/runs/123456789`;
  if (!URL.canParse(text.trim()))
    throw new GitHubTargetError(`"${text}" is not a run URL. Give a run's page, e.g. ${example}.`);
  const url = new URL(text.trim());
  if (url.host.toLowerCase() !== endpoint.webHost) {
    throw new GitHubTargetError(
      `${url.host} is not ${endpoint.webHost}: compact-agent reads runs from the GitHub host it is set up for. ` +
        ENTERPRISE_HINT
    );
  }
  const match = RUN_PATH.exec(url.pathname);
  const [, owner, name, id] = match ?? [];
  if (!owner || !name || !id || !NAME.test(owner) || !NAME.test(name)) {
    throw new GitHubTargetError(
      `${text} is not the page of a workflow run. Open the run in GitHub's Actions tab and copy its address, e.g. ${example}.`
    );
  }
  const runId = Number(id);
  return { owner, name, runId, url: `${url.protocol}//${url.host}/${owner}/${name}/actions/runs/${runId}` };
}

/** `OWNER/REPO`, as --repo takes it. */
export function parseRepositoryName(text: string): RepositoryName {
  const [owner, name, ...rest] = text.trim().split('/');
  if (!owner || !name || rest.length > 0 || !NAME.test(owner) || !NAME.test(name))
    throw new GitHubTargetError(`--repo "${text}" is not OWNER/REPO, e.g. --repo octo-org/octo-repo.`);
  return { owner, name };
}

/**
 * The token to read GitHub with: GITHUB_TOKEN, then GH_TOKEN (the GitHub CLI's name), then what
 * `gh auth token` prints when the GitHub CLI is installed and logged in to that host.
 */
export function githubToken(env: NodeJS.ProcessEnv, endpoint: GitHubEndpoint): string {
  const given = env.GITHUB_TOKEN?.trim() || env.GH_TOKEN?.trim();
  if (given) return given;
  const fromGh = ghAuthToken(env, endpoint.webHost);
  if (fromGh) return fromGh;
  throw new GitHubTargetError(
    'No GitHub token: set GITHUB_TOKEN (or GH_TOKEN) to a token that can read the repository and its ' +
      'Actions (a fine-grained token with "Actions: read" and "Issues: read", or a classic token with repo), ' +
      'or log in with the GitHub CLI (gh auth login).'
  );
}

function ghAuthToken(env: NodeJS.ProcessEnv, host: string): string | undefined {
  try {
    const out = execFileSync('gh', ['auth', 'token', '--hostname', host], {
      env,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 10_000
    });
    return out.trim() || undefined;
  } catch {
    // No gh, or not logged in to that host: the caller says what to set instead.
    return undefined;
  }
}
