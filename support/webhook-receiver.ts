import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface Received {
  id: string;
  headers: Record<string, string>;
  body: string;
  json: any;
  /** Whether the signature verified with the secret the receiver holds then (standardwebhooks). */
  verified: boolean;
}

type Answer = (request: IncomingMessage, response: ServerResponse, received: Received) => void;

/**
 * A real local receiver: it records every delivery, verifies its signature with the
 * `standardwebhooks` package under the secrets it is given, and answers as the test says
 * (200 by default).
 */
export async function startReceiver() {
  const received: Received[] = [];
  let secrets: string[] = [];
  let answer: Answer = (_request, response) => response.end('ok');
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const headers = Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k, String(v)]));
      const verified = secrets.some((secret) => {
        try {
          new Webhook(secret).verify(body, headers);
          return true;
        } catch {
          return false;
        }
      });
      let json: unknown = null;
      try {
        json = JSON.parse(body);
      } catch {
        // kept as text
      }
      const entry = { id: headers['webhook-id'] ?? '', headers, body, json, verified };
      received.push(entry);
      answer(request, response, entry);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: (path = '/hooks') => `http://127.0.0.1:${port}${path}`,
    received,
    trust(...list: string[]) {
      secrets = list;
    },
    answer(next: Answer) {
      answer = next;
    },
    of(type: string) {
      return received.filter((r) => r.json?.type === type);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
export type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/** Waits until `check` holds (every 25 ms, up to `ms`), or fails with `what`. */
export async function until(check: () => boolean | Promise<boolean>, what: string, ms = 10_000) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`Timed out waiting for ${what}`);
}
