import http from 'node:http';
import https from 'node:https';
import { WEBHOOKS } from '@console/domain';
import { isIP } from 'node:net';
import { bare, guardedLookup, hostRefused, schemeAllowed, type AllowedHosts, type Resolve } from './address.ts';

/** What one attempt gave: the status (null when no answer came), its time, the answer's start, or why it failed. */
export interface AttemptResult {
  status: number | null;
  ms: number;
  body: string | null;
  error: string | null;
  /** No answer came within the timeout. */
  timedOut?: boolean;
}

/** Bytes of an answer read at most; the rest is never read, so a huge answer costs no memory. */
const READ_BYTES = WEBHOOKS.responseBodyKeptChars * 4;

/**
 * Posts deliveries with keep-alive connections, each connection made to an address checked by
 * `guardedLookup` for a name, and before any connection for an IP literal (never a private
 * one unless allowed, as the configuration stands now, whatever it allowed when the endpoint
 * was saved). A refused target is never connected to, so no answer of it is ever kept.
 * Redirects are not followed (a 3xx is a failed attempt); an attempt ends after `timeoutMs`
 * whatever the receiver does; only the start of the answer is read.
 */
export function createSender({
  allowed,
  timeoutMs = WEBHOOKS.timeoutMs,
  sockets = 64,
  resolve: resolveNames,
}: {
  allowed: AllowedHosts;
  timeoutMs?: number;
  sockets?: number;
  /** How names are resolved (default node's dns.lookup). */
  resolve?: Resolve;
}) {
  const lookup = guardedLookup(allowed, resolveNames) as unknown as http.AgentOptions['lookup'];
  const agents = {
    'http:': new http.Agent({ keepAlive: true, maxSockets: sockets, lookup } as http.AgentOptions),
    'https:': new https.Agent({ keepAlive: true, maxSockets: sockets, lookup } as https.AgentOptions),
  };

  function post(rawUrl: string, headers: Record<string, string>, body: string): Promise<AttemptResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    let url: URL;
    try {
      url = new URL(rawUrl);
    } catch {
      return Promise.resolve({ status: null, ms: 0, body: null, error: 'The URL is not valid.' });
    }
    if (!schemeAllowed(url, allowed)) return Promise.resolve({ status: null, ms: 0, body: null, error: 'Only https URLs are sent to.' });
    // Node connects to an IP literal without calling `lookup`: the literal is checked here.
    const host = bare(url.hostname);
    const refused = isIP(host) !== 0 ? hostRefused(host, [host], allowed) : null;
    if (refused) return Promise.resolve({ status: null, ms: 0, body: null, error: `Refused: ${refused.message}.` });
    const transport = url.protocol === 'https:' ? https : http;
    return new Promise((resolve) => {
      let settled = false;
      const finish = (result: Omit<AttemptResult, 'ms'>) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve({ ...result, ms: elapsed() });
      };
      const request = transport.request(
        url,
        {
          method: 'POST',
          agent: agents[url.protocol as 'http:' | 'https:'],
          headers: {
            ...headers,
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body).toString(),
            'user-agent': 'org-console-webhooks/1',
          },
        },
        (response) => {
          const status = response.statusCode ?? 0;
          const chunks: Buffer[] = [];
          let read = 0;
          const done = () => {
            const text = Buffer.concat(chunks).toString('utf8').slice(0, WEBHOOKS.responseBodyKeptChars);
            const error =
              status >= 300 && status < 400
                ? `Redirect to ${String(response.headers.location ?? '(no location)').slice(0, 200)} not followed.`
                : null;
            finish({ status, body: text || null, error });
          };
          response.on('data', (chunk: Buffer) => {
            if (read >= READ_BYTES) return;
            chunks.push(chunk);
            read += chunk.length;
            if (read >= READ_BYTES) {
              done();
              // The rest of a long answer is not read: the connection is closed instead.
              response.destroy();
            }
          });
          response.on('end', done);
          response.on('error', done);
          response.on('close', done);
        },
      );
      const timer = setTimeout(() => {
        finish({ status: null, body: null, error: `No answer within ${timeoutMs / 1000} s.`, timedOut: true });
        request.destroy();
      }, timeoutMs);
      request.on('error', (error: NodeJS.ErrnoException) => {
        const message =
          error.code === 'EWEBHOOKADDRESS'
            ? `Refused: ${error.message}.`
            : error.code === 'ENOTFOUND'
              ? `${url.hostname} could not be resolved.`
              : `${error.code ?? 'Error'}: ${error.message}`.slice(0, 300);
        finish({ status: null, body: null, error: message });
      });
      request.end(body);
    });
  }

  return {
    post,
    close() {
      agents['http:'].destroy();
      agents['https:'].destroy();
    },
  };
}
export type Sender = ReturnType<typeof createSender>;
