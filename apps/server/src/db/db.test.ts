import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { OrgStatus, OrgType, UserStatus } from '@console/domain';
import { chmodSync, chownSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freshDatabase } from '../test/harness.ts';
import { openDatabase, type Database } from './connection.ts';
import { migrate, listMigrations } from './migrate.ts';
import { ensureFirstHouseAdmin, DEFAULT_ADMIN_EMAIL } from './bootstrap.ts';
import { DemoAlreadySeededError, seedDemo } from './seed.ts';
import { DataDirInUseError, DataDirUnsafeError, lockDataDir, makeDataDirPrivate } from './data-dir-lock.ts';
import { resolveJwtSecret } from '../lib/tokens.ts';
import { insertOrg } from '../test/fixtures.ts';
import { verifyPassword } from '../lib/secrets.ts';

let database: Database;
beforeAll(async () => {
  database = await freshDatabase();
});
afterAll(async () => {
  await database?.close();
});

/** Expects a statement to be refused by the database, leaving nothing behind. */
async function refused(run: () => Promise<unknown>) {
  await expect(run()).rejects.toThrow();
}

describe('migrations', () => {
  it('are recorded once and a second run applies nothing', async () => {
    const recorded = await sql<{ version: number }>`select version from schema_migrations order by version`.execute(database.db);
    expect(recorded.rows.map((r) => r.version)).toEqual(listMigrations().map((m) => m.version));
    expect(await migrate(database)).toEqual({ migrations: [], rules: [], adopted: [] });
  });
});

describe('first start', () => {
  it('creates the house and its house_admin on an empty database only', async () => {
    const first = await ensureFirstHouseAdmin(database.db, { email: null, password: null });
    expect(first).toEqual({ email: DEFAULT_ADMIN_EMAIL, generatedPassword: expect.any(String) });
    const admin = await database.db.selectFrom('users').selectAll().executeTakeFirstOrThrow();
    expect(admin.role).toBe('house_admin');
    expect(admin.password_hash).not.toContain(first!.generatedPassword!);
    expect(await verifyPassword(admin.password_hash, first!.generatedPassword!)).toBe(true);
    const house = await database.db
      .selectFrom('organizations')
      .selectAll()
      .where('id', '=', admin.organization_id)
      .executeTakeFirstOrThrow();
    expect(house).toMatchObject({ org_type: 'house', parent_org_id: null, path: `/${house.id}/` });
    const billing = await database.db
      .selectFrom('organization_billing_settings')
      .selectAll()
      .where('organization_id', '=', house.id)
      .executeTakeFirstOrThrow();
    expect(billing).toMatchObject({ credit_balance: '0.00', activated_agent_limit: 0 });
    expect(await ensureFirstHouseAdmin(database.db, { email: 'second@example.test', password: 'password-2' })).toBeNull();
  });
});

describe('constraints in SQL', () => {
  let houseId: string;
  let superId: string;
  beforeAll(async () => {
    houseId = (await database.db.selectFrom('organizations').select('id').where('org_type', '=', 'house').executeTakeFirstOrThrow()).id;
    superId = (await insertOrg(database.db, { name: 'Constraint Super', type: 'super_agency', parentId: houseId })).id;
  });

  it('derive the materialized path from the parent', async () => {
    const agency = await insertOrg(database.db, { name: 'Constraint Agency', type: 'agency', parentId: superId });
    expect(agency.path).toBe(`/${houseId}/${superId}/${agency.id}/`);
  });

  it('refuse a child that is not exactly one level down, or a parent of the wrong declared type', async () => {
    await refused(() =>
      database.db
        .insertInto('organizations')
        .values({ name: 'Skip', org_type: 'agency', parent_org_id: houseId, parent_org_type: 'house' })
        .execute(),
    );
    await refused(() =>
      database.db
        .insertInto('organizations')
        .values({ name: 'Liar', org_type: 'agency', parent_org_id: houseId, parent_org_type: 'super_agency' })
        .execute(),
    );
    await refused(() =>
      database.db
        .insertInto('organizations')
        .values({ name: 'Orphan', org_type: 'tenant', parent_org_id: null, parent_org_type: null })
        .execute(),
    );
    await refused(() =>
      database.db
        .insertInto('organizations')
        .values({ name: 'Second root', org_type: 'house', parent_org_id: superId, parent_org_type: 'super_agency' })
        .execute(),
    );
  });

  it('refuse unknown types and statuses, bad name lengths, and moving an organization', async () => {
    // Values outside the domain's unions, forced past the types: the database itself refuses them.
    await refused(() =>
      database.db
        .insertInto('organizations')
        .values({ name: 'Odd', org_type: 'planet' as OrgType, parent_org_id: null, parent_org_type: null })
        .execute(),
    );
    await refused(() =>
      database.db
        .updateTable('organizations')
        .set({ status: 'deleted' as OrgStatus })
        .where('id', '=', superId)
        .execute(),
    );
    await refused(() => database.db.updateTable('organizations').set({ name: 'x' }).where('id', '=', superId).execute());
    await refused(() =>
      database.db
        .updateTable('organizations')
        .set({ name: 'y'.repeat(101) })
        .where('id', '=', superId)
        .execute(),
    );
    const other = await insertOrg(database.db, { name: 'Other Super', type: 'super_agency', parentId: houseId });
    const agency = await insertOrg(database.db, { name: 'Mover', type: 'agency', parentId: superId });
    await refused(() => database.db.updateTable('organizations').set({ parent_org_id: other.id }).where('id', '=', agency.id).execute());
    await database.db.updateTable('organizations').set({ path: '/forged/' }).where('id', '=', agency.id).execute();
    const kept = await database.db.selectFrom('organizations').select('path').where('id', '=', agency.id).executeTakeFirstOrThrow();
    expect(kept.path).toBe(`/${houseId}/${superId}/${agency.id}/`);
  });

  it('refuse a negative balance or limit', async () => {
    await refused(() =>
      database.db
        .updateTable('organization_billing_settings')
        .set({ credit_balance: '-0.01' })
        .where('organization_id', '=', superId)
        .execute(),
    );
    await refused(() =>
      database.db
        .updateTable('organization_billing_settings')
        .set({ activated_agent_limit: -1 })
        .where('organization_id', '=', superId)
        .execute(),
    );
  });

  it('keep e-mails unique regardless of case, and roles well-formed', async () => {
    const base = { password_hash: null, role: 'super_agency_user', organization_id: superId };
    await database.db
      .insertInto('users')
      .values({ ...base, email: 'Case@Example.test' })
      .execute();
    await refused(() =>
      database.db
        .insertInto('users')
        .values({ ...base, email: 'case@example.TEST' })
        .execute(),
    );
    await refused(() =>
      database.db
        .insertInto('users')
        .values({ ...base, email: 'role@example.test', role: 'emperor' })
        .execute(),
    );
    await refused(() =>
      database.db
        .insertInto('users')
        .values({ ...base, email: 'status@example.test', status: 'zombie' as UserStatus })
        .execute(),
    );
  });
});

