/*
 * The agent's shell in a box.
 *
 * How the anchors do it (read 2026-11-26):
 * - Anthropic's sandbox-runtime (anthropic-experimental/sandbox-runtime; docs.rs sandbox-runtime,
 *   module `sandbox::linux`): bubblewrap with --unshare-net, an HTTP and a SOCKS5 proxy on the host
 *   that filter by domain, reached from inside through Unix sockets bridged to loopback ports by
 *   socat, plus seccomp that refuses new Unix sockets.
 * - Codex (openai/codex, codex-rs/linux-sandbox README): bubblewrap for namespaces and mounts,
 *   seccomp for syscalls, a managed proxy for allowed domains. On Ubuntu 24.04 unprivileged user
 *   namespaces are restricted by AppArmor (kernel.apparmor_restrict_unprivileged_userns=1) and
 *   bubblewrap fails with "loopback: Failed RTM_NEWADDR: Operation not permitted" (openai/codex
 *   #15057, #17337); the documented fixes are loading the `bwrap-userns-restrict` AppArmor profile
 *   (package apparmor-profiles) or `sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0`,
 *   which is what workflows running codex-action on ubuntu-24.04 runners do (corsairdev/corsair#439).
 *   codex-action's `drop-sudo` strategy (CHANGELOG v1.12) requires unprivileged user namespaces.
 * - GitHub's gh-aw firewall (githubnext/gh-aw-firewall): a Squid proxy with a domain allowlist in
 *   Docker, iptables in the DOCKER-USER chain, IPv6 off; it needs sudo.
 *
 * What we do: bubblewrap per command (box-layout.ts), with the proxy (egress-proxy.ts) in the action
 * and a Perl bridge in the box (bridge.ts). As root (CI, containers, self-hosted runners as root)
 * bubblewrap needs nothing more. As a user, it needs unprivileged user namespaces: on GitHub-hosted
 * ubuntu-24.04 the action loads an AppArmor profile that grants bubblewrap (only) a user namespace,
 * with the runner's passwordless sudo (host-prepare.ts). A self-hosted runner needs bubblewrap and
 * either root, or user namespaces allowed for bwrap.
 */
import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { bubblewrapArgs, boxProxyEnvironment, type BoxLayout } from './box-layout.js';
import {
  removePlantedCommonDir,
  workspaceGitGuardPaths,
  systemEntries,
  systemSecretFiles,
  toolchainFolders,
  within,
  worktreeCommonDir
} from './box-host.js';
import type { NestedRepositoryWatch } from '../git/nested-repositories.js';
import type { BlockedAttempt } from './blocked-log.js';
import type { BoxedCommand, CommandBox } from './command-box.js';
import { EgressProxy } from './egress-proxy.js';
import type { Resolve } from './egress-decision.js';
import type { HostRule } from './host-rules.js';

export interface BoxSettings {
  readonly workspace: string;
  /** The job's environment (the real HOME, PATH, RUNNER_TEMP are read from it). */
  readonly env: NodeJS.ProcessEnv;
  /** Allowed destinations; undefined: the network is off. */
  readonly rules: readonly HostRule[] | undefined;
  /** Folders the commands must not see even if a PATH entry points there (the action's own). */
  readonly hidden?: readonly string[];
  readonly resolve?: Resolve;
  /** `bwrap` by default; a test may name another. */
  readonly bwrap?: string;
  /** Swept after every program: a `.git` a command made would run its settings outside the box. */
  readonly nestedRepositories?: NestedRepositoryWatch;
  /**
   * Folders outside the workspace shown read-only (a fan-out shard's repository borrows the
   * person's git objects from them); never one that holds a hidden folder.
   */
  readonly readOnly?: readonly string[];
}

export type BoxStart =
  { readonly ok: true; readonly box: CommandBox } | { readonly ok: false; readonly reason: string };

/** Builds the box and runs `true` in it once; a box that cannot run reports why instead. */
export async function startBox(settings: BoxSettings): Promise<BoxStart> {
  if (process.platform !== 'linux')
    return { ok: false, reason: `the box needs Linux (this is ${process.platform})` };
  const bwrap = settings.bwrap ?? 'bwrap';
  const root = mkdtempSync(path.join(os.tmpdir(), 'compact-agent-box-'));
  const box = new BubblewrapBox(bwrap, root, settings);
  const probe = spawnSync(bwrap, bubblewrapArgs(box.layoutFor(undefined), ['true']), {
    // Only what finds the program: the job's environment (its secrets) has no business in a probe.
    env: { PATH: settings.env.PATH ?? '/usr/bin:/bin' },
    encoding: 'utf8',
    timeout: 10_000
  });
  if (probe.error || probe.status !== 0) {
    await box.close();
    const why = probe.error
      ? (probe.error as NodeJS.ErrnoException).code === 'ENOENT'
        ? `${bwrap} is not installed (Debian and Ubuntu: apt-get install bubblewrap)`
        : probe.error.message
      : probe.stderr.trim() || `${bwrap} exited with ${probe.status}`;
    return { ok: false, reason: why };
  }
  if (settings.rules !== undefined) {
    const perl = spawnSync('perl', ['-e', '1'], { encoding: 'utf8' });
    if (perl.error || perl.status !== 0) {
      await box.close();
      return { ok: false, reason: 'perl is not installed: the box needs it for its network bridge' };
    }
  }
  return { ok: true, box };
}

