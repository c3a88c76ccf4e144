import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/**
 * An AppArmor profile that lets bubblewrap (and only it) create user namespaces, the way Ubuntu's
 * own `bwrap-userns-restrict` extra profile and Codex's documentation do it on Ubuntu 24.04
 * (kernel.apparmor_restrict_unprivileged_userns=1 there; openai/codex #17337, read 2026-11-26).
 * Narrower than switching the restriction off for every program with sysctl.
 */
const PROFILE_PATH = '/etc/apparmor.d/compact-agent-bwrap';
const PROFILE = `abi <abi/4.0>,
include <tunables/global>
profile compact-agent-bwrap /usr/bin/bwrap flags=(unconfined) {
  userns,
}
`;

export interface Preparation {
  readonly tried: boolean;
  readonly ok: boolean;
  readonly summary: string;
}

/**
 * Only on GitHub-hosted runners (RUNNER_ENVIRONMENT=github-hosted: a throwaway machine whose user
 * has passwordless sudo), never on a self-hosted one, whose owner decides what is installed:
 * installs bubblewrap when it is missing and loads the profile above. Each step is `sudo -n`, so
 * nothing waits for a password.
 */
export function prepareHostedRunner(env: NodeJS.ProcessEnv, failure: string): Preparation {
  if (
    env.RUNNER_ENVIRONMENT !== 'github-hosted' ||
    process.platform !== 'linux' ||
    process.getuid?.() === 0
  ) {
    return { tried: false, ok: false, summary: '' };
  }
  const steps: string[][] = [];
  if (!existsSync('/usr/bin/bwrap')) steps.push(['apt-get', 'install', '-y', '-qq', 'bubblewrap']);
  if (
    /RTM_NEWADDR|namespace|uid map|Permission denied|Operation not permitted/i.test(failure) ||
    steps.length > 0
  ) {
    steps.push(['tee', PROFILE_PATH], ['apparmor_parser', '-r', PROFILE_PATH]);
  }
  for (const step of steps) {
    const result = spawnSync('sudo', ['-n', ...step], {
      input: step[0] === 'tee' ? PROFILE : '',
      encoding: 'utf8',
      stdio: ['pipe', 'ignore', 'pipe'],
      timeout: 180_000
    });
    if (result.error || result.status !== 0) {
      const why = result.error?.message ?? result.stderr.trim();
      return {
        tried: true,
        ok: false,
        summary: `preparing the runner failed at "sudo ${step.join(' ')}": ${why}`
      };
    }
  }
  return {
    tried: true,
    ok: true,
    summary: `prepared the runner (${steps.map((step) => step[0]).join(', ')})`
  };
}
