import { isIP } from 'node:net';
import { expandIpv6 } from './host-rules.js';

/**
 * Whether an address is one the proxy must not reach for a name from the default list: loopback,
 * private (RFC 1918), link-local (cloud metadata at 169.254.169.254), carrier-grade NAT, unique-local
 * IPv6, multicast, unspecified, and IPv4-mapped forms of these. A public name that resolves to one
 * of them is DNS rebinding or a poisoned record, not a registry.
 */
export function isInternalAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return isInternalIpv4(address);
  if (family !== 6) return true; // Not an address at all: refuse.
  const groups = expandIpv6(address)
    .split(':')
    .map((group) => parseInt(group, 16));
  const [g0 = 0, , , , , g5 = 0, g6 = 0, g7 = 0] = groups;
  const zeroHead = groups.slice(0, 5).every((group) => group === 0);
  if (zeroHead && g5 === 0xffff) return isInternalIpv4(ipv4Of(g6, g7)); // ::ffff:a.b.c.d
  if (zeroHead && g5 === 0 && g6 === 0 && (g7 === 0 || g7 === 1)) return true; // :: and ::1
  if (zeroHead && g5 === 0) return isInternalIpv4(ipv4Of(g6, g7)); // ::a.b.c.d (deprecated form)
  if ((g0 & 0xfe00) === 0xfc00) return true; // fc00::/7 unique local
  if ((g0 & 0xffc0) === 0xfe80) return true; // fe80::/10 link local
  if ((g0 & 0xff00) === 0xff00) return true; // multicast
  if (g0 === 0x64 && groups[1] === 0xff9b) return isInternalIpv4(ipv4Of(g6, g7)); // NAT64
  return false;
}

function ipv4Of(high: number, low: number): string {
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
}

function isInternalIpv4(address: string): boolean {
  const [a = 0, b = 0] = address.split('.').map(Number);
  return (
    a === 0 ||
    a === 10 ||
    a === 127 ||
    (a === 100 && b >= 64 && b <= 127) ||
    (a === 169 && b === 254) ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 198 && (b === 18 || b === 19)) ||
    a >= 224
  );
}
