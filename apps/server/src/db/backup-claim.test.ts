import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openFreshDatabase } from '../test/harness.ts';
import { claimBackupWindow } from './backup-claim.ts';
import type { Database } from './connection.ts';

const onPostgres = Boolean(inject('pgServerUrl'));
let database: Database;
let url: string;

beforeAll(async () => {
  if (!onPostgres) return;
  const fresh = await openFreshDatabase();
  database = fresh.database;
  url = fresh.url!;
});
afterAll(async () => {
  await database?.close();
});

describe.skipIf(!onPostgres)('the scheduled backup window of several hosts (PostgreSQL)', () => {
  it('goes to the first claim of a window, and back to the next claim once a failed backup releases it', async () => {
    const hour = 60 * 60_000;
    const first = await claimBackupWindow(url, hour);
    expect(first).not.toBeNull();
    expect(await claimBackupWindow(url, hour)).toBeNull();
    await first!.release();
    const again = await claimBackupWindow(url, hour);
    expect(again).not.toBeNull();
    expect(await claimBackupWindow(url, hour)).toBeNull();
    await again!.release();
  });

  it('opens a new window once BACKUP_EVERY has passed since the first claim', async () => {
    const first = await claimBackupWindow(url, 1);
    expect(first).not.toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await claimBackupWindow(url, 60 * 60_000)).not.toBeNull();
  });
});
