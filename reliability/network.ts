/**
 * Where the multi-host suite's hosts live. As root with `ip netns`, each host is a network
 * namespace of its own, joined to this machine by a veth pair (10.231.N.2 inside, 10.231.N.1
 * outside, its default route out through it): hosts that share no network stack, as two
 * machines. Otherwise (no root, no `ip`, or MULTI_HOST_NETWORK=loopback) each host is bound to
 * its own loopback address, 127.0.0.2, 127.0.0.3, …
 *
 * `outside` is the address at which every host reaches this machine: the database (through a
 * forwarder to the local PostgreSQL, which listens on 127.0.0.1 only) and the suite's own
 * servers (the webhook receiver) listen there.
 */
import { execFileSync } from 'node:child_process';
import { createServer, connect, type Server } from 'node:net';
import { socketSet, splice } from './sockets.ts';

export interface Network {
  kind: 'namespaces' | 'loopback';
  /** Each host's address. */
  addresses: string[];
  /** This machine, as the hosts reach it. */
  outside: string;
  /** The command line that runs `argv` as host `n`. */
  command(n: number, argv: string[]): string[];
  /** The URL of `url`'s database as the hosts reach it. */
  databaseUrl(url: string): string;
  close(): Promise<void>;
}

const ip = (...args: string[]) => execFileSync('ip', args, { stdio: ['ignore', 'ignore', 'pipe'] });

/** Hosts on loopback addresses of their own (also for the bench: no forwarder in the bench's process). */
export function loopback(count: number): Network {
  return {
    kind: 'loopback',
    addresses: Array.from({ length: count }, (_, n) => `127.0.0.${n + 2}`),
    outside: '127.0.0.1',
    command: (_, argv) => argv,
    databaseUrl: (url) => url,
    close: async () => {},
  };
}

/** Forwards connections to `outside`:port to the database server of `url`. */
async function forwarder(outside: string, url: string): Promise<{ server: Server; port: number; destroyAll(): void }> {
  const target = new URL(url);
  const { track, destroyAll } = socketSet();
  const server = createServer((client) => {
    track(client);
    const upstream = connect(Number(target.port || 5432), target.hostname);
    track(upstream);
    splice(client, upstream);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, outside, () => resolve());
  });
  return { server, port: (server.address() as { port: number }).port, destroyAll };
}

async function namespaces(count: number, databaseServerUrl: string): Promise<Network> {
  const names = Array.from({ length: count }, (_, n) => `mh${process.pid}n${n}`);
  /** What to delete at the end: each veth pair (by its outside end), then each namespace. */
  const made: string[][] = [];
  const remove = () => {
    // A namespace outlives its deletion while sockets in it linger (TIME_WAIT), and its veth
    // pair with it: the pair is deleted first, so that its address is free at once.
    for (const args of made.reverse()) {
      try {
        ip(...args);
      } catch {
        // already gone
      }
    }
  };
  try {
    for (const [n, name] of names.entries()) {
      ip('netns', 'add', name);
      made.push(['netns', 'del', name]);
      const [out, inside] = [`mh${process.pid}o${n}`, `mh${process.pid}i${n}`];
      ip('link', 'add', out, 'type', 'veth', 'peer', 'name', inside);
      made.push(['link', 'del', out]);
      ip('link', 'set', inside, 'netns', name);
      ip('addr', 'add', `10.231.${n}.1/24`, 'dev', out);
      ip('link', 'set', out, 'up');
      ip('-n', name, 'addr', 'add', `10.231.${n}.2/24`, 'dev', inside);
      ip('-n', name, 'link', 'set', inside, 'up');
      ip('-n', name, 'link', 'set', 'lo', 'up');
      ip('-n', name, 'route', 'add', 'default', 'via', `10.231.${n}.1`);
    }
  } catch (error) {
    remove();
    throw error;
  }
  const outside = '10.231.0.1';
  const forward = await forwarder(outside, databaseServerUrl);
  return {
    kind: 'namespaces',
    addresses: names.map((_, n) => `10.231.${n}.2`),
    outside,
    command: (n, argv) => ['ip', 'netns', 'exec', names[n]!, ...argv],
    databaseUrl: (url) => {
      const moved = new URL(url);
      moved.hostname = outside;
      moved.port = String(forward.port);
      return moved.toString();
    },
    async close() {
      forward.destroyAll();
      await new Promise<void>((resolve) => forward.server.close(() => resolve()));
      remove();
    },
  };
}

/** The hosts' network: namespaces where this machine allows making them, loopback addresses otherwise. */
export async function makeNetwork(count: number, databaseServerUrl: string): Promise<Network> {
  if (process.env.MULTI_HOST_NETWORK === 'loopback' || process.getuid?.() !== 0) return loopback(count);
  try {
    return await namespaces(count, databaseServerUrl);
  } catch (error) {
    if (process.env.MULTI_HOST_NETWORK === 'namespaces') throw error;
    return loopback(count);
  }
}
