import path from 'node:path';
import type { ConfigEntry } from './config-snapshot.js';
import type { GitRepository } from './repository.js';

export interface TakenCredentials {
  /** The `http.<url>.extraheader` entries, held in this process only, for the push. */
  readonly entries: readonly ConfigEntry[];
  /** Files they were taken out of. */
  readonly files: readonly string[];
}

/**
 * actions/checkout leaves the token where any process can read it: as `http.<url>.extraheader` in
 * .git/config (v4, v5), or in a file under RUNNER_TEMP that .git/config includes (v6 and later).
 * Both are taken out before the agent runs and never written back: a file the agent could reach
 * (hard-linked, swapped for a symlink) would receive the token. The push gets the entries through
 * its environment instead. Later steps of the job that push need their own credentials.
 */
export async function takeCredentials(git: GitRepository): Promise<TakenCredentials> {
  let listing: string;
  try {
    listing = await git.run(['config', '--show-origin', '-z', '--get-regexp', '^http\\..*\\.extraheader$']);
  } catch {
    return { entries: [], files: [] }; // git exits 1 when nothing matches
  }
  const entries: ConfigEntry[] = [];
  const origins = new Map<string, Set<string>>();
  // -z: `file:<path>\0<key>\n<value>\0` per value, paths unquoted.
  const records = listing.split('\0');
  for (let index = 0; index + 1 < records.length; index += 2) {
    const origin = records[index]!;
    const record = records[index + 1]!;
    if (!origin.startsWith('file:')) continue;
    const newline = record.indexOf('\n');
    const key = newline < 0 ? record : record.slice(0, newline);
    const value = newline < 0 ? undefined : record.slice(newline + 1);
    entries.push({ key, value });
    const file = path.resolve(git.root, origin.slice('file:'.length));
    if (!origins.has(file)) origins.set(file, new Set());
    origins.get(file)!.add(key);
  }
  for (const [file, keys] of origins)
    for (const key of keys) await git.run(['config', '--file', file, '--unset-all', key]);
  return { entries, files: [...origins.keys()] };
}

/** Which credential the action's push carries (said in the log, so a run that starts no CI can be told apart). */
export type PushCredentialSource = 'github_token' | 'checkout' | 'none';

export interface PushCredential {
  readonly source: PushCredentialSource;
  /** Config for the push alone, given through its environment (see GitRepository.push). */
  readonly entries: readonly ConfigEntry[];
}

/**
 * GitHub takes a token over HTTPS as Basic auth with the user `x-access-token` (how actions/checkout
 * writes its header, and how GitHub documents an installation token's git access).
 */
export function basicAuthHeader(token: string): string {
  return `AUTHORIZATION: basic ${Buffer.from(`x-access-token:${token}`).toString('base64')}`;
}

/**
 * What the push authenticates with. `github_token` when it is given and is not the token the
 * checkout persisted: its default, `${{ github.token }}`, is the checkout's default too, so a token
 * that differs was chosen for this action (an App token, whose pushes start the repository's
 * workflows; the workflow's GITHUB_TOKEN starts none). Otherwise the checkout's header, as it was.
 * The header is scoped to the push URL's origin, as the checkout scopes its own, and the empty
 * values first drop any header git would otherwise add (an empty extraheader resets the list).
 */
export async function pushCredential(
  git: GitRepository,
  taken: TakenCredentials,
  token: string | undefined
): Promise<PushCredential> {
  const fallback: PushCredential = {
    source: taken.entries.length > 0 ? 'checkout' : 'none',
    entries: taken.entries
  };
  if (!token || taken.entries.some((entry) => tokenOfHeader(entry.value) === token)) return fallback;
  const origin = await pushOrigin(git);
  if (origin === undefined) return fallback; // ssh or a path: no HTTP header to give
  const key = `http.${origin}.extraheader`;
  return {
    source: 'github_token',
    entries: [
      { key: 'http.extraheader', value: '' },
      { key, value: '' },
      { key, value: basicAuthHeader(token) }
    ]
  };
}

/** `scheme://host[:port]/` of origin's push URL when it is HTTP(S), without any user or password in it. */
async function pushOrigin(git: GitRepository): Promise<string | undefined> {
  let url: URL;
  try {
    url = new URL((await git.run(['remote', 'get-url', '--push', 'origin'])).trim());
  } catch {
    return undefined; // no origin, or not a URL (scp-like ssh, a path)
  }
  return url.protocol === 'https:' || url.protocol === 'http:' ? `${url.protocol}//${url.host}/` : undefined;
}

/** The token in a checkout's `AUTHORIZATION: basic base64(x-access-token:<token>)` header. */
function tokenOfHeader(value: string | undefined): string | undefined {
  const basic = /^\s*authorization:\s*basic\s+(\S+)\s*$/i.exec(value ?? '');
  if (!basic) return undefined;
  const decoded = Buffer.from(basic[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? undefined : decoded.slice(colon + 1);
}
