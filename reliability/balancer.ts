import { connect, createServer, type Server } from 'node:net';
import { socketSet, splice } from './sockets.ts';

export interface Balancer {
  port: number;
  url: string;
  /** How many connections each target was given, in the order of `targets`. */
  connections(): number[];
  close(): Promise<void>;
}

/**
 * A round-robin TCP load balancer on 127.0.0.1, as a small stand-in for the one in front of
 * several server processes: each new connection goes to the next target; a target that
 * refuses (a process killed and not yet back) is skipped for the next one, as a load
 * balancer's health check would. A connection already open to a process that dies is lost
 * with it, as behind a real one.
 */
export async function startBalancer(targets: { host: string; port: number }[]): Promise<Balancer> {
  let next = 0;
  const given = targets.map(() => 0);
  const { track, destroyAll } = socketSet();
  const server: Server = createServer((client) => {
    track(client);
    client.pause();
    const attempt = (tries: number) => {
      if (tries === targets.length) return client.destroy();
      const index = next++ % targets.length;
      const target = targets[index]!;
      const upstream = connect(target.port, target.host);
      const refused = () => attempt(tries + 1);
      upstream.once('error', refused);
      upstream.once('connect', () => {
        upstream.off('error', refused);
        given[index]!++;
        track(upstream);
        splice(client, upstream);
        client.resume();
      });
    };
    attempt(0);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  if (typeof address !== 'object' || !address) throw new Error('balancer has no port');
  return {
    port: address.port,
    url: `http://127.0.0.1:${address.port}`,
    connections: () => [...given],
    async close() {
      destroyAll();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
