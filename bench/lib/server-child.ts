/**
 * The API server under test, in its own process so the load generator does not share
 * its event loop. Reads BENCH_SERVER (JSON), reports { port, database } over IPC when
 * listening, answers 'cpu' with the CPU time used so far, and closes on 'stop'.
 * With `processes` above 1 it runs as `main.ts serve` does with CONSOLE_WORKERS: this
 * process migrates and forks that many node:cluster workers sharing one port, and its CPU
 * figure is its own plus every worker's (the round-robin hand-off costs the primary CPU).
 */
import cluster, { type Worker } from 'node:cluster';
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import Fastify from 'fastify';
import { createSecretKey } from 'node:crypto';
import { jwtVerify } from 'jose';
import { CompiledQuery, sql } from 'kysely';
import pg from 'pg';
import { RATE_LIMITS } from '@console/domain';
import { buildApp } from '../../apps/server/src/app.ts';
import type { ContextOptions } from '../../apps/server/src/context.ts';
import { loadConfig } from '../../apps/server/src/config.ts';
import { machineLimitSettings } from '../../apps/server/src/lib/machine-limits.ts';
import { createPGlite, fromPGlite, openDatabase, type Database } from '../../apps/server/src/db/connection.ts';
import { ensureFirstHouseAdmin } from '../../apps/server/src/db/bootstrap.ts';
import { migrate } from '../../apps/server/src/db/migrate.ts';
import { freePort } from '../../support/net.ts';

export interface ChildOptions {
  /** A PostgreSQL database to use, or null for an in-memory PGlite. */
  databaseUrl: string | null;
  admin: { email: string; password: string };
  /** Server processes (PostgreSQL only above 1). */
  processes: number;
  /** The JWT secret, shared by every server of a bench run so one token works on each. */
  jwtSecret: string;
  /**
   * Instead of the API, the bare server: Fastify, a pg pool and jose, nothing else. GET
   * /bare/<route> verifies the bearer token as the API does, then runs that route's
   * statements (captured from the API) one after the other, as named prepared statements,
   * and answers every one's rows.
   */
  bare?: { statements: Record<string, Statement[]> };
  /**
   * Webhooks: the hosts the server may send to although they are private (WEBHOOK_ALLOWED_HOSTS,
   * the bench's local receivers), and the dispatcher's settings (its defaults when left out).
   */
  webhooks?: { allowedHosts: string[]; settings?: ContextOptions['webhooks'] };
}

/** One statement the API sent to PostgreSQL, as the driver got it. */
export interface Statement {
  text: string;
  values: unknown[];
}

export type ChildMessage =
  | { type: 'ready'; port: number; database: string }
  | { type: 'cpu'; micros: number }
  | { type: 'profiling' }
  | { type: 'profiled'; file: string }
  | { type: 'captured'; statements: Statement[] }
  | { type: 'rows'; rows: Record<string, unknown>[] }
  | { type: 'sql-error'; message: string };

/** Asked of the server process: start V8's CPU profiler, or stop it and write the profile to `file`. */
export type ProfileRequest =
  | { type: 'profile-start' }
  | { type: 'profile-stop'; file: string }
  | { type: 'capture-start' }
  | { type: 'capture-stop' }
  | { type: 'sql'; text: string; values?: unknown[] };

/**
 * The statements the API sends between capture-start and capture-stop: pg's Client.query
 * (what Kysely's driver calls) is wrapped to record each one.
 */
let captured: Statement[] | null = null;
const query = pg.Client.prototype.query as (...args: unknown[]) => unknown;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  // Kysely sends (text, values); the server's prepared statements go as { name, text, values }.
  const [first, second] = args;
  if (captured && typeof first === 'string') captured.push({ text: first, values: (second as unknown[] | undefined) ?? [] });
  else if (captured && first && typeof first === 'object' && 'text' in first) {
    const config = first as { text: string; values?: unknown[] };
    captured.push({ text: config.text, values: config.values ?? [] });
  }
  return query.apply(this, args);
} as typeof pg.Client.prototype.query;

