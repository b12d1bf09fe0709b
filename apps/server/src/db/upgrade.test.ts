import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, emptyDatabase, freshDatabase, type TestApp } from '../test/harness.ts';
import { schemaFingerprint } from '../test/schema-fingerprint.ts';
import { hashPassword } from '../lib/secrets.ts';
import { reconcile } from '../modules/credits/reconcile.ts';
import type { Database } from './connection.ts';
import { listMigrations, listRules, migrate, type MigrationRun } from './migrate.ts';

/**
 * Upgrades: a database an earlier release built, holding that release's own demo data, is
 * migrated by this code and must come out with every balance and ledger row unchanged, books
 * that reconcile, the schema a fresh database gets, and a console that answers.
 *
 * upgrade-fixtures/<version>.sql.gz is a release's demo database as plain SQL (made by
 * scripts/release-fixture.sh at the release's commit); the newest one is the previous release.
 */
const FIXTURES = fileURLToPath(new URL('./upgrade-fixtures/', import.meta.url));
const semver = (file: string) => file.split('.').slice(0, 3).map(Number);
const previousRelease = readdirSync(FIXTURES)
  .filter((file) => /^\d+\.\d+\.\d+\.sql\.gz$/.test(file))
  .sort((a, b) => {
    const [x, y] = [semver(a), semver(b)];
    return x[0]! - y[0]! || x[1]! - y[1]! || x[2]! - y[2]!;
  })
  .at(-1)!;

/** What must survive an upgrade unchanged: every balance and every ledger row, exactly. */
async function books(database: Database) {
  const balances = await sql<{ line: string }>`
    select organization_id || ' ' || credit_balance || ' ' || low_balance_threshold || ' ' || activated_agent_limit as line
    from organization_billing_settings order by organization_id`.execute(database.db);
  const ledger = await sql<{ line: string }>`
    select concat_ws(' ', seq, id, organization_id, amount, entry_type, transaction_group, balance_after, external_ref, refund_of,
                     agent_type_id, units, created_by, to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US'), md5(metadata::text)) as line
    from credit_ledger_entries order by seq`.execute(database.db);
  const usage = await sql<{ line: string }>`
    select count(*) || ' events, ' || coalesce(sum(charged), 0) || ' charged, ' || coalesce(sum(cost), 0) || ' cost' as line from usage_events`.execute(
    database.db,
  );
  return { balances: balances.rows.map((r) => r.line), ledger: ledger.rows.map((r) => r.line), usage: usage.rows[0]!.line };
}

let fresh: Database;
let freshFingerprint: Awaited<ReturnType<typeof schemaFingerprint>>;
beforeAll(async () => {
  fresh = await freshDatabase();
  freshFingerprint = await schemaFingerprint(fresh);
});
afterAll(async () => {
  await fresh?.close();
});

