import { BlockList, isIP } from 'node:net';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import ipaddr from 'ipaddr.js';

/**
 * Addresses a webhook is never sent to, unless the server allows them by configuration:
 * unspecified, loopback, private, shared (carrier-grade NAT), link-local (cloud metadata
 * services live there: 169.254.169.254, fd00:ec2::254), multicast, reserved and
 * documentation ranges, and IPv6's unique-local and site-local ones. An IPv6 address that
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

export class AddressRefused extends Error {
  readonly host: string;
  readonly kind: 'private' | 'unresolvable' | 'https_only';
  constructor(host: string, kind: 'private' | 'unresolvable' | 'https_only') {
    super(
      kind === 'private'
        ? `${host} resolves to an address webhooks are not sent to`
        : kind === 'https_only'
          ? 'https only'
          : `${host} could not be resolved`,
    );
    this.host = host;
    this.kind = kind;
  }
}

/** Whether the URL's scheme is allowed: https always, http only to an allowed host. */
export function schemeAllowed(url: URL, allowed: AllowedHosts): boolean {
  return url.protocol === 'https:' || (url.protocol === 'http:' && allowed.host(url.hostname));
}

/**
 * Why a host may not be sent to, given every address it resolves to (its own, for an IP
 * literal), or null. A host the configuration allows may; otherwise each of its addresses
 * must be public or allowed: one that is not refuses the host, whichever address a
 * connection would take (an attacker's name may list a public address beside a private one).
 */
export function hostRefused(host: string, addresses: readonly string[], allowed: AllowedHosts): AddressRefused | null {
  if (allowed.host(host)) return null;
  if (addresses.length === 0) return new AddressRefused(host, 'unresolvable');
  return addresses.every((a) => isPublicAddress(a) || allowed.address(a)) ? null : new AddressRefused(host, 'private');
}

/** How names are resolved: node's `dns.lookup` (the system's resolver and hosts file), or a hosts-style table in tests. */
export type Resolve = (
  hostname: string,
  options: { all: true; verbatim: true },
  callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

/**
 * A `lookup` for http(s).request that resolves the host and refuses the connection unless
 * `hostRefused` lets it through. It runs for each new connection, so the check holds after a
 * DNS change, and the connection goes to the very address checked (no second resolution an
 * attacker could answer differently). Node does not call it for an IP literal: the sender
 * checks those itself.
 */
export function guardedLookup(allowed: AllowedHosts, resolve: Resolve = dnsLookup) {
  return (
    hostname: string,
    options: { family?: number | string; all?: boolean } | number,
    callback: (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
  ) => {
    const host = bare(hostname);
    resolve(host, { all: true, verbatim: true }, (error, addresses) => {
      if (error) return callback(error, '', 4);
      const refusal = hostRefused(
        host,
        addresses.map((a) => a.address),
        allowed,
      ) as NodeJS.ErrnoException | null;
      if (refusal) {
        refusal.code = 'EWEBHOOKADDRESS';
        return callback(refusal, '', 4);
      }
      const wantsAll = typeof options === 'object' && options.all;
      if (wantsAll) return callback(null, addresses);
      const first = addresses[0]!;
      return callback(null, first.address, first.family);
    });
  };
}

/** Resolves a host within `ms` (a registration waits no longer): its addresses, or null when it did not resolve. */
export function resolveWithin(hostname: string, ms: number, resolve: Resolve = dnsLookup): Promise<string[] | null> {
  return new Promise((done) => {
    const timer = setTimeout(() => done(null), ms);
    resolve(bare(hostname), { all: true, verbatim: true }, (error, addresses) => {
      clearTimeout(timer);
      done(error ? null : addresses.map((a) => a.address));
    });
  });
}

/**
 * Why an endpoint URL may not be registered, or null: plain http to a host the server does not
 * allow, or a host that is (or resolves to, by any one of its addresses) a loopback, private,
 * link-local or metadata address. A host that does not resolve now is accepted: its
 * deliveries are checked as each connection is made.
 */
export async function urlProblem(raw: string, allowed: AllowedHosts, resolve: Resolve = dnsLookup): Promise<AddressRefused | null> {
  const url = new URL(raw);
  const host = bare(url.hostname);
  if (!schemeAllowed(url, allowed)) return new AddressRefused(host, 'https_only');
  if (allowed.host(host)) return null;
  const addresses =
    isIP(host) !== 0
      ? [host]
      : host === 'localhost' || host.endsWith('.localhost')
        ? ['127.0.0.1']
        : await resolveWithin(host, 2_000, resolve);
  return addresses?.length ? hostRefused(host, addresses, allowed) : null;
}
