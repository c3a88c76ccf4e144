import path from 'node:path';
import { BOX_PROXY_PORT, BOX_PROXY_SOCKET, BRIDGE_SCRIPT } from './bridge.js';

/** What the box shows, decided outside (box-host.ts) so that the arguments are a pure function. */
export interface BoxLayout {
  /** System folders shown read-only, as folders or as symbolic links (merged /usr: /bin -> usr/bin). */
  readonly system: readonly SystemEntry[];
  /** Toolchain folders outside the system ones (under HOME, /nix, ...), read-only, after the scratch HOME. */
  readonly toolchains: readonly string[];
  /** Files hidden inside those (credentials a toolchain folder holds), shown as empty. */
  readonly masked: readonly string[];
  /** The real HOME path: the scratch home is shown there. */
  readonly home: string;
  readonly scratchHome: string;
  readonly scratchTmp: string;
  /** The repository: the only real folder the commands may write. */
  readonly workspace: string;
  /** Folders the caller names, shown read-only at their own path (a fan-out shard's borrowed git objects). */
  readonly readOnly: readonly string[];
  /** A git worktree's common folder (`.git` is a file naming it), outside the repository: git needs it. */
  readonly gitCommonDir?: string | undefined;
  /** Git's config, hooks and folder, pinned and read-only after the workspace (box-host gitGuardPaths). */
  readonly git: GitGuardPaths;
  /** The proxy's Unix socket for this command; undefined: no network at all. */
  readonly proxySocket: string | undefined;
  /** Not root: bubblewrap needs a user namespace of its own. */
  readonly unprivileged: boolean;
}

/** The git paths the box pins: `pinned` are bound onto themselves (a mount point cannot be renamed or removed), `readOnly` shown read-only. */
export interface GitGuardPaths {
  readonly pinned: readonly string[];
  readonly readOnly: readonly string[];
}

export type SystemEntry =
  | { readonly kind: 'folder'; readonly path: string }
  | { readonly kind: 'link'; readonly path: string; readonly target: string };

/**
 * bubblewrap's arguments for one program (argv: `bash -c <command>`, or an MCP server's command line). Namespaces: a new network namespace (only its own
 * loopback: no route out, no DNS server, no IPv6 beyond ::1, abstract Unix sockets of the host
 * unreachable), PID (the action and the runner are not in /proc; when the command ends the
 * namespace's init ends and the kernel kills everything left), mount, IPC and UTS. Every capability
 * is dropped: bubblewrap run by root keeps them otherwise, and CAP_SYS_ADMIN would let a command
 * remount the read-only folders. /run is an empty tmpfs: host sockets there (Docker's, D-Bus,
 * systemd-resolved) are out of reach.
 */
export function bubblewrapArgs(layout: BoxLayout, argv: readonly string[]): string[] {
  const args = [
    '--die-with-parent',
    '--new-session',
    ...(layout.unprivileged ? ['--unshare-user'] : []),
    '--unshare-pid',
    '--unshare-net',
    '--unshare-ipc',
    '--unshare-uts',
    '--unshare-cgroup-try',
    '--cap-drop',
    'ALL'
  ];
  for (const entry of layout.system) {
    if (entry.kind === 'link') args.push('--symlink', entry.target, entry.path);
    else args.push('--ro-bind', entry.path, entry.path);
  }
  args.push('--proc', '/proc', '--dev', '/dev', '--tmpfs', '/run', '--tmpfs', '/var/tmp');
  args.push('--bind', layout.scratchTmp, '/tmp', '--bind', layout.scratchHome, layout.home);
  for (const folder of layout.toolchains) args.push('--ro-bind', folder, folder);
  for (const file of layout.masked) args.push('--ro-bind', '/dev/null', file);
  for (const folder of layout.readOnly) args.push('--ro-bind', folder, folder);
  if (layout.gitCommonDir !== undefined) args.push('--bind', layout.gitCommonDir, layout.gitCommonDir);
  args.push('--bind', layout.workspace, layout.workspace);
  for (const folder of layout.git.pinned) args.push('--bind', folder, folder);
  for (const file of layout.git.readOnly) args.push('--ro-bind', file, file);
  args.push('--chdir', layout.workspace);
  if (layout.proxySocket === undefined) return [...args, '--', ...argv];
  args.push('--dir', path.dirname(BOX_PROXY_SOCKET), '--ro-bind', layout.proxySocket, BOX_PROXY_SOCKET);
  return [...args, '--', 'perl', '-e', BRIDGE_SCRIPT, BOX_PROXY_SOCKET, String(BOX_PROXY_PORT), ...argv];
}

/**
 * The proxy variables every common client reads (curl, wget, git, pip, npm, cargo, go; Node's fetch
 * with NODE_USE_ENV_PROXY=1 from Node 24). NO_PROXY is removed: nothing may bypass the proxy, and
 * nothing could (there is no other route).
 */
export function boxProxyEnvironment(env: NodeJS.ProcessEnv, network: boolean): NodeJS.ProcessEnv {
  const result: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(env)) {
    if (/^(https?|all|no|ftp)_proxy$/i.test(name)) continue;
    result[name] = value;
  }
  if (!network) return result;
  const proxy = `http://127.0.0.1:${BOX_PROXY_PORT}`;
  for (const name of ['HTTP_PROXY', 'HTTPS_PROXY', 'http_proxy', 'https_proxy']) result[name] = proxy;
  result.NODE_USE_ENV_PROXY = '1';
  return result;
}
