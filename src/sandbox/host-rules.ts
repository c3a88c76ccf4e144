import { isIP } from 'node:net';

/** One allowed destination: a host name (exact, or `*.example.com` for its subdomains) or an IP literal. */
export interface HostRule {
  /** Lower-case; an IPv6 literal without brackets. */
  readonly host: string;
  /** Undefined: the default ports, 80 and 443. */
  readonly port: number | undefined;
  /** `*.example.com`: any subdomain of example.com (not example.com itself). */
  readonly subdomains: boolean;
  /**
   * Added by the maintainer (the input or the flag), not by the default list. Only such a rule may
   * reach a loopback or private address: a registry name that resolves to 127.0.0.1 is a trick.
   */
  readonly explicit: boolean;
}

export const DEFAULT_PORTS: readonly number[] = [80, 443];

/** Parses `host`, `host:port`, `*.host`, `[::1]:port`; returns a problem sentence for a bad entry. */
export function parseHostRule(entry: string, explicit: boolean): HostRule | string {
  const text = entry.trim().toLowerCase();
  const bracketed = /^\[([0-9a-f:.]+)\](?::(\d+))?$/.exec(text);
  const plain = /^(\*\.)?([a-z0-9.-]+)(?::(\d+))?$/.exec(text);
  let host: string;
  let portText: string | undefined;
  let subdomains = false;
  if (bracketed) {
    host = bracketed[1]!;
    portText = bracketed[2];
  } else if (isIP(text) === 6) {
    host = text;
  } else if (plain) {
    subdomains = plain[1] !== undefined;
    host = plain[2]!;
    portText = plain[3];
  } else {
    return `"${entry}" is not a host: write a name (registry.example.com), *.example.com, an IP, or any of them with :port.`;
  }
  if (host === '' || host.startsWith('.') || host.endsWith('.') || host.includes('..')) {
    return `"${entry}" is not a host name: write e.g. registry.example.com or registry.example.com:8443.`;
  }
  if (subdomains && isIP(host) !== 0) return `"${entry}": *. applies to names, not to IP addresses.`;
  const port = portText === undefined ? undefined : Number(portText);
  if (port !== undefined && (!Number.isInteger(port) || port < 1 || port > 65535)) {
    return `"${entry}" has port ${portText}: a port is 1 to 65535.`;
  }
  return { host, port, subdomains, explicit };
}

/** The rule that allows host:port, if any. IP literals match only a rule naming that very address. */
export function findRule(rules: readonly HostRule[], host: string, port: number): HostRule | undefined {
  const name = normalHost(host);
  return rules.find((rule) => {
    const portOk = rule.port === undefined ? DEFAULT_PORTS.includes(port) : rule.port === port;
    if (!portOk) return false;
    if (isIP(name) !== 0) return isIP(rule.host) !== 0 && sameAddress(rule.host, name);
    return rule.subdomains ? name.endsWith(`.${rule.host}`) : name === rule.host;
  });
}

/** Lower case, no brackets, no trailing dot (`example.com.` is the same name). */
export function normalHost(host: string): string {
  const lower = host.trim().toLowerCase();
  const unbracketed = lower.startsWith('[') && lower.endsWith(']') ? lower.slice(1, -1) : lower;
  return unbracketed.endsWith('.') ? unbracketed.slice(0, -1) : unbracketed;
}

function sameAddress(a: string, b: string): boolean {
  return a === b || expandIpv6(a) === expandIpv6(b);
}

/** A canonical text for an IPv6 address (IPv4 unchanged), so ::1 and 0:0:0:0:0:0:0:1 compare equal. */
export function expandIpv6(address: string): string {
  if (isIP(address) !== 6) return address;
  const [head = '', tail = ''] = address.split('::') as [string, string?];
  const parts = (text: string) => (text === '' ? [] : text.split(':'));
  let left = parts(head);
  let right = address.includes('::') ? parts(tail) : [];
  const last = (address.includes('::') ? right : left).at(-1) ?? '';
  if (last.includes('.')) {
    // An embedded IPv4 (::ffff:127.0.0.1) is two groups.
    const bytes = last.split('.').map(Number);
    const groups = [(bytes[0]! << 8) | bytes[1]!, (bytes[2]! << 8) | bytes[3]!].map((n) => n.toString(16));
    if (address.includes('::')) right = [...right.slice(0, -1), ...groups];
    else left = [...left.slice(0, -1), ...groups];
  }
  const fill = new Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...fill, ...right].map((group) => parseInt(group, 16).toString(16)).join(':');
}
