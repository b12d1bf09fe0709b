/**
 * Readiness (GET /api/health/ready) against liveness (GET /api/health): ready only with the
 * database answering, its migrations and rules exactly the release's, and the app not closing.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { sql } from 'kysely';
import { fromPgPool } from '../../db/connection.ts';
import { listMigrations } from '../../db/migrate.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { createReadiness } from './readiness.ts';
import { until } from '../../../../../support/webhook-receiver.ts';

const onPostgres = Boolean(inject('pgServerUrl'));

const head = listMigrations().at(-1)!;

describe('GET /api/health/ready', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('is ready with the database answering and every migration and rule of the release applied', async () => {
    const ready = await t.request('GET', '/api/health/ready');
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({
      status: 'ready',
      database: 'ok',
      replica: null,
      migrations: { at_head: true, applied: head.version, expected: head.version },
      closing: false,
    });
  });

  it('is not ready (503) while the last migration is not applied, and ready again once it is; liveness stays 200', async () => {
    const db = t.database.db;
    await sql`delete from schema_migrations where version = ${head.version}`.execute(db);
    try {
      const behind = await t.request('GET', '/api/health/ready');
      expect(behind.status).toBe(503);
      expect(behind.body).toMatchObject({
        status: 'not_ready',
        database: 'ok',
        migrations: { at_head: false, applied: head.version - 1, expected: head.version },
      });
      expect((await t.request('GET', '/api/health')).status).toBe(200);
    } finally {
      await sql`insert into schema_migrations (version, name, checksum) values (${head.version}, ${head.name}, ${head.checksum})`.execute(
        db,
      );
    }
    expect((await t.request('GET', '/api/health/ready')).status).toBe(200);
  });

  it('is not ready while a SQL rule is applied at another text than its file', async () => {
    const db = t.database.db;
    const { rows } = await sql<{ name: string; checksum: string }>`select name, checksum from schema_rules order by name limit 1`.execute(
      db,
    );
    const rule = rows[0]!;
    await sql`update schema_rules set checksum = 'an older text' where name = ${rule.name}`.execute(db);
    try {
      const stale = await t.request('GET', '/api/health/ready');
      expect(stale.status).toBe(503);
      expect(stale.body.migrations).toEqual({ at_head: false, applied: head.version, expected: head.version });
    } finally {
      await sql`update schema_rules set checksum = ${rule.checksum} where name = ${rule.name}`.execute(db);
    }
  });

  it('is not ready while the read replica does not answer', async () => {
    // A replica at a port nothing listens on: the connection is refused.
    const replica = fromPgPool(new pg.Pool({ connectionString: 'postgres://postgres@127.0.0.1:1/none', connectionTimeoutMillis: 2000 }));
    try {
      const check = createReadiness({ db: t.database.db, replica: replica.db, lifecycle: { closing: false } });
      expect(await check()).toMatchObject({ status: 'not_ready', database: 'ok', replica: 'unreachable', migrations: { at_head: true } });
    } finally {
      await replica.close();
    }
  });

  it('says not ready and closing once the app has begun to close', async () => {
    const check = createReadiness({ db: t.database.db, replica: null, lifecycle: { closing: true } });
    expect(await check()).toMatchObject({ status: 'not_ready', database: 'ok', closing: true, migrations: { at_head: true } });
  });
});

/**
 * A real shutdown: readiness asked while its read of the schema waits on a lock, the app then
 * begins to close, the lock goes: the answer is 503, closing. PostgreSQL only: the wait is
 * seen in pg_stat_activity. (Node answers nothing new on a connection once its server closes,
 * so a request that has started is the one a shutdown can answer.)
 */
describe.skipIf(!onPostgres)('GET /api/health/ready during a shutdown', () => {
  it('answers 503 and closing to a readiness check under way when the app begins to close', async () => {
    const t = await createTestApp();
    const locker = new pg.Client({ connectionString: t.databaseUrl! });
    await locker.connect();
    try {
      await locker.query('begin');
      await locker.query('lock table schema_rules in access exclusive mode');
      const answer = t.request('GET', '/api/health/ready');
      // Asked of the app's own pool: the locker's transaction would see one snapshot of pg_stat_activity.
      await until(async () => {
        const { rows } = await sql`
select 1 from pg_stat_activity
          where datname = current_database() and wait_event_type = 'Lock' and query like '%from schema_rules%'`.execute(t.database.db);
        return rows.length > 0;
      }, 'the readiness check waiting on the lock');
      const closed = t.app.close();
      await until(() => t.app.lifecycle.closing, 'the app closing');
      await locker.query('commit');
      const refused = await answer;
      expect(refused.status).toBe(503);
      expect(refused.body).toMatchObject({ status: 'not_ready', database: 'ok', closing: true, migrations: { at_head: true } });
      await closed;
    } finally {
      await locker.end();
      await t.database.close();
    }
  });
});
