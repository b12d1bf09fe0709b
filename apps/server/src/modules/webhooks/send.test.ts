import { createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allowedHosts } from './address.ts';
import { createSender } from './send.ts';

/** A TCP listener on 127.0.0.1 that only counts the connections made to it (and closes them). */
let connections = 0;
const listener = createServer((socket: Socket) => {
  connections++;
  socket.on('error', () => {});
  socket.destroy();
});
let port = 0;
beforeAll(async () => {
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  port = (listener.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => listener.close(() => resolve())));

describe('sending to an IP literal', () => {
  it('checks the address at delivery as for a name: a private literal the server no longer allows is never connected to', async () => {
    // Saved while the configuration allowed 127.0.0.1; it allows nothing now.
    const sender = createSender({ allowed: allowedHosts([]), timeoutMs: 2_000 });
    const before = connections;
    try {
      for (const url of [
        `https://127.0.0.1:${port}/hooks`,
        `https://[::ffff:127.0.0.1]:${port}/hooks`,
        `https://[::127.0.0.1]:${port}/x`,
      ]) {
        const result = await sender.post(url, {}, '{}');
        expect(result, url).toMatchObject({ status: null, body: null });
        expect(result.error, url).toMatch(/^Refused: /);
      }
      expect(connections).toBe(before);
    } finally {
      sender.close();
    }
  });

  it('still connects to a literal the configuration allows', async () => {
    const sender = createSender({ allowed: allowedHosts(['127.0.0.1']), timeoutMs: 2_000 });
    const before = connections;
    try {
      const result = await sender.post(`https://127.0.0.1:${port}/hooks`, {}, '{}');
      // Not a TLS server: the attempt fails, after connecting.
      expect(result.status).toBeNull();
      expect(result.error).not.toMatch(/^Refused/);
      expect(connections).toBe(before + 1);
    } finally {
      sender.close();
    }
  });
});