describe('demo seed', () => {
  it('adds two super agencies with agencies and tenants, a user of each role, and refuses a second run', async () => {
    const { password, signIns } = await seedDemo(database.db);
    expect(password.length).toBeGreaterThanOrEqual(16);
    const roles = signIns.map((s) => s.role).sort();
    expect(roles).toEqual(expect.arrayContaining(['house_admin', 'super_agency_admin', 'agency_manager', 'tenant_user', 'tenant_admin']));
    const counts = await sql<{ org_type: string; n: number }>`
      select org_type, count(*)::int as n from organizations where description like 'Demo%' group by org_type`.execute(database.db);
    const byType = Object.fromEntries(counts.rows.map((r) => [r.org_type, r.n]));
    expect(byType.super_agency).toBe(2);
    expect(byType.agency).toBeGreaterThanOrEqual(2);
    expect(byType.tenant).toBeGreaterThanOrEqual(2);
    for (const signIn of signIns) {
      const user = await database.db
        .selectFrom('users as u')
        .innerJoin('organizations as o', 'o.id', 'u.organization_id')
        .select(['u.role', 'o.org_type', 'u.password_hash'])
        .where('u.email', '=', signIn.email)
        .executeTakeFirstOrThrow();
      expect(user.role.startsWith(user.org_type + '_'), signIn.email).toBe(true);
    }
    await expect(seedDemo(database.db)).rejects.toBeInstanceOf(DemoAlreadySeededError);
  });
});