class BubblewrapBox implements CommandBox {
  readonly network: 'allowlist' | 'off';
  private readonly proxy: EgressProxy | undefined;
  private readonly base: Omit<BoxLayout, 'proxySocket'>;
  private readonly hidden: readonly string[];
  private readonly nestedRepositories: NestedRepositoryWatch | undefined;

  constructor(
    private readonly bwrap: string,
    private readonly root: string,
    settings: BoxSettings
  ) {
    this.network = settings.rules === undefined ? 'off' : 'allowlist';
    const scratchHome = path.join(root, 'home');
    const scratchTmp = path.join(root, 'tmp');
    const sockets = path.join(root, 'proxy');
    for (const folder of [scratchHome, scratchTmp, sockets]) mkdirSync(folder, { mode: 0o700 });
    this.proxy =
      settings.rules === undefined ? undefined : new EgressProxy(settings.rules, sockets, settings.resolve);
    const env = settings.env;
    const home = path.resolve(env.HOME ?? os.homedir());
    const hidden = [
      root,
      os.tmpdir(),
      settings.workspace,
      ...(env.RUNNER_TEMP ? [env.RUNNER_TEMP] : []),
      ...(settings.hidden ?? [])
    ].map((folder) => path.resolve(folder));
    const candidates = [
      ...(env.PATH ?? '').split(path.delimiter),
      ...Object.entries(env)
        .filter(([name]) =>
          /^(CARGO_HOME|RUSTUP_HOME|GOROOT|GOPATH|JAVA_HOME|PYENV_ROOT|NVM_DIR|BUN_INSTALL|DENO_INSTALL)$/.test(
            name
          )
        )
        .map(([, value]) => value ?? '')
    ];
    this.hidden = hidden;
    this.nestedRepositories = settings.nestedRepositories;
    const scan = toolchainFolders(candidates, home, hidden);
    const gitCommonDir = worktreeCommonDir(
      path.resolve(settings.workspace),
      hidden.filter((folder) => folder !== path.resolve(settings.workspace))
    );
    this.base = {
      system: systemEntries(),
      toolchains: scan.folders,
      masked: [...systemSecretFiles(), ...scan.masked],
      home,
      scratchHome,
      scratchTmp,
      workspace: path.resolve(settings.workspace),
      readOnly: (settings.readOnly ?? [])
        .map((folder) => path.resolve(folder))
        .filter((folder) => isFolder(folder) && !hidden.some((secret) => within(secret, folder))),
      gitCommonDir,
      git: workspaceGitGuardPaths(
        path.resolve(settings.workspace),
        gitCommonDir,
        settings.nestedRepositories?.atStart() ?? []
      ),
      unprivileged: process.getuid?.() !== 0
    };
  }

  layoutFor(proxySocket: string | undefined): BoxLayout {
    return { ...this.base, proxySocket };
  }

  plainEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
    return { ...boxProxyEnvironment(env, this.proxy !== undefined), HOME: this.base.home, TMPDIR: '/tmp' };
  }

  wrap(command: string, env: NodeJS.ProcessEnv): Promise<BoxedCommand> {
    return this.wrapArgv(['bash', '-c', command], env, command);
  }

  /**
   * A program named by the maintainer's configuration (an MCP server): the folders of the absolute
   * paths on its command line are shown read-only too, so `/opt/tools/server.js` or a script outside
   * the repository still runs; never one of the hidden folders.
   */
  async wrapArgv(argv: readonly string[], env: NodeJS.ProcessEnv, label: string): Promise<BoxedCommand> {
    const channel = this.proxy ? await this.proxy.openChannel(label) : undefined;
    const named = argv
      .filter((arg) => path.isAbsolute(arg))
      .map((arg) => (isFolder(arg) ? arg : path.dirname(arg)));
    const extra = toolchainFolders(named, this.base.home, this.hidden).folders;
    const layout = this.layoutFor(channel?.socketPath);
    return {
      file: this.bwrap,
      args: bubblewrapArgs({ ...layout, toolchains: [...new Set([...layout.toolchains, ...extra])] }, argv),
      env: this.plainEnv(env),
      finish: async () => {
        this.removePlantedGitFiles();
        if (!channel) return [];
        await channel.close();
        return channel.blocked();
      }
    };
  }

  blockedAttempts(): BlockedAttempt[] {
    return this.proxy?.blockedAttempts() ?? [];
  }

  /** After each program, and at the end (MCP servers run alongside the commands). */
  private removePlantedGitFiles(): void {
    for (const planted of removePlantedCommonDir(this.base.git.pinned))
      console.warn(
        `compact-agent removed ${planted}, which a command in the box wrote: it would send git to another config.`
      );
    for (const entry of this.nestedRepositories?.sweep() ?? [])
      console.warn(
        `compact-agent moved ${entry.path} out of the workspace${entry.movedTo ? ` (to ${entry.movedTo})` : ''}: ` +
          MOVED_BECAUSE[entry.reason ?? 'made']
      );
  }

  async close(): Promise<void> {
    this.removePlantedGitFiles();
    await this.proxy?.close();
    rmSync(this.root, { recursive: true, force: true });
  }
}

const MOVED_BECAUSE = {
  made: 'a command in the box made it, and git would run its settings outside the box.',
  unreadable:
    'a command in the box made this folder unreadable even after compact-agent made it listable again, and git can still open a repository in it by path.',
  rewritten:
    'a command in the box rewrote this .git file to name another repository; its original content was written back.'
} as const;

function isFolder(candidate: string): boolean {
  try {
    return statSync(candidate).isDirectory();
  } catch {
    return false;
  }
}
