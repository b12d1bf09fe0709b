/**
 * Webhook receivers for the bench, in a process of their own so neither the server nor the
 * load loop shares an event loop with them: BENCH_RECEIVERS (JSON { count }) receivers on
 * 127.0.0.1, each on its own port, each verifying every delivery with the `standardwebhooks`
 * package under its endpoint's secret and answering 200 at once. Reports { ports } over IPC
 * when listening; 'expect' starts a round (counts reset, bodies kept if asked) and 'done'
 * comes back once the round's total has arrived; 'cpu' answers the CPU time used so far.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** One delivery as received, for the bare loop to send again. */
export interface Kept {
  receiver: number;
  id: string;
  body: string;
}

export interface RoundStats {
  received: number;
  verified: number;
  /** Deliveries received more than once (same webhook-id at the same receiver). */
  duplicates: number;
  perReceiver: number[];
  /** Epoch milliseconds of the round's first and last delivery. */
  firstAt: number;
  lastAt: number;
  kept: Kept[];
}

export type ReceiverRequest =
  | { type: 'expect'; secrets: string[]; total: number; keep: boolean }
  | { type: 'stats' }
  | { type: 'cpu' }
  | { type: 'stop' };

export type ReceiverMessage =
  | { type: 'ready'; ports: number[] }
  | { type: 'expecting' }
  | { type: 'done'; stats: RoundStats }
  | { type: 'stats'; stats: RoundStats }
  | { type: 'cpu'; micros: number };

const { count } = JSON.parse(process.env.BENCH_RECEIVERS ?? '{"count":1}') as { count: number };
process.on('disconnect', () => process.exit(1));

let verifiers: (Webhook | null)[] = [];
let total = 0;
let keep = false;
let stats: RoundStats = fresh();
let seen: Set<string>[] = [];

function fresh(): RoundStats {
  return { received: 0, verified: 0, duplicates: 0, perReceiver: new Array(count).fill(0), firstAt: 0, lastAt: 0, kept: [] };
}

function receive(receiver: number, body: string, headers: Record<string, string>) {
  const now = Date.now();
  if (stats.received === 0) stats.firstAt = now;
  stats.lastAt = now;
  stats.received++;
  stats.perReceiver[receiver]!++;
  const id = headers['webhook-id'] ?? '';
  if (seen[receiver]!.has(id)) stats.duplicates++;
  else seen[receiver]!.add(id);
  try {
    verifiers[receiver]?.verify(body, headers);
    if (verifiers[receiver]) stats.verified++;
  } catch {
    // counted as not verified
  }
  if (keep) stats.kept.push({ receiver, id, body });
  if (total > 0 && stats.received === total) process.send?.({ type: 'done', stats } satisfies ReceiverMessage);
}

const servers: Server[] = [];
for (let n = 0; n < count; n++) {
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      response.end('ok');
      receive(n, Buffer.concat(chunks).toString('utf8'), request.headers as Record<string, string>);
    });
  });
  server.keepAliveTimeout = 60_000;
  servers.push(server);
}
await Promise.all(servers.map((server) => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))));
process.send?.({ type: 'ready', ports: servers.map((server) => (server.address() as AddressInfo).port) } satisfies ReceiverMessage);

process.on('message', (request: ReceiverRequest) => {
  if (request.type === 'expect') {
    verifiers = request.secrets.map((secret) => (secret ? new Webhook(secret) : null));
    total = request.total;
    keep = request.keep;
    stats = fresh();
    seen = Array.from({ length: count }, () => new Set<string>());
    process.send?.({ type: 'expecting' } satisfies ReceiverMessage);
  } else if (request.type === 'stats') {
    process.send?.({ type: 'stats', stats: { ...stats, kept: [] } } satisfies ReceiverMessage);
  } else if (request.type === 'cpu') {
    const usage = process.cpuUsage();
    process.send?.({ type: 'cpu', micros: usage.user + usage.system } satisfies ReceiverMessage);
  } else if (request.type === 'stop') {
    for (const server of servers) server.closeAllConnections();
    void Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve)))).then(() => process.exit(0));
  }
});
