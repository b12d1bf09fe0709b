import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler } from 'kysely';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import type { Database } from '../db/connection.ts';
import type { DB } from '../db/schema.ts';

/**
 * The API document exactly as the app serves it at /api/docs/json, from an app built in
 * this process: no server listens and no database is reached (building the app and
 * reading its document run no query, so the database is one that has none).
 */
export async function servedDocument(env: Record<string, string | undefined> = {}): Promise<Record<string, any>> {
  const db = new Kysely<DB>({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (kysely) => new PostgresIntrospector(kysely),
      createQueryCompiler: () => new PostgresQueryCompiler(),
    },
  });
  const database: Database = {
    kind: 'pg',
    db,
    scriptTransaction: async () => {
      throw new Error('The API document is built without a database');
    },
    close: () => db.destroy(),
  };
  const config = loadConfig({ LOG_LEVEL: 'silent', DATA_DIR: '/nonexistent', ...env });
  const app = await buildApp({
    config,
    database,
    jwtSecret: 'the document is built without signing anything',
    logger: false,
    serveWeb: false,
    mailer: { kind: 'outbox', send: async () => {} },
  });
  try {
    await app.ready();
    return structuredClone(app.swagger()) as Record<string, any>;
  } finally {
    await app.close();
    await database.close();
  }
}
