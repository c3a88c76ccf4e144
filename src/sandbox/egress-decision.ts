import { isIP } from 'node:net';
import { isInternalAddress } from './address-class.js';
import { findRule, normalHost, type HostRule } from './host-rules.js';

export type Resolve = (host: string) => Promise<readonly string[]>;

export type EgressDecision =
  | { readonly allowed: true; readonly addresses: readonly string[] }
  | { readonly allowed: false; readonly reason: string };

/**
 * Whether the proxy may connect to host:port, and to which addresses, in the resolver's order. The
 * name is resolved here, once, and the connection goes only to addresses that were checked: a second
 * lookup could answer differently (DNS rebinding). Every address is checked, so the proxy may try
 * the next when the first does not answer. A name from the default list may not lead to a loopback or private address; a
 * host the maintainer named (explicit) may, so a test registry on 127.0.0.1 can be allowed.
 */
export async function decideEgress(
  rules: readonly HostRule[],
  rawHost: string,
  port: number,
  resolve: Resolve
): Promise<EgressDecision> {
  const host = normalHost(rawHost);
  const rule = findRule(rules, host, port);
  if (!rule) return { allowed: false, reason: 'not on the allowed hosts' };
  if (isIP(host) !== 0) return { allowed: true, addresses: [host] };
  let addresses: readonly string[];
  try {
    addresses = await resolve(host);
  } catch {
    return { allowed: false, reason: 'the name does not resolve' };
  }
  if (addresses.length === 0) return { allowed: false, reason: 'the name does not resolve' };
  if (!rule.explicit && addresses.some(isInternalAddress)) {
    return { allowed: false, reason: 'an allowed name that resolves to an internal address' };
  }
  return { allowed: true, addresses };
}