describe('the data folder lock', () => {
  it('refuses a second holder while the first is alive, and frees the folder on release', () => {
    const dir = mkdtempSync(join(tmpdir(), 'console-lock-'));
    try {
      const release = lockDataDir(dir, 'server');
      // The same pid counts as stale, so simulate another live process: our parent.
      writeFileSync(join(dir, 'console.lock'), JSON.stringify({ pid: process.ppid, purpose: 'server' }));
      expect(() => lockDataDir(dir, 'db:migrate')).toThrow(DataDirInUseError);
      expect(() => lockDataDir(dir, 'db:migrate')).toThrow(/in use by process \d+ \(server\)/);
      release();
      const again = lockDataDir(dir, 'db:migrate');
      again();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('takes over a lock left by a process that no longer runs', () => {
    const dir = mkdtempSync(join(tmpdir(), 'console-lock-'));
    try {
      writeFileSync(join(dir, 'console.lock'), JSON.stringify({ pid: 2 ** 22 + 12345, purpose: 'server' }));
      const release = lockDataDir(dir, 'server');
      release();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** Every path under a folder with its permission bits, as `{ '<path>': '0700' }`. */
function modes(root: string): Record<string, string> {
  const found: Record<string, string> = {};
  const walk = (path: string) => {
    found[path.slice(root.length) || '/'] = `0${(lstatSync(path).mode & 0o777).toString(8)}`;
    if (lstatSync(path).isDirectory()) for (const name of readdirSync(path)) walk(join(path, name));
  };
  walk(root);
  return found;
}

/** The distinct modes of folders and of files under a root. */
function modeSummary(root: string) {
  const dirs = new Set<string>();
  const files = new Set<string>();
  for (const [path, mode] of Object.entries(modes(root))) (lstatSync(join(root, path)).isDirectory() ? dirs : files).add(mode);
  return { dirs: [...dirs], files: [...files] };
}

describe.skipIf(process.platform === 'win32')('the data folder is private to its owner', () => {
  let root: string;
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'console-private-'));
  });
  afterAll(() => {
    rmSync(root, { recursive: true, force: true });
  });

  /** Opens the embedded database in a folder, writes to it, closes it. */
  async function start(dataDir: string) {
    const database = await openDatabase({ databaseUrl: null, dataDir, purpose: 'test' });
    await sql`create table if not exists private_check (n int)`.execute(database.db);
    await sql`insert into private_check values (1)`.execute(database.db);
    resolveJwtSecret(null, dataDir);
    return database;
  }

  it('a new folder: every folder 0700 and every file 0600, the database and the generated JWT secret alike', async () => {
    const dataDir = join(root, 'fresh');
    const database = await start(dataDir);
    try {
      expect(existsSync(join(dataDir, 'console.lock'))).toBe(true);
      expect(modeSummary(dataDir)).toEqual({ dirs: ['0700'], files: ['0600'] });
    } finally {
      await database.close();
    }
    // Files the database wrote after the start (the table, the write-ahead log) are private too.
    expect(modeSummary(dataDir)).toEqual({ dirs: ['0700'], files: ['0600'] });
    expect(Object.keys(modes(dataDir)).length).toBeGreaterThan(500);
  });

  it('an existing folder left open (folders 0755, files 0666, as earlier versions made it) is tightened at start', async () => {
    const dataDir = join(root, 'loose');
    await (await start(dataDir)).close();
    const loosen = (path: string) => {
      if (lstatSync(path).isDirectory()) {
        chmodSync(path, path === dataDir ? 0o755 : 0o777);
        for (const name of readdirSync(path)) loosen(join(path, name));
      } else chmodSync(path, 0o666);
    };
    loosen(dataDir);
    expect(modeSummary(dataDir)).toEqual({ dirs: ['0755', '0777'], files: ['0666'] });
    const database = await start(dataDir);
    try {
      expect(modeSummary(dataDir)).toEqual({ dirs: ['0700'], files: ['0600'] });
    } finally {
      await database.close();
    }
  });

  it('other files a user keeps in the data folder are left as they are', () => {
    const dataDir = join(root, 'shared');
    mkdirSync(join(dataDir, 'backups'), { recursive: true });
    writeFileSync(join(dataDir, 'backups', 'notes.txt'), 'mine');
    chmodSync(join(dataDir, 'backups', 'notes.txt'), 0o644);
    makeDataDirPrivate(dataDir);
    expect(modes(dataDir)).toMatchObject({ '/': '0700', '/backups/notes.txt': '0644' });
  });

  it('a folder every user may write to is refused in one line, and left untouched', async () => {
    const dataDir = join(root, 'open');
    mkdirSync(dataDir);
    chmodSync(dataDir, 0o777);
    writeFileSync(join(dataDir, 'jwt-secret'), 'planted by someone else');
    chmodSync(join(dataDir, 'jwt-secret'), 0o666);
    const error = await openDatabase({ databaseUrl: null, dataDir, purpose: 'test' }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(DataDirUnsafeError);
    expect((error as Error).message).toBe(
      `The data folder ${dataDir} is writable by every user (mode 0777), so anyone could have replaced what it holds: ` +
        `check its contents and make it private (chmod 700 ${dataDir}), or set DATA_DIR to another folder.`,
    );
    expect(modes(dataDir)).toEqual({ '/': '0777', '/jwt-secret': '0666' });
    // The same refusal before a generated JWT secret is read from it (a server on PostgreSQL).
    expect(() => makeDataDirPrivate(dataDir)).toThrow(DataDirUnsafeError);
  });

  it('a folder that belongs to another user is refused in one line, and left untouched', async () => {
    // As root, a folder given to another user; otherwise a folder root owns.
    const isRoot = process.getuid?.() === 0;
    const dataDir = isRoot ? join(root, 'foreign') : tmpdir();
    if (isRoot) {
      mkdirSync(dataDir);
      chmodSync(dataDir, 0o777);
      chownSync(dataDir, 4242, 4242);
    }
    const before = modes(dataDir)['/'];
    const error = await openDatabase({ databaseUrl: null, dataDir, purpose: 'test' }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(DataDirUnsafeError);
    expect((error as Error).message).toMatch(
      new RegExp(`^The data folder ${dataDir} belongs to another user \\(uid \\d+, mode 0\\d+\\), who could open it to others: .+$`),
    );
    expect((error as Error).message).not.toContain('\n');
    expect(modes(dataDir)['/']).toBe(before);
    expect(existsSync(join(dataDir, 'console.lock'))).toBe(false);
    expect(existsSync(join(dataDir, 'pgdata'))).toBe(false);
  });
});
