/**
 * The API server under test, in its own process so the load generator does not share
 * its event loop. Reads BENCH_SERVER (JSON), reports { port, database } over IPC when
 * listening, and closes on the message 'stop'.
 */
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { sql } from 'kysely';
import { RATE_LIMITS } from '@console/domain';
import { buildApp } from '../../apps/server/src/app.ts';
import { loadConfig } from '../../apps/server/src/config.ts';
import { createPGlite, fromPGlite, openDatabase } from '../../apps/server/src/db/connection.ts';
import { ensureFirstHouseAdmin } from '../../apps/server/src/db/bootstrap.ts';
import { migrate } from '../../apps/server/src/db/migrate.ts';

export interface ChildOptions {
  /** A PostgreSQL database to use, or null for an in-memory PGlite. */
  databaseUrl: string | null;
  admin: { email: string; password: string };
}

export type ChildMessage = { type: 'ready'; port: number; database: string } | { type: 'cpu'; micros: number };

const HIGH = 1_000_000_000;
const options = JSON.parse(process.env.BENCH_SERVER ?? 'null') as ChildOptions;
process.on('disconnect', () => process.exit(1));

const database = options.databaseUrl
  ? await openDatabase({ databaseUrl: options.databaseUrl, dataDir: tmpdir(), purpose: 'bench' })
  : fromPGlite(await createPGlite());
await migrate(database);
await ensureFirstHouseAdmin(database.db, options.admin);
const app = await buildApp({
  config: loadConfig({ LOG_LEVEL: 'silent', DATA_DIR: tmpdir() }),
  database,
  jwtSecret: randomBytes(32).toString('hex'),
  logger: false,
  serveWeb: false,
  // The bench signs in thousands of times from one address and e-mail.
  rateLimits: { ...RATE_LIMITS, signInPerAddress: HIGH, signInPerEmail: HIGH, recoverPerAddress: HIGH, recoverPerEmail: HIGH },
});
await app.listen({ port: 0, host: '127.0.0.1' });

const { rows } = await sql<{ version: string }>`select current_setting('server_version') as version`.execute(database.db);
const version = rows[0]?.version ?? '?';
const address = app.server.address();
const message: ChildMessage = {
  type: 'ready',
  port: typeof address === 'object' && address ? address.port : 0,
  database: database.kind === 'pg' ? `PostgreSQL ${version.split(' ')[0]}` : `PGlite in-memory (PostgreSQL ${version})`,
};
process.send?.(message);

process.on('message', (received) => {
  if (received === 'cpu') {
    // All threads of the process: the event loop and argon2's worker threads.
    const usage = process.cpuUsage();
    process.send?.({ type: 'cpu', micros: usage.user + usage.system } satisfies ChildMessage);
  }
  if (received !== 'stop') return;
  void (async () => {
    await app.close();
    await database.close();
    process.exit(0);
  })();
});
