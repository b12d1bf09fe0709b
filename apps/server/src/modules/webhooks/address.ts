import { BlockList, isIP } from 'node:net';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';

/**
 * Addresses a webhook is never sent to, unless the server allows them by configuration:
 * unspecified, loopback, private, shared (carrier-grade NAT), link-local (cloud metadata
 * services live there: 169.254.169.254, fd00:ec2::254), multicast, reserved and
 * documentation ranges, and IPv6's unique-local, site-local and IPv4-mapped forms of them.
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
  ['::', 128],
  ['::1', 128],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const)
  BLOCKED.addSubnet(net, prefix, 'ipv6');

/** The IPv4 address an IPv6 one carries (mapped ::ffff:a.b.c.d, or NAT64 64:ff9b::a.b.c.d), if any. */
function embeddedIpv4(address: string): string | null {
  const match = /^(?:::ffff:|64:ff9b::)(?:0:)?(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (match) return match[1]!;
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (!hex) return null;
  const high = Number.parseInt(hex[1]!, 16);
  const low = Number.parseInt(hex[2]!, 16);
  return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
}

/** Whether an IP address is public: none of the blocked ranges, in either form. */
export function isPublicAddress(address: string): boolean {
  const version = isIP(address);
  if (version === 0) return false;
  if (version === 4) return !BLOCKED.check(address, 'ipv4');
  const v4 = embeddedIpv4(address);
  if (v4) return !BLOCKED.check(v4, 'ipv4');
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

/** A URL's host without the brackets of an IPv6 literal. */
export const bare = (hostname: string) => hostname.replace(/^\[|\]$/g, '').toLowerCase();

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
 * A `lookup` for http(s).request that resolves the host and refuses the connection unless every
 * address it resolves to is public or allowed. It runs for each new connection, so the check
 * holds after a DNS change, and the connection goes to the very address checked (no second
 * resolution an attacker could answer differently).
 */
export function guardedLookup(allowed: AllowedHosts) {
  return (
    hostname: string,
    options: { family?: number | string; all?: boolean } | number,
    callback: (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
  ) => {
    const host = bare(hostname);
    dnsLookup(host, { all: true, verbatim: true }, (error, addresses) => {
      if (error) return callback(error, '', 4);
      const refused = allowed.host(host) ? [] : addresses.filter((a) => !isPublicAddress(a.address) && !allowed.address(a.address));
      if (refused.length > 0 || addresses.length === 0) {
        const refusal = new AddressRefused(host, addresses.length === 0 ? 'unresolvable' : 'private') as unknown as NodeJS.ErrnoException;
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
export function resolveWithin(hostname: string, ms: number): Promise<string[] | null> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(null), ms);
    dnsLookup(bare(hostname), { all: true, verbatim: true }, (error, addresses) => {
      clearTimeout(timer);
      resolve(error ? null : addresses.map((a) => a.address));
    });
  });
}

/**
 * Why an endpoint URL may not be registered, or null: plain http to a host the server does not
 * allow, or a host that is (or resolves to) a loopback, private, link-local or metadata
 * address. A host that does not resolve now is accepted: its deliveries are checked as each
 * connection is made.
 */
export async function urlProblem(raw: string, allowed: AllowedHosts): Promise<AddressRefused | null> {
  const url = new URL(raw);
  const host = bare(url.hostname);
  if (!schemeAllowed(url, allowed)) return new AddressRefused(host, 'https_only');
  if (allowed.host(host)) return null;
  const addresses =
    isIP(host) !== 0 ? [host] : host === 'localhost' || host.endsWith('.localhost') ? ['127.0.0.1'] : await resolveWithin(host, 2_000);
  if (!addresses) return null;
  return addresses.every((a) => isPublicAddress(a) || allowed.address(a)) ? null : new AddressRefused(host, 'private');
}
