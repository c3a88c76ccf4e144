/** One `key=value` of a git config file, as `git config --list -z` gives it. */
export interface ConfigEntry {
  /** `section.key` or `section.subsection.key`; section and key lower-case, subsection as written. */
  readonly key: string;
  /** Undefined for a bare `key` line (a boolean true). */
  readonly value: string | undefined;
}

/** Parses `git config --list -z`: `key\nvalue\0`, or `key\0` for a key without a value. */
export function parseConfigList(listing: string): ConfigEntry[] {
  return listing
    .split('\0')
    .filter((record) => record !== '')
    .map((record) => {
      const newline = record.indexOf('\n');
      return newline < 0
        ? { key: record, value: undefined }
        : { key: record.slice(0, newline), value: record.slice(newline + 1) };
    });
}

/**
 * What of the repository's own config the action's git may read. An allow-list: repository config
 * can name programs to run (filters, fsmonitor, hooksPath, sshCommand, askPass, credential helpers,
 * diff and merge drivers, textconv, gpg, pagers, editors, trailer commands), pull in other files
 * (include, includeIf) or redirect data (proxies, insteadOf, worktree, upload/receive-pack, TLS
 * settings), and new ways keep appearing. What is kept describes the repository and its remotes.
 */
export function isSafeConfigKey(key: string): boolean {
  const { section, subsection, name } = splitKey(key);
  if (WHOLE_SECTIONS.has(section)) return true;
  if (section === 'core') return subsection === undefined && !UNSAFE_CORE_KEYS.has(name);
  if (section === 'remote') return subsection !== undefined && REMOTE_KEYS.has(name);
  if (section === 'branch') return subsection !== undefined && BRANCH_KEYS.has(name);
  return false;
}

const WHOLE_SECTIONS = new Set([
  'extensions',
  'index',
  'feature',
  'pack',
  'gc',
  'status',
  'checkout',
  'init'
]);
const UNSAFE_CORE_KEYS = new Set([
  'fsmonitor',
  'fsmonitorhookversion',
  'hookspath',
  'sshcommand',
  'askpass',
  'pager',
  'editor',
  'gitproxy',
  'worktree',
  'attributesfile',
  'excludesfile',
  'alternaterefscommand',
  'alternaterefsprefixes'
]);
const REMOTE_KEYS = new Set(['url', 'pushurl', 'fetch', 'push', 'tagopt', 'promisor', 'partialclonefilter']);
const BRANCH_KEYS = new Set(['remote', 'merge', 'pushremote']);

function splitKey(key: string): { section: string; subsection: string | undefined; name: string } {
  const first = key.indexOf('.');
  const last = key.lastIndexOf('.');
  const section = key.slice(0, first).toLowerCase();
  const name = key.slice(last + 1).toLowerCase();
  const subsection = first < last ? key.slice(first + 1, last) : undefined;
  return { section, subsection, name };
}

/** Writes entries back as a config file git reads to the same list (values quoted and escaped). */
export function renderConfig(entries: readonly ConfigEntry[]): string {
  const lines: string[] = [];
  let header: string | undefined;
  for (const entry of entries) {
    const { section, subsection, name } = splitKey(entry.key);
    const wanted =
      subsection === undefined ? `[${section}]` : `[${section} "${subsection.replace(/["\\]/g, '\\$&')}"]`;
    if (wanted !== header) {
      lines.push(wanted);
      header = wanted;
    }
    lines.push(entry.value === undefined ? `\t${name}` : `\t${name} = ${quoteValue(entry.value)}`);
  }
  return lines.length > 0 ? `${lines.join('\n')}\n` : '';
}

function quoteValue(value: string): string {
  // Plain when git reads it back as is: no quote, backslash or comment sign, no whitespace but
  // inner spaces (git turns a tab or CR outside quotes into a space, and drops it at either end).
  if (/^[^\s"\\;#](?:(?:[^\s"\\;#]| )*[^\s"\\;#])?$/.test(value)) return value;
  const escaped = value
    .replace(/\\/g, '\\\\')
    .replace(/"/g, '\\"')
    .replace(/\n/g, '\\n')
    .replace(/\t/g, '\\t')
    .replaceAll('\b', '\\b');
  return `"${escaped}"`;
}
