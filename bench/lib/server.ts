import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { supervise } from '../../support/server-process.ts';
import { withFreshPostgres } from './databases.ts';
import type { ChildMessage, ChildOptions } from './server-child.ts';
import type { DatabaseKind, SuiteContext } from './types.ts';

/** For signal handlers: ends the servers still running, before their databases are dropped. */
export { killChildren as killServers } from '../../support/server-process.ts';

export const BENCH_ADMIN = { email: 'bench@example.test', password: 'bench correct horse battery' };

export interface BenchServer {
  url: string;
  /** Which database answered, e.g. "PostgreSQL 15.20". */
  database: string;
  /** The server's PostgreSQL database (bench_<random>), for suites that fill it; null on PGlite. */
  databaseUrl: string | null;
  /** CPU time the server process has used so far (all its threads), in microseconds. */
  cpuMicros(): Promise<number>;
}

const CHILD = fileURLToPath(new URL('./server-child.ts', import.meta.url));

async function runServer<T>(databaseUrl: string | null, fn: (server: BenchServer) => Promise<T>): Promise<T> {
  const options: ChildOptions = { databaseUrl, admin: BENCH_ADMIN };
  const child = fork(CHILD, [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, BENCH_SERVER: JSON.stringify(options) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const { exited, stop } = supervise(child);
  try {
    const next = () => new Promise<ChildMessage>((resolve) => child.once('message', (m) => resolve(m as ChildMessage)));
    const ready = await Promise.race([
      next(),
      exited.then(({ code }) => Promise.reject(new Error(`bench server exited with code ${code} before listening`))),
    ]);
    if (ready.type !== 'ready') throw new Error(`bench server said ${ready.type} first`);
    return await fn({
      url: `http://127.0.0.1:${ready.port}`,
      database: ready.database,
      databaseUrl,
      async cpuMicros() {
        const answer = next();
        child.send('cpu');
        const message = await answer;
        if (message.type !== 'cpu') throw new Error(`bench server answered ${message.type} to cpu`);
        return message.micros;
      },
    });
  } finally {
    await stop({ ask: () => (child.connected ? child.send('stop') : child.kill('SIGTERM')) });
  }
}

/** Starts the API on a fresh database of the given kind, runs `fn`, and tears everything down. */
export function withServer<T>(kind: DatabaseKind, context: SuiteContext, fn: (server: BenchServer) => Promise<T>): Promise<T> {
  if (kind === 'pglite') return runServer(null, fn);
  if (!context.databaseUrl) throw new Error('PostgreSQL asked for without DATABASE_URL');
  return withFreshPostgres(context.databaseUrl, (url) => runServer(url, fn));
}
