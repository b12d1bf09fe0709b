import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { supervise } from '../../support/server-process.ts';
import { withFreshPostgres } from './databases.ts';
import type { ChildMessage, ChildOptions, ProfileRequest, Statement } from './server-child.ts';
import type { DatabaseKind, SuiteContext } from './types.ts';

/** For signal handlers: ends the servers still running, before their databases are dropped. */
export { killChildren as killServers } from '../../support/server-process.ts';

export const BENCH_ADMIN = { email: 'bench@example.test', password: 'bench correct horse battery' };
/** One JWT secret for every server of the run: a token signed by one is good on the next (and on the bare server). */
const JWT_SECRET = randomBytes(32).toString('hex');

export interface BenchServer {
  url: string;
  /** Server processes answering (node:cluster workers above 1). */
  processes: number;
  /** Which database answered, e.g. "PostgreSQL 15.20". */
  database: string;
  /** The server's PostgreSQL database (bench_<random>), for suites that fill it; null on PGlite. */
  databaseUrl: string | null;
  /** CPU time the server process has used so far (all its threads), in microseconds. */
  cpuMicros(): Promise<number>;
  /** Starts V8's CPU profiler in the server (one process only). */
  profileStart(): Promise<void>;
  /** Stops it and writes the profile (.cpuprofile JSON) to `file`. */
  profileStop(file: string): Promise<void>;
  /** Records every statement the API sends to PostgreSQL from now (one process only). */
  captureStart(): Promise<void>;
  /** Stops recording and returns what was sent. */
  captureStop(): Promise<Statement[]>;
  /** Runs one statement on the server's own database, through its own pool or PGlite (one process only), and answers its rows. */
  sql<R = Record<string, unknown>>(text: string, values?: unknown[]): Promise<R[]>;
}

const CHILD = fileURLToPath(new URL('./server-child.ts', import.meta.url));

export interface ServerOptions {
  /** Server processes (PostgreSQL only above 1); 1 when left out. */
  processes?: number;
  /** The bare server with these statements per route, instead of the API. */
  bare?: { statements: Record<string, Statement[]> };
  /** Webhooks: private hosts the dispatcher may send to (the bench's receivers), and its settings. */
  webhooks?: ChildOptions['webhooks'];
}

async function runServer<T>(databaseUrl: string | null, fn: (server: BenchServer) => Promise<T>, serverOptions: ServerOptions): Promise<T> {
  const processes = serverOptions.processes ?? 1;
  const options: ChildOptions = {
    databaseUrl,
    admin: BENCH_ADMIN,
    processes,
    jwtSecret: JWT_SECRET,
    bare: serverOptions.bare,
    webhooks: serverOptions.webhooks,
  };
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
      processes,
      database: ready.database,
      databaseUrl,
      async cpuMicros() {
        const answer = next();
        child.send('cpu');
        const message = await answer;
        if (message.type !== 'cpu') throw new Error(`bench server answered ${message.type} to cpu`);
        return message.micros;
      },
      async profileStart() {
        const answer = next();
        child.send({ type: 'profile-start' } satisfies ProfileRequest);
        if ((await answer).type !== 'profiling') throw new Error('bench server did not start profiling');
      },
      async captureStart() {
        const answer = next();
        child.send({ type: 'capture-start' } satisfies ProfileRequest);
        await answer;
      },
      async captureStop() {
        const answer = next();
        child.send({ type: 'capture-stop' } satisfies ProfileRequest);
        const message = await answer;
        if (message.type !== 'captured') throw new Error(`bench server answered ${message.type} to capture-stop`);
        return message.statements;
      },
      async sql<R>(text: string, values: unknown[] = []) {
        const answer = next();
        child.send({ type: 'sql', text, values } satisfies ProfileRequest);
        const message = await answer;
        if (message.type === 'sql-error') throw new Error(`bench server's database: ${message.message}\n${text}`);
        if (message.type !== 'rows') throw new Error(`bench server answered ${message.type} to sql`);
        return message.rows as R[];
      },
      async profileStop(file) {
        const answer = next();
        child.send({ type: 'profile-stop', file } satisfies ProfileRequest);
        if ((await answer).type !== 'profiled') throw new Error('bench server did not write its profile');
      },
    });
  } finally {
    await stop({ ask: () => (child.connected ? child.send('stop') : child.kill('SIGTERM')) });
  }
}

/** Starts the API on a fresh database of the given kind, runs `fn`, and tears everything down. */
export function withServer<T>(
  kind: DatabaseKind,
  context: SuiteContext,
  fn: (server: BenchServer) => Promise<T>,
  options: ServerOptions = {},
): Promise<T> {
  if (kind === 'pglite') return runServer(null, fn, options);
  if (!context.databaseUrl) throw new Error('PostgreSQL asked for without DATABASE_URL');
  return withFreshPostgres(context.databaseUrl, (url) => runServer(url, fn, options));
}

/** Starts the API on an existing PostgreSQL database (another run's data), runs `fn`, and stops it. */
export function withServerOn<T>(databaseUrl: string, fn: (server: BenchServer) => Promise<T>, options: ServerOptions = {}): Promise<T> {
  return runServer(databaseUrl, fn, options);
}
