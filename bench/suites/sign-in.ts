import { loadavg } from 'node:os';
import { hashPassword, verifyPassword } from '../../apps/server/src/lib/secrets.ts';
import { HTTP_COLUMNS, measure, round } from '../lib/http.ts';
import { BENCH_ADMIN, withServer } from '../lib/server.ts';
import type { Row, Suite } from '../lib/types.ts';

export const signIn: Suite = {
  name: 'sign-in',
  title: 'Sign-in',
  about:
    '`POST /api/auth/sign-in` with a correct password, 10 connections. Each request verifies an ' +
    'argon2id hash (19 MiB, 2 passes), which dominates the figure: sign-in is bound by CPU ' +
    'cores, and a faster database changes it little. Besides, each request counts two ' +
    'rate-limit keys in the database and writes a session, a refresh token and the last-login ' +
    'time (7 statements, 4 of them in one transaction). Rate limits are raised for the bench through `buildApp({ rateLimits })`. ' +
    "The last row is the password check alone (the server's `verifyPassword`, same " +
    'parameters, 10 in flight, no HTTP or database, in the bench process): the ceiling for ' +
    'sign-in on this machine; compare its CPU per request with the sign-in rows.',
  columns: HTTP_COLUMNS,
  async run(context) {
    const rows: Row[] = [];
    for (const kind of context.databases) {
      rows.push(
        await withServer(kind, context, (server) => {
          context.log(`sign-in on ${server.database}`);
          return measure(server, {
            name: 'POST /api/auth/sign-in',
            method: 'POST',
            path: '/api/auth/sign-in',
            body: BENCH_ADMIN,
            connections: 10,
            durationSeconds: context.durationSeconds ?? 10,
          });
        }),
      );
    }
    context.log('argon2id verification alone');
    rows.push(await argon2Alone(10, context.durationSeconds ?? 10));
    return { status: 'ok', rows };
  },
};

/** The ceiling: the server's own password check with `concurrency` in flight, no HTTP or database. */
async function argon2Alone(concurrency: number, durationSeconds: number): Promise<Row> {
  const hash = await hashPassword(BENCH_ADMIN.password);
  const latencies: number[] = [];
  const cpuBefore = process.cpuUsage();
  const end = performance.now() + durationSeconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) {
        const start = performance.now();
        if (!(await verifyPassword(hash, BENCH_ADMIN.password))) throw new Error('argon2 verify failed');
        latencies.push(performance.now() - start);
      }
    }),
  );
  const cpu = process.cpuUsage(cpuBefore);
  latencies.sort((a, b) => a - b);
  const at = (q: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!);
  return {
    name: 'argon2id verify alone (reference)',
    database: null,
    connections: concurrency,
    durationSeconds,
    requests: latencies.length,
    rps: round(latencies.length / durationSeconds, 1),
    p50Ms: at(0.5),
    p99Ms: at(0.99),
    errors: 0,
    non2xx: null,
    cpuMsPerRequest: round((cpu.user + cpu.system) / 1000 / Math.max(1, latencies.length), 1),
    loadAverage: round(loadavg()[0]!, 1),
  };
}
