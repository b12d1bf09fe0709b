import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { createDatabase, type FreshDatabase } from '../../../../support/postgres.ts';
import { killChildren, REPO_ROOT, startServerProcess, type ServerProcess } from '../../../../support/server-process.ts';
import { listBackups } from './backup-schedule.ts';

/**
 * `db:backup` and `db:restore` as an operator runs them, against a real `main.ts serve` child:
 * on PGlite the backup goes through the running server's socket, on PostgreSQL through pg_dump.
 */
const serverUrl = inject('pgServerUrl');
const onPostgres = Boolean(serverUrl);
const root = mkdtempSync(join(tmpdir(), 'console-backup-cli-'));
const databases: FreshDatabase[] = [];
const ADMIN = { email: 'backup-admin@example.test', password: 'backup admin password' };

afterAll(async () => {
  await killChildren();
  for (const database of databases) await database.drop();
  rmSync(root, { recursive: true, force: true });
});

async function emptyDatabaseUrl(): Promise<string> {
  const fresh = await createDatabase(serverUrl, `${inject('pgTemplate').replace(/_tpl$/, '')}_cli`);
  databases.push(fresh);
  return fresh.url;
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `main.ts <args>` as `npm run db:backup` runs it, in the repository, with `env` over this process's. */
function cli(args: string[], env: NodeJS.ProcessEnv, node = process.execPath): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(node, ['--import', 'tsx', 'apps/server/src/main.ts', ...args], {
      cwd: REPO_ROOT,
      env: { ...process.env, LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

async function signIn(server: ServerProcess): Promise<string> {
  const response = await fetch(`${server.url}/api/auth/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(ADMIN),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { access_token: string }).access_token;
}

async function call(server: ServerProcess, token: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: response.status, body: (await response.json()) as any };
}

/** The house's and its children's balances, as the console lists them. */
async function balances(server: ServerProcess, token: string): Promise<string[]> {
  const { status, body } = await call(server, token, 'GET', '/api/organizations');
  expect(status).toBe(200);
  return [body.organization, ...body.organizations]
    .map((o: { name: string; credit_balance: string }) => `${o.name}: ${o.credit_balance}`)
    .sort();
}

describe(`db:backup against a running server, then db:restore (${onPostgres ? 'PostgreSQL' : 'PGlite'})`, () => {
  it('backs up while the server serves, and a server on the restored copy signs in with the same balances', async () => {
    const source = onPostgres ? await emptyDatabaseUrl() : '';
    const target = onPostgres ? await emptyDatabaseUrl() : '';
    const dataDir = join(root, 'data');
    const restoredDir = join(root, 'restored');
    const scheduled = join(root, 'scheduled');
    const env = { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, RATE_LIMIT_FACTOR: '1000', DATABASE_URL: source };
    mkdirSync(dataDir, { mode: 0o700 });
    const server = await startServerProcess({ dataDir, env: { ...env, BACKUP_EVERY: '1m', BACKUP_DIR: scheduled, BACKUP_KEEP: '2' } });
    const token = await signIn(server);
    expect(
      (await call(server, token, 'POST', '/api/credits/adjustments', { direction: 'increase', amount: '1000', reason: 'backup journey' }))
        .status,
    ).toBe(200);
    const child = await call(server, token, 'POST', '/api/organizations', { name: 'Backup Super Agency', org_type: 'super_agency' });
    expect(child.status).toBe(201);
    const allocation = await call(server, token, 'POST', '/api/credits/allocations', {
      from_org_id: child.body.organization.parent_org_id,
      to_org_id: child.body.organization.id,
      amount: '250.00',
    });
    expect(allocation.status).toBe(200);
    const before = await balances(server, token);
    expect(before).toHaveLength(2);
    expect(before).toEqual(expect.arrayContaining(['Backup Super Agency: 250.00', expect.stringMatching(/: 750\.00$/)]));

    const file = join(root, 'out', onPostgres ? 'console.dump' : 'console.tar.gz');
    const backup = await cli(['backup', file], { DATA_DIR: dataDir, DATABASE_URL: source });
    expect(backup, backup.stderr).toMatchObject({ code: 0 });
    expect(backup.stdout).toMatch(/^Backup written: .*console\.(dump|tar\.gz) \(\d+(\.\d)? (KB|MB)\)\.\n/);
    expect(backup.stdout).toMatch(
      onPostgres
        ? /PostgreSQL, pg_dump custom format; schema version \d+\./
        : /embedded database, taken by the running server; schema version \d+\./,
    );
    expect(statSync(file).mode & 0o777).toBe(0o600);
    // The server went on serving; it wrote its first scheduled backup at start, the schedule being due.
    expect(await balances(server, token)).toEqual(before);
    while (listBackups(scheduled).length === 0 && server.output().indexOf('scheduled backup failed') < 0)
      await new Promise((resolve) => setTimeout(resolve, 100));
    expect(listBackups(scheduled)).toHaveLength(1);
    if (!onPostgres) expect(existsSync(join(dataDir, 'console.sock'))).toBe(true);
    await server.stop();
    // Its socket goes with it.
    expect(readdirSync(dataDir).sort()).toEqual(onPostgres ? ['jwt-secret'] : ['jwt-secret', 'pgdata']);

    const restore = await cli(['restore', file], { DATA_DIR: restoredDir, DATABASE_URL: target });
    expect(restore, restore.stderr).toMatchObject({ code: 0 });
    expect(restore.stdout).toMatch(
      /^Restored .* into the (PostgreSQL database|embedded database in) .* \(schema version \d+\)\.\n {2}Its schema is up to date\.\n$/,
    );

    const second = await startServerProcess({ dataDir: restoredDir, env: { ...env, DATABASE_URL: target } });
    expect(await balances(second, await signIn(second))).toEqual(before);

    // A second restore into the same place is refused while the copy is served.
    const again = await cli(['restore', file], { DATA_DIR: restoredDir, DATABASE_URL: target });
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(
      onPostgres
        ? /The database at DATABASE_URL is not empty/
        : /already holds a database: a backup restores only into an empty data folder/,
    );

    if (!onPostgres) {
      // Killed, the server leaves its socket and lock behind: db:backup finds no one answering
      // there, takes the folder over and copies it (after PGlite's recovery) itself.
      second.signal('SIGKILL');
      await second.exited;
      expect(existsSync(join(restoredDir, 'console.sock'))).toBe(true);
      const offline = await cli(['backup', join(root, 'out', 'offline.tar.gz')], { DATA_DIR: restoredDir });
      expect(offline, offline.stderr).toMatchObject({ code: 0 });
      expect(offline.stdout).toMatch(/taken by the data folder \(no server running\)/);
    } else {
      await second.stop();
    }
  }, 180_000);

  it.runIf(onPostgres)(
    'says in one line when pg_dump is missing or older than the server',
    async () => {
      const url = await emptyDatabaseUrl();
      const missing = await cli(['backup', join(root, 'missing.dump')], { DATABASE_URL: url, PATH: join(root, 'no-such-folder') });
      expect(missing.code).toBe(1);
      expect(missing.stderr).toBe(
        "pg_dump was not found on PATH: install the PostgreSQL client tools (the server's major version or newer), such as the postgresql-client package.\n",
      );
      const bin = join(root, 'old-bin');
      mkdirSync(bin);
      writeFileSync(join(bin, 'pg_dump'), '#!/bin/sh\necho "pg_dump (PostgreSQL) 9.6.24"\n');
      chmodSync(join(bin, 'pg_dump'), 0o755);
      const old = await cli(['backup', join(root, 'old.dump')], { DATABASE_URL: url, PATH: bin });
      expect(old.code).toBe(1);
      expect(old.stderr).toMatch(
        /^pg_dump 9 is older than the database server \(PostgreSQL \d+\): install the PostgreSQL \d+ client tools and put them first on PATH\.\n$/,
      );
      expect(existsSync(join(root, 'missing.dump')) || existsSync(join(root, 'old.dump'))).toBe(false);
    },
    60_000,
  );
});