/** The API's database in this process (one server process only), for the bench's 'sql' requests. */
let served: Database | null = null;

/** The profiler of this process, started and stopped around a measured run only (not the start-up). */
let session: Session | null = null;
async function profileRequest(request: ProfileRequest): Promise<ChildMessage> {
  if (request.type === 'sql') {
    // A statement on the server's own database (the bench's only way into an in-memory PGlite).
    try {
      const result = await served!.db.executeQuery(CompiledQuery.raw(request.text, request.values ?? []));
      return { type: 'rows', rows: result.rows as Record<string, unknown>[] };
    } catch (error) {
      return { type: 'sql-error', message: error instanceof Error ? error.message : String(error) };
    }
  }
  if (request.type === 'capture-start') {
    captured = [];
    return { type: 'profiling' };
  }
  if (request.type === 'capture-stop') {
    const statements = captured ?? [];
    captured = null;
    return { type: 'captured', statements };
  }
  if (request.type === 'profile-start') {
    session = new Session();
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 500 });
    await session.post('Profiler.start');
    return { type: 'profiling' };
  }
  const { profile } = await session!.post('Profiler.stop');
  session!.disconnect();
  session = null;
  writeFileSync(request.file, JSON.stringify(profile));
  return { type: 'profiled', file: request.file };
}

const HIGH = 1_000_000_000;
const options = JSON.parse(process.env.BENCH_SERVER ?? 'null') as ChildOptions;
process.on('disconnect', () => process.exit(1));

/** All threads of this process: the event loop and argon2's worker threads. */
const ownCpu = () => {
  const usage = process.cpuUsage();
  return usage.user + usage.system;
};

async function open(): Promise<Database> {
  return options.databaseUrl
    ? openDatabase({ databaseUrl: options.databaseUrl, dataDir: tmpdir(), purpose: 'bench' })
    : fromPGlite(await createPGlite());
}

async function describe(database: Database): Promise<string> {
  const { rows } = await sql<{ version: string }>`select current_setting('server_version') as version`.execute(database.db);
  const version = rows[0]?.version ?? '?';
  return database.kind === 'pg' ? `PostgreSQL ${version.split(' ')[0]}` : `PGlite in-memory (PostgreSQL ${version})`;
}

/** The bare server: the same token check and statements as the API, without the API around them. */
async function serveBare(databaseUrl: string, bare: NonNullable<ChildOptions['bare']>, jwtSecret: string, port: number) {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 20 });
  const key = createSecretKey(Buffer.from(jwtSecret, 'utf8'));
  const app = Fastify({ logger: false });
  app.get<{ Params: { route: string } }>('/bare/:route', async (request, reply) => {
    const statements = bare.statements[request.params.route];
    if (!statements) return reply.code(404).send({ error: 'no such route' });
    const token = request.headers.authorization?.split(' ')[1];
    try {
      await jwtVerify(token ?? '', key, {
        algorithms: ['HS256'],
        issuer: 'org-console',
        audience: 'authenticated',
        requiredClaims: ['exp'],
      });
    } catch {
      return reply.code(401).send({ error: 'invalid token' });
    }
    // Named prepared statements, parsed once per connection: the best a plain pg server does.
    // Every statement's rows are sent, as the API sends what it read (a list's page and its count).
    const results: unknown[][] = [];
    for (const [n, statement] of statements.entries()) {
      results.push((await pool.query({ name: `bare_${request.params.route}_${n}`, text: statement.text, values: statement.values })).rows);
    }
    return results;
  });
  app.addHook('onClose', () => pool.end());
  await app.listen({ port, host: '127.0.0.1' });
  return app;
}

