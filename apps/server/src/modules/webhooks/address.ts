import { isIP } from 'node:net';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { bare, isPublicAddress, type AllowedHosts } from '../../lib/addresses.ts';

// The address rules live in lib (identity providers are checked by them too).
export { allowedHosts, bare, isPublicAddress, type AllowedHosts } from '../../lib/addresses.ts';

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
