import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import pg from 'pg';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { ensureFirstHouseAdmin } from '../db/bootstrap.ts';
import { fromPgPool, type Database } from '../db/connection.ts';
import { migrate } from '../db/migrate.ts';
import type { DB } from '../db/schema.ts';
import { startReplicaCluster, type ReplicaCluster } from './replica-cluster.ts';

export interface ReplicaApp {
  cluster: ReplicaCluster;
  database: Database;
  app: FastifyInstance;
  baseUrl: string;
  /** Closes the app and the pool, then removes the cluster. */
  stop(): Promise<void>;
}

/**
 * The API over a primary and a hot standby of the test's own: the primary migrated, its first
 * house admin made and `seed` run, then the standby copied from it (so it starts with all of
 * that), and the app listening on 127.0.0.1 with DATABASE_READ_URL naming the standby.
 */
export async function startAppOverReplica(
  options: { env?: Record<string, string>; readWaitMs?: number; seed?: (db: Kysely<DB>) => Promise<void> } = {},
): Promise<ReplicaApp> {
  const cluster = await startReplicaCluster();
  await cluster.query('primary', 'create database console');
  const database = fromPgPool(new pg.Pool({ connectionString: cluster.url('primary', 'console'), max: 10 }));
  await migrate(database);
  await ensureFirstHouseAdmin(database.db, { email: 'admin@example.test', password: 'correct horse battery' });
  await options.seed?.(database.db);
  await cluster.startReplica();
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    DATA_DIR: '/nonexistent',
    DATABASE_URL: cluster.url('primary', 'console'),
    DATABASE_READ_URL: cluster.url('replica', 'console'),
    ...options.env,
  });
  const app = await buildApp({
    config,
    database,
    jwtSecret: randomBytes(32).toString('hex'),
    logger: false,
    serveWeb: false,
    ...(options.readWaitMs === undefined ? {} : { readWaitMs: options.readWaitMs }),
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return {
    cluster,
    database,
    app,
    baseUrl,
    async stop() {
      await app.close();
      await database.close();
      await cluster.stop();
    },
  };
}