describe(`an upgrade from the previous release (${previousRelease.replace(/\.sql\.gz$/, '')}) and its demo data`, () => {
  let database: Database;
  let before: Awaited<ReturnType<typeof books>>;
  let run: MigrationRun;
  let t: TestApp;
  beforeAll(async () => {
    database = await emptyDatabase();
    const dump = gunzipSync(readFileSync(FIXTURES + previousRelease)).toString('utf8');
    await database.scriptTransaction((tx) => tx.exec(dump));
    before = await books(database);
    run = await migrate(database);
    t = await createTestApp({ database });
  });
  afterAll(async () => {
    await (t ? t.close() : database?.close());
  });

  it('applies the migrations the release lacked and every rule, and records the checksums of those it had', async () => {
    const { rows } = await sql<{
      version: number;
    }>`select version from schema_migrations where checksum is not null order by version`.execute(database.db);
    expect(rows.map((r) => r.version)).toEqual(listMigrations().map((m) => m.version));
    expect([...run.adopted, ...run.migrations]).toEqual(listMigrations().map((m) => m.name));
    expect(run.migrations.length).toBeGreaterThan(0);
    expect(run.rules).toEqual(listRules().map((r) => r.name));
    expect(await migrate(database)).toEqual({ migrations: [], rules: [], adopted: [] });
  });

  it('keeps every balance and ledger row, and the books reconcile', async () => {
    expect(before.ledger.length).toBeGreaterThan(1000);
    expect(await books(database)).toEqual(before);
    const report = await reconcile(database.db);
    expect(report).toMatchObject({ ok: true });
  });

  it('ends with the schema a fresh database gets', async () => {
    expect(await schemaFingerprint(database)).toEqual(freshFingerprint);
  });

  it('serves the console: sign-in, the tree, a ledger, the dashboard, agents, and a new allocation', async () => {
    const password = 'upgrade tested 0';
    const passwordHash = await hashPassword(password);
    const { rows: people } = await sql<{ email: string; role: string; organization_id: string }>`
      select email, role, organization_id from users where role in ('house_admin', 'tenant_admin') and status = 'active' order by role, email`.execute(
      database.db,
    );
    await sql`update users set password_hash = ${passwordHash} where email in (${sql.join(people.map((p) => p.email))})`.execute(
      database.db,
    );
    const houseAdmin = people.find((p) => p.role === 'house_admin')!;
    const tenantAdmin = people.find((p) => p.role === 'tenant_admin')!;

    const health = await t.request('GET', '/api/health');
    expect(health.body).toMatchObject({ status: 'ok', schema_version: listMigrations().at(-1)!.version });

    const house = await t.signIn(houseAdmin.email, password);
    const get = async (path: string, token: string) => {
      const response = await t.request('GET', path, undefined, { token });
      expect(response.status, path).toBe(200);
      return response.body;
    };
    const orgs = await get('/api/organizations?view=descendants&limit=100', house.token);
    expect(orgs.total).toBe(before.balances.length - 1);
    await get('/api/organizations/tree', house.token);
    await get('/api/dashboard', house.token);
    await get('/api/agent-types', house.token);
    await get('/api/activity', house.token);

    const tenant = await t.signIn(tenantAdmin.email, password);
    const ledger = await get(`/api/credits/ledger?organization_id=${tenantAdmin.organization_id}&limit=10`, tenant.token);
    const balance = before.balances.find((line) => line.startsWith(tenantAdmin.organization_id))!.split(' ')[1];
    expect(ledger.credit_balance).toBe(balance);
    expect(ledger.entries.length).toBeGreaterThan(0);
    await get(`/api/organizations/${tenantAdmin.organization_id}/agents`, tenant.token);
    await get(`/api/organizations/${tenantAdmin.organization_id}/usage`, tenant.token);
    await get('/api/dashboard', tenant.token);

    const child = orgs.organizations.find((o: { parent_org_id: string; id: string }) => o.parent_org_id === houseAdmin.organization_id);
    const allocation = await t.request(
      'POST',
      '/api/credits/allocations',
      { from_org_id: houseAdmin.organization_id, to_org_id: child.id, amount: '1.25' },
      { token: house.token },
    );
    expect(allocation.status).toBe(200);
    expect((await reconcile(database.db)).ok).toBe(true);
  });
});

describe('a database migrated from the first texts of the migrations edited after they landed', () => {
  it('is brought to the schema a fresh database gets', async () => {
    const database = await emptyDatabase();
    try {
      // As the runner of those days applied them: no checksums kept.
      const first = new Map(
        readdirSync(FIXTURES + 'first-texts').map((file) => [
          file.replace(/\.sql$/, ''),
          readFileSync(`${FIXTURES}first-texts/${file}`, 'utf8'),
        ]),
      );
      const upTo = Math.max(...[...first.keys()].map((name) => Number(name.slice(0, 4))), 17);
      await database.scriptTransaction(async (tx) => {
        await tx.exec(
          'create table schema_migrations (version integer primary key, name text not null, applied_at timestamptz not null default now())',
        );
        for (const migration of listMigrations().filter((m) => m.version <= upTo)) {
          await tx.exec(first.get(migration.name) ?? migration.sql);
          await tx.query('insert into schema_migrations (version, name) values ($1, $2)', [migration.version, migration.name]);
        }
      });
      const earlier = await schemaFingerprint(database);
      expect(earlier).not.toEqual(freshFingerprint);
      const run = await migrate(database);
      expect(run.adopted).toHaveLength(upTo);
      expect(await schemaFingerprint(database)).toEqual(freshFingerprint);
    } finally {
      await database.close();
    }
  });
});
