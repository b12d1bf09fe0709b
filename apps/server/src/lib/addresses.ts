import { BlockList, isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Addresses the server never sends to (webhooks, an identity provider's endpoints) unless
 * its configuration allows them: unspecified, loopback, private, shared (carrier-grade NAT),
 * link-local (cloud metadata services live there: 169.254.169.254, fd00:ec2::254), multicast,
 * reserved and documentation ranges, and IPv6's unique-local and site-local ones. An IPv6 address that
 * carries an IPv4 one is judged by that IPv4 address (EMBEDDING below).
 */
const BLOCKED = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  BLOCKED.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001:2::', 48],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const)
  BLOCKED.addSubnet(net, prefix, 'ipv6');

/** The IPv4 address in four bytes of an IPv6 address's sixteen, from `at`, each byte XORed with `mask`. */
const ipv4At = (bytes: number[], at: number, mask = 0) =>
  bytes
    .slice(at, at + 4)
    .map((byte) => byte ^ mask)
    .join('.');

/**
 * The IPv6 forms that carry IPv4 addresses, and where: compatible (::/96, which holds :: and
 * ::1 as 0.0.0.0 and 0.0.0.1), mapped (::ffff:0:0/96), translated (::ffff:0:0:0/96), NAT64
 * (64:ff9b::/96), 6to4 (2002::/16, the router's address after the prefix) and Teredo
 * (2001::/32: the server's address, and the client's inverted in the last 32 bits). Any of
 * them may reach its IPv4 address, so the address is public only when each one it carries is.
 */
interface EmbeddingForm {
  net: string;
  prefix: number;
  ipv4: (bytes: number[]) => string[];
}
const EMBEDDING_FORMS: EmbeddingForm[] = [
  { net: '::', prefix: 96, ipv4: (bytes) => [ipv4At(bytes, 12)] },
  { net: '::ffff:0:0', prefix: 96, ipv4: (bytes) => [ipv4At(bytes, 12)] },
  { net: '::ffff:0:0:0', prefix: 96, ipv4: (bytes) => [ipv4At(bytes, 12)] },
  { net: '64:ff9b::', prefix: 96, ipv4: (bytes) => [ipv4At(bytes, 12)] },
  { net: '2002::', prefix: 16, ipv4: (bytes) => [ipv4At(bytes, 2)] },
  { net: '2001::', prefix: 32, ipv4: (bytes) => [ipv4At(bytes, 4), ipv4At(bytes, 12, 0xff)] },
];
const EMBEDDING = EMBEDDING_FORMS.map((form) => {
  const list = new BlockList();
  list.addSubnet(form.net, form.prefix, 'ipv6');
  return { ...form, list };
});

/** Whether an IP address is public: none of the blocked ranges, nor any IPv4 address it carries. */
export function isPublicAddress(address: string): boolean {
  const version = isIP(address);
  if (version === 0) return false;
  if (version === 4) return !BLOCKED.check(address, 'ipv4');
  const form = EMBEDDING.find((f) => f.list.check(address, 'ipv6'));
  if (form) return form.ipv4(ipaddr.IPv6.parse(address).toByteArray()).every((v4) => !BLOCKED.check(v4, 'ipv4'));
  return !BLOCKED.check(address, 'ipv6');
}

/** The hosts, addresses and ranges the configuration allows although they are not public (and over http). */
export interface AllowedHosts {
  host(hostname: string): boolean;
  address(address: string): boolean;
}

export function allowedHosts(entries: readonly string[]): AllowedHosts {
  const names = new Set<string>();
  const list = new BlockList();
  for (const entry of entries) {
    const [address = '', prefix] = entry.split('/');
    const version = isIP(address);
    if (version === 0) names.add(entry.toLowerCase());
    else if (prefix === undefined) list.addAddress(address, version === 4 ? 'ipv4' : 'ipv6');
    else list.addSubnet(address, Number(prefix), version === 4 ? 'ipv4' : 'ipv6');
  }
  return {
    host: (hostname) => names.has(bare(hostname)) || (isIP(bare(hostname)) !== 0 && checkAddress(list, bare(hostname))),
    address: (address) => checkAddress(list, address),
  };
}

function checkAddress(list: BlockList, address: string): boolean {
  const version = isIP(address);
  return version !== 0 && list.check(address, version === 4 ? 'ipv4' : 'ipv6');
}

/**
 * A URL's host as it is resolved and compared: without the brackets of an IPv6 literal, lower
 * case, and without trailing dots (`localhost.` is the fully qualified `localhost`).
 */
export const bare = (hostname: string) =>
  hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.+$/, '')
    .toLowerCase();
