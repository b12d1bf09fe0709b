import http from 'node:http';
import https from 'node:https';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import { bare, isPublicAddress, type AllowedHosts } from './addresses.ts';

/** An identity provider's answers (discovery, keys, tokens, userinfo) are small: more than this is refused. */
const MAX_ANSWER_BYTES = 512 * 1024;
/** A provider that has not answered within this is treated as unreachable. */
const TIMEOUT_MS = 10_000;

/** Why the server will not send a request to an address: what an admin sees in the refusal. */
export class ProviderAddressRefused extends Error {}

/** A request body as openid-client hands it to its fetch. */
type Body = ArrayBuffer | null | ReadableStream | string | Uint8Array | undefined | URLSearchParams;

/**
 * Why an issuer may not be registered, or null: http to a host the configuration does not
 * allow (https otherwise), or an IP literal that is loopback, private or link-local. A name is
 * checked as each connection is made (`providerFetch`), so a later DNS change cannot slip by.
 */
export function issuerProblem(issuer: URL, allowed: AllowedHosts): string | null {
  const host = bare(issuer.hostname);
  if (issuer.protocol !== 'https:' && !(issuer.protocol === 'http:' && allowed.host(host))) return 'https_only';
  if (allowed.host(host)) return null;
  if (isIP(host) !== 0 && !isPublicAddress(host) && !allowed.address(host)) return 'private';
  if (host === 'localhost' || host.endsWith('.localhost')) return 'private';
  return null;
}

/**
 * The fetch openid-client makes every request with (discovery, keys, tokens, userinfo): a
 * provider's metadata names the addresses it is sent to next, so each one is held to the
 * same rules as the issuer. Each connection goes to an address checked as it is resolved
 * (none private or loopback unless the configuration allows it), http only to an allowed host,
 * no redirect followed, the answer bounded in size and time.
 */
export function providerFetch(allowed: AllowedHosts) {
  const lookup = (
    hostname: string,
    options: { all?: boolean } | number,
    callback: (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
  ) => {
    const host = bare(hostname);
    dnsLookup(host, { all: true, verbatim: true }, (error, addresses) => {
      if (error) return callback(error, '', 4);
      if (
        !allowed.host(host) &&
        (addresses.length === 0 || addresses.some((a) => !isPublicAddress(a.address) && !allowed.address(a.address)))
      ) {
        return callback(new ProviderAddressRefused(`${host} resolves to a private or loopback address`), '', 4);
      }
      if (typeof options === 'object' && options.all) return callback(null, addresses);
      return callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
  const agents = {
    'http:': new http.Agent({ keepAlive: true, lookup } as http.AgentOptions),
    'https:': new https.Agent({ keepAlive: true, lookup } as https.AgentOptions),
  };

  return async function fetchFromProvider(
    input: string,
    init: { body?: Body; headers: Record<string, string>; method: string; signal?: AbortSignal },
  ): Promise<Response> {
    const url = new URL(input);
    const host = bare(url.hostname);
    const problem = issuerProblem(url, allowed);
    if (problem === 'https_only') throw new ProviderAddressRefused(`${url.origin} is not https`);
    // Node connects to an IP literal without looking it up: the literal is checked here.
    if (problem === 'private') throw new ProviderAddressRefused(`${host} is a private or loopback address`);
    const body = await bodyBytes(init.body);
    return new Promise<Response>((resolve, reject) => {
      const request = (url.protocol === 'https:' ? https : http).request(
        url,
        {
          method: init.method,
          agent: agents[url.protocol as 'http:' | 'https:'],
          headers: { ...init.headers, ...(body && { 'content-length': String(body.length) }) },
          timeout: TIMEOUT_MS,
          signal: init.signal,
        },
        (response) => {
          const chunks: Buffer[] = [];
          let read = 0;
          response.on('data', (chunk: Buffer) => {
            read += chunk.length;
            if (read > MAX_ANSWER_BYTES) {
              response.destroy();
              reject(new Error(`${url.origin} answered more than ${MAX_ANSWER_BYTES / 1024} KiB`));
            } else chunks.push(chunk);
          });
          response.on('error', reject);
          response.on('end', () => {
            const status = response.statusCode ?? 502;
            const headers = new Headers();
            for (const [name, value] of Object.entries(response.headers)) {
              for (const one of [value ?? []].flat()) headers.append(name, one);
            }
            const empty = status === 204 || status === 205 || status === 304;
            resolve(new Response(empty ? null : Buffer.concat(chunks), { status, headers }));
          });
        },
      );
      request.on('timeout', () => request.destroy(new Error(`${url.origin} did not answer within ${TIMEOUT_MS / 1000} s`)));
      request.on('error', reject);
      request.end(body ?? undefined);
    });
  };
}

async function bodyBytes(body: Body): Promise<Buffer | null> {
  if (body === undefined || body === null) return null;
  if (typeof body === 'string') return Buffer.from(body);
  if (body instanceof URLSearchParams) return Buffer.from(body.toString());
  if (body instanceof ArrayBuffer || body instanceof Uint8Array) return Buffer.from(body as Uint8Array);
  return Buffer.from(await new Response(body).arrayBuffer());
}