async function serve(database: Database, jwtSecret: string, port: number) {
  const app = await buildApp({
    config: loadConfig({ LOG_LEVEL: 'silent', DATA_DIR: tmpdir(), WEBHOOK_ALLOWED_HOSTS: options.webhooks?.allowedHosts.join(',') ?? '' }),
    webhooks: options.webhooks?.settings,
    database,
    jwtSecret,
    logger: false,
    serveWeb: false,
    // The bench signs in thousands of times from one address and e-mail.
    rateLimits: {
      ...RATE_LIMITS,
      signInPerAddress: HIGH,
      signInPerEmail: HIGH,
      recoverPerAddress: HIGH,
      recoverPerEmail: HIGH,
      signInAccountFailures: HIGH,
      // The allocation and webhook suites write through one admin's session thousands of times a minute.
      sessionWritesPerPerson: HIGH,
    },
    // The machine API's limits are counted as in production, and set high enough to refuse nothing.
    machineLimits: machineLimitSettings(100_000),
  });
  await app.listen({ port, host: '127.0.0.1' });
  return app;
}

if (cluster.isWorker) {
  // A worker: the primary has migrated; the secret and port come from it.
  const port = Number(process.env.BENCH_PORT);
  const database = options.bare ? null : await open();
  const app = options.bare
    ? await serveBare(options.databaseUrl!, options.bare, options.jwtSecret, port)
    : await serve(database!, options.jwtSecret, port);
  process.on('message', (received) => {
    if (received === 'cpu') process.send?.({ type: 'cpu', micros: ownCpu() } satisfies ChildMessage);
    if (received === 'stop')
      void app
        .close()
        .then(() => database?.close())
        .then(() => process.exit(0));
  });
} else {
  const database = await open();
  await migrate(database);
  await ensureFirstHouseAdmin(database.db, options.admin);
  const jwtSecret = options.jwtSecret;
  const name = await describe(database);
  let port: number;
  let stop: () => Promise<void>;
  let cpu: () => Promise<number>;
  if (options.processes > 1) {
    await database.close();
    port = await freePort();
    const workers: Worker[] = [];
    const listening = new Promise<void>((resolve, reject) => {
      let n = 0;
      cluster.on('listening', () => ++n === options.processes && resolve());
      cluster.on(
        'exit',
        (worker, code) => workers.includes(worker) && code !== 0 && reject(new Error(`bench worker exited with code ${code}`)),
      );
    });
    for (let n = 0; n < options.processes; n++) {
      workers.push(cluster.fork({ BENCH_PORT: String(port) }));
    }
    await listening;
    const ask = (worker: Worker) =>
      new Promise<number>((resolve) => {
        worker.once('message', (m: ChildMessage) => resolve(m.type === 'cpu' ? m.micros : 0));
        worker.send('cpu');
      });
    cpu = async () => ownCpu() + (await Promise.all(workers.map(ask))).reduce((a, b) => a + b, 0);
    stop = async () => {
      await Promise.all(workers.map((w) => new Promise((resolve) => (w.once('exit', resolve), w.send('stop')))));
    };
  } else if (options.bare) {
    await database.close();
    const app = await serveBare(options.databaseUrl!, options.bare, jwtSecret, 0);
    const address = app.server.address();
    port = typeof address === 'object' && address ? address.port : 0;
    cpu = async () => ownCpu();
    stop = () => app.close();
  } else {
    served = database;
    const app = await serve(database, jwtSecret, 0);
    const address = app.server.address();
    port = typeof address === 'object' && address ? address.port : 0;
    cpu = async () => ownCpu();
    stop = async () => {
      await app.close();
      await database.close();
    };
  }
  process.send?.({ type: 'ready', port, database: name } satisfies ChildMessage);
  process.on('message', (received: unknown) => {
    if (typeof received === 'object' && received && 'type' in received) {
      // One process profiled: the profiler runs where the requests are served.
      if (options.processes > 1) throw new Error('profiling is for one server process');
      void profileRequest(received as ProfileRequest).then((answer) => process.send?.(answer));
      return;
    }
    if (received === 'cpu') void cpu().then((micros) => process.send?.({ type: 'cpu', micros } satisfies ChildMessage));
    if (received === 'stop') void stop().then(() => process.exit(0));
  });
}
