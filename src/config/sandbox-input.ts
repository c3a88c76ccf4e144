import { parseBooleanInput } from './boolean-input.js';
import { DEFAULT_ALLOWED_HOSTS } from '../sandbox/default-hosts.js';
import { parseHostRule, type HostRule } from '../sandbox/host-rules.js';

export type SandboxMode = 'auto' | 'required' | 'off';

/** The inputs' defaults, defined here once (config/inputs.ts INPUT_DEFAULTS repeats them for action.yml). */
export const SANDBOX_DEFAULTS = {
  sandbox: 'auto',
  sandbox_network: 'allowlist',
  sandbox_default_hosts: true
} as const;
const MODES: readonly SandboxMode[] = ['auto', 'required', 'off'];

/** The box's settings (`sandbox`, `sandbox_network`, `sandbox_allow_hosts`, `sandbox_default_hosts`). */
export interface SandboxConfig {
  /** auto: on where the runner allows it, else off with a warning; required: no box, no run. */
  readonly mode: SandboxMode;
  /** Allowed destinations; undefined: `sandbox_network: off`, no network at all. */
  readonly rules: readonly HostRule[] | undefined;
  /**
   * Whether the default hosts are on (`sandbox_default_hosts`). Those listed only for some
   * repositories (the Go relays) join `rules` once the checkout is known: sandbox/repository-hosts.ts.
   */
  readonly defaultHosts: boolean;
}

export const DEFAULT_SANDBOX: SandboxConfig = { mode: 'auto', rules: defaultRules(), defaultHosts: true };

/** The default hosts every repository gets (not those that depend on its files). */
function defaultRules(): HostRule[] {
  return DEFAULT_ALLOWED_HOSTS.filter((entry) => entry.onlyWith === undefined).map(
    (entry) => parseHostRule(entry.host, false) as HostRule
  );
}

/** Reads the four inputs; every bad one adds a problem that says what to write instead. */
export function parseSandboxInputs(
  read: (input: string) => string,
  name: (input: string) => string,
  problems: string[]
): SandboxConfig {
  const rawMode = read('sandbox').trim().toLowerCase();
  const mode = rawMode === '' ? SANDBOX_DEFAULTS.sandbox : MODES.find((candidate) => candidate === rawMode);
  if (!mode) {
    problems.push(
      `${name('sandbox')} is "${read('sandbox').trim()}": write auto (the box where the runner allows it), ` +
        'required (fail when it cannot be built) or off.'
    );
  }
  const hosts = read('sandbox_hosts').trim();
  if (hosts !== '') return { mode: mode ?? 'auto', ...hostList(hosts, read, name, problems) };
  const rawNetwork = read('sandbox_network').trim().toLowerCase();
  if (rawNetwork !== '' && rawNetwork !== 'allowlist' && rawNetwork !== 'off') {
    problems.push(
      `${name('sandbox_network')} is "${read('sandbox_network').trim()}": write allowlist (the allowed hosts ` +
        'through the proxy, the default) or off (no network in the box).'
    );
  }
  const withDefaults = parseBooleanInput(
    read('sandbox_default_hosts'),
    name('sandbox_default_hosts'),
    SANDBOX_DEFAULTS.sandbox_default_hosts,
    problems
  );
  const added: HostRule[] = [];
  for (const entry of read('sandbox_allow_hosts')
    .split(/[\s,]+/)
    .filter((item) => item !== '')) {
    const rule = parseHostRule(entry, true);
    if (typeof rule === 'string') problems.push(`${name('sandbox_allow_hosts')}: ${rule}`);
    else added.push(rule);
  }
  if (rawNetwork === 'off' && added.length > 0) {
    problems.push(
      `${name('sandbox_allow_hosts')} names hosts, but ${name('sandbox_network')} is off: ` +
        'remove one of the two.'
    );
  }
  const rules =
    rawNetwork === 'off' ? undefined : [...added, ...(withDefaults === false ? [] : defaultRules())];
  return { mode: mode ?? 'auto', rules, defaultHosts: withDefaults !== false };
}

/** The word of `sandbox.hosts` that stands for the default list (DEFAULT_ALLOWED_HOSTS). */
export const DEFAULT_HOSTS_WORD = 'defaults';

/**
 * `sandbox.hosts`: one list instead of the three old inputs. `defaults` adds the default list;
 * the empty list (`none` once read) is no network at all. The old inputs may not be mixed in.
 */
function hostList(
  raw: string,
  read: (input: string) => string,
  name: (input: string) => string,
  problems: string[]
): Pick<SandboxConfig, 'rules' | 'defaultHosts'> {
  for (const old of ['sandbox_network', 'sandbox_allow_hosts', 'sandbox_default_hosts']) {
    if (read(old).trim() !== '')
      problems.push(
        `${name(old)} and ${name('sandbox_hosts')} are both set: keep ${name('sandbox_hosts')} alone.`
      );
  }
  const entries = raw.split(/[\s,]+/).filter((item) => item !== '');
  if (entries.length === 1 && entries[0] === 'none') return { rules: undefined, defaultHosts: false };
  const withDefaults = entries.includes(DEFAULT_HOSTS_WORD);
  const added: HostRule[] = [];
  for (const entry of entries.filter((item) => item !== DEFAULT_HOSTS_WORD)) {
    const rule = parseHostRule(entry, true);
    if (typeof rule === 'string') problems.push(`${name('sandbox_hosts')}: ${rule}`);
    else added.push(rule);
  }
  return { rules: [...added, ...(withDefaults ? defaultRules() : [])], defaultHosts: withDefaults };
}
