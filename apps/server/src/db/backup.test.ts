import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDatabase, type FreshDatabase } from '../../../../support/postgres.ts';
import { reconcile } from '../modules/credits/reconcile.ts';
import { tablesDigest } from '../test/fixtures.ts';
import { openFreshDatabase, useWorld } from '../test/harness.ts';
import { BackupError, runTool, takeBackup, type BackupSource } from './backup.ts';
import { fromPgPool, openDatabase, type Database } from './connection.ts';
import { restoreBackup } from './restore.ts';

/**
 * Backups through the module, on the database the suite runs on (PGlite: the data-folder
 * archive; PostgreSQL: pg_dump), restored into fresh empty targets.
 */
const onPostgres = Boolean(inject('pgServerUrl'));
const w = useWorld();
const scratch = mkdtempSync(join(tmpdir(), 'console-backup-test-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

let files = 0;
const fileName = (ext = onPostgres ? 'dump' : 'tar.gz') => join(scratch, `backup-${files++}.${ext}`);
const source = (): BackupSource => (onPostgres ? { kind: 'pg', url: w.t.databaseUrl! } : { kind: 'pglite', database: w.t.database });

interface Target {
  options: { databaseUrl: string | null; dataDir: string };
  open(): Promise<Database>;
  /** Everything a refused restore must leave as it was. */
  state(): Promise<string>;
  drop(): Promise<void>;
}

/** Every name, size and modification time under a folder ('absent' if there is none). */
function listing(dir: string): string {
  if (!existsSync(dir)) return 'absent';
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .map((entry) => {
      const path = join(entry.parentPath, entry.name);
      const stat = statSync(path);
      return `${path} ${stat.size} ${stat.mtimeMs}`;
    })
    .sort()
    .join('\n');
}

let targets = 0;
/** A fresh empty target: a new data folder, or a new database on the suite's PostgreSQL server. */
async function emptyTarget(): Promise<Target> {
  if (onPostgres) {
    const fresh: FreshDatabase = await createDatabase(inject('pgServerUrl'), `${inject('pgTemplate').replace(/_tpl$/, '')}_restore`);
    const open = async () => fromPgPool(new pg.Pool({ connectionString: fresh.url, max: 2 }));
    return {
      options: { databaseUrl: fresh.url, dataDir: join(scratch, 'unused') },
      open,
      async state() {
        const database = await open();
        try {
          const { rows } = await sql<{
            names: string | null;
          }>`select string_agg(tablename, ',' order by tablename) as names from pg_tables where schemaname = 'public'`.execute(database.db);
          const names = rows[0]?.names ?? '';
          return names
            ? `${names} ${await tablesDigest(database.db, ['organizations', 'credit_ledger_entries', 'organization_billing_settings'])}`
            : 'empty';
        } finally {
          await database.close();
        }
      },
      drop: fresh.drop,
    };
  }
  const dataDir = join(scratch, `data-${targets++}`);
  return {
    options: { databaseUrl: null, dataDir },
    open: () => openDatabase({ databaseUrl: null, dataDir, purpose: 'backup test' }),
    state: async () => listing(dataDir),
    drop: async () => rmSync(dataDir, { recursive: true, force: true }),
  };
}

/** Balances that differ from the sum of their ledger entries. */
async function balancesOffTheirLedger(database: Database) {
  const { rows } = await sql<{ organization_id: string }>`
    select b.organization_id from organization_billing_settings b
    where b.credit_balance <> coalesce((select sum(e.amount) from credit_ledger_entries e where e.organization_id = b.organization_id), 0)`.execute(
    database.db,
  );
  return rows;
}

beforeAll(async () => {
  // Credits enter at the house and go down the tree through the ledger.
  const house = await w.as('H.admin');
  expect(
    (
      await w.t.request(
        'POST',
        '/api/credits/adjustments',
        { direction: 'increase', amount: '100000', reason: 'backup test' },
        { token: house },
      )
    ).status,
  ).toBe(200);
  for (const [from, to, amount] of [
    ['H', 'SA1', '20000'],
    ['SA1', 'A1', '5000'],
  ] as const) {
    const response = await w.t.request(
      'POST',
      '/api/credits/allocations',
      { from_org_id: w.id(from), to_org_id: w.id(to), amount },
      { token: await w.as(`${from}.admin`) },
    );
    expect(response.status).toBe(200);
  }
});

describe(`a backup taken under load (${onPostgres ? 'PostgreSQL, pg_dump' : 'PGlite, data-folder archive'})`, () => {
  it('restores into an empty target with every allocation acknowledged before it began, and the books reconcile', async () => {
    const acknowledged: string[] = [];
    const failures: string[] = [];
    let stop = false;
    const stream = async (from: 'H' | 'SA1' | 'A1', to: 'SA1' | 'SA2' | 'A1' | 'A2' | 'T1' | 'T2') => {
      const token = await w.as(`${from}.admin`);
      while (!stop) {
        const response = await w.t.request(
          'POST',
          '/api/credits/allocations',
          { from_org_id: w.id(from), to_org_id: w.id(to), amount: '0.01' },
          { token },
        );
        if (response.status === 200) acknowledged.push(response.body.transaction_id);
        else failures.push(`${from}->${to}: ${response.status} ${JSON.stringify(response.body)}`);
      }
    };
    const until = async (done: () => boolean) => {
      while (!done() && failures.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    };
    const streams = [stream('H', 'SA2'), stream('SA1', 'A2'), stream('A1', 'T1'), stream('A1', 'T2')];

    await until(() => acknowledged.length >= 20);
    // Each stream has one request in flight now: they are answered before or after the copy.
    const before = [...acknowledged];
    const file = fileName();
    const result = await takeBackup(source(), file);
    const atEnd = acknowledged.length;
    await until(() => acknowledged.length >= atEnd + 10);
    stop = true;
    await Promise.all(streams);
    expect(failures).toEqual([]);
    console.log(
      `backup under load: ${before.length} allocations acknowledged before it began, ${atEnd} when it ended, ${acknowledged.length} in all; ${result.bytes} bytes, schema version ${result.schemaVersion}`,
    );
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(scratch).mode & 0o777).toBe(0o700);
    expect(readdirSync(scratch).filter((name) => name.includes('.tmp-'))).toEqual([]);

    const target = await emptyTarget();
    try {
      const restored = await restoreBackup({ file, ...target.options });
      expect(restored.schemaVersion).toBe(result.schemaVersion);
      expect(restored.pending).toBe(0);
      if (!onPostgres) {
        const pgdata = join(target.options.dataDir, 'pgdata');
        expect(statSync(pgdata).mode & 0o777).toBe(0o700);
        expect(statSync(join(pgdata, 'PG_VERSION')).mode & 0o777).toBe(0o600);
        expect(readdirSync(target.options.dataDir)).toEqual(['pgdata']);
      }
      const copy = await target.open();
      try {
        const report = await reconcile(copy.db);
        expect(report).toMatchObject({ ok: true });
        expect(await balancesOffTheirLedger(copy)).toEqual([]);
        const { rows } = await sql<{ n: number }>`
          select count(distinct transaction_group)::int as n from credit_ledger_entries
          where entry_type = 'allocation_sent' and transaction_group = any(${before}::uuid[])`.execute(copy.db);
        expect(rows[0]!.n).toBe(before.length);
        // Nothing beyond what was sent: the copy holds at most every acknowledged allocation and those in flight.
        const all = await sql<{ n: number }>`
          select count(distinct transaction_group)::int as n from credit_ledger_entries
          where entry_type = 'allocation_sent' and amount = -0.01`.execute(copy.db);
        expect(all.rows[0]!.n).toBeGreaterThanOrEqual(before.length);
        expect(all.rows[0]!.n).toBeLessThanOrEqual(acknowledged.length);
      } finally {
        await copy.close();
      }
    } finally {
      await target.drop();
    }
    // The source is untouched by the copy and still balances.
    expect((await reconcile(w.t.database.db)).ok).toBe(true);
  }, 120_000);
});

describe('restore refuses, writing nothing', () => {
  let good: string;
  beforeAll(async () => {
    good = fileName();
    await takeBackup(source(), good);
  });

  /** Runs a restore that must be refused, and shows the target unchanged. */
  async function refused(file: string, target: Target, message: RegExp) {
    const before = await target.state();
    const attempt = restoreBackup({ file, ...target.options });
    await expect(attempt).rejects.toThrow(BackupError);
    await expect(attempt).rejects.toThrow(message);
    expect(await target.state()).toBe(before);
  }

  it('a target that is not empty', async () => {
    const target = await emptyTarget();
    try {
      await restoreBackup({ file: good, ...target.options });
      await refused(
        good,
        target,
        onPostgres
          ? /is not empty \(\d+ tables in its public schema\)/
          : /already holds a database: a backup restores only into an empty data folder/,
      );
    } finally {
      await target.drop();
    }
  });

  it('a truncated file and one with bytes flipped in the middle', async () => {
    const bytes = readFileSync(good);
    const truncated = fileName();
    writeFileSync(truncated, bytes.subarray(0, Math.floor(bytes.length / 2)));
    const flipped = fileName();
    const copy = Buffer.from(bytes);
    const middle = Math.floor(copy.length / 2);
    for (let i = middle; i < middle + 8; i++) copy[i] = copy[i]! ^ 0xff;
    writeFileSync(flipped, copy);
    const target = await emptyTarget();
    try {
      await refused(truncated, target, onPostgres ? /does not end with the checksum line/ : /is damaged or cut short \(gzip: /);
      await refused(
        flipped,
        target,
        onPostgres ? /is damaged or cut short \(its checksum does not match its contents\)/ : /is damaged or cut short \(gzip: /,
      );
      expect(await target.state()).toBe(onPostgres ? 'empty' : 'absent');
    } finally {
      await target.drop();
    }
  });

  it('the wrong kind of backup, and a file that is no backup', async () => {
    const target = await emptyTarget();
    try {
      // The kind is told by the first bytes alone (gzip, or pg_dump's `PGDMP`), before anything else is read.
      const other = fileName(onPostgres ? 'tar.gz' : 'dump');
      if (onPostgres) {
        writeFileSync(other, gzipSync(Buffer.alloc(4096)));
        await refused(
          other,
          target,
          /is a backup of the embedded database \(PGlite data folder archive\), but the target is PostgreSQL \(DATABASE_URL is set\); it restores only into the embedded database/,
        );
      } else {
        writeFileSync(other, Buffer.concat([Buffer.from('PGDMP'), Buffer.alloc(200, 1)]));
        await refused(
          other,
          target,
          /is a backup of a PostgreSQL database \(pg_dump custom format\), but the target is the embedded database \(DATABASE_URL is not set\); it restores only into PostgreSQL/,
        );
      }
      const text = fileName('txt');
      writeFileSync(text, 'not a backup\n');
      await refused(text, target, /is not a backup of this console/);
      if (!onPostgres) {
        const notTar = fileName();
        writeFileSync(notTar, gzipSync(Buffer.alloc(4096, 7)));
        await refused(notTar, target, /is damaged: a damaged header at byte 0/);
      } else {
        // pg_dump's own file, without the checksum line db:backup adds.
        const plain = fileName();
        const run = await runTool('pg_dump', ['--format=custom', `--file=${plain}`, `--dbname=${w.t.databaseUrl}`]);
        expect(run.code).toBe(0);
        await refused(plain, target, /does not end with the checksum line db:backup writes/);
      }
    } finally {
      await target.drop();
    }
  });

  it('a backup made by a newer version of the console', async () => {
    const { database, url } = await openFreshDatabase();
    const newer = fileName();
    try {
      await sql`insert into schema_migrations (version, name) values (9999, '9999_from_the_future')`.execute(database.db);
      await takeBackup(url ? { kind: 'pg', url } : { kind: 'pglite', database }, newer);
    } finally {
      await database.close();
    }
    const target = await emptyTarget();
    try {
      await refused(newer, target, /was made by a newer version of the console \(schema version 9999, this one knows \d+\)/);
    } finally {
      await target.drop();
    }
  });
});
