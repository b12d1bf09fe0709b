import { createServer, connect, type Server } from 'node:net';
import { socketSet, splice } from './sockets.ts';

/**
 * How the database goes away:
 * - `refuse`: as when PostgreSQL stops or crashes: open connections are closed and new
 *   ones refused;
 * - `blackhole`: as when its host stops answering: open connections are closed and new
 *   ones are accepted but never answered (the client's connect timeout must end them).
 */
export type CutMode = 'refuse' | 'blackhole';

export interface TcpProxy {
  port: number;
  cut(mode: CutMode): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
}

/** A TCP proxy in front of a server (the database), to cut and restore on demand. */
export async function startProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  let mode: CutMode | 'open' = 'open';
  const { track, destroyAll: dropAll } = socketSet();
  const server: Server = createServer((client) => {
    track(client);
    if (mode !== 'open') return;
    const upstream = connect(target.port, target.host);
    track(upstream);
    splice(client, upstream);
  });
  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  const stopListening = () => new Promise<void>((resolve) => server.close(() => resolve()));

  await listen(0);
  const address = server.address();
  if (typeof address !== 'object' || !address) throw new Error('proxy has no port');
  const port = address.port;
  return {
    port,
    async cut(next) {
      mode = next;
      dropAll();
      if (next === 'refuse') await stopListening();
    },
    async restore() {
      const wasRefusing = mode === 'refuse';
      mode = 'open';
      // Connections accepted while blackholed were never answered: end them.
      dropAll();
      if (wasRefusing) await listen(port);
    },
    async close() {
      mode = 'refuse';
      dropAll();
      if (server.listening) await stopListening();
    },
  };
}
