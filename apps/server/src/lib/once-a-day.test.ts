import { sql } from 'kysely';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/connection.ts';
import { openFreshDatabase } from '../test/harness.ts';
import { startOnceADay } from './once-a-day.ts';

let database: Database;
const logger = pino({ level: 'silent' });

beforeAll(async () => {
  database = (await openFreshDatabase()).database;
});
afterAll(async () => {
  await database?.close();
});

const looksOf = async (name: string) =>
  (await sql<{ count: number }>`select count from rate_limits where key = ${`daily:${name}`}`.execute(database.db)).rows[0]?.count ?? 0;

describe('a chore done once a day across processes', () => {
  it('runs once when several processes look at once, and counts every look of the window', async () => {
    const runs: number[] = [];
    const loops = [1, 2, 3].map((n) =>
      startOnceADay({
        db: database.db,
        logger,
        name: 'together',
        work: async () => {
          runs.push(n);
          await new Promise((resolve) => setTimeout(resolve, 100));
        },
      }),
    );
    await Promise.all(loops.map((l) => l.first));
    await loops[0]!.runNow();
    expect(runs).toHaveLength(1);
    expect(await looksOf('together')).toBe(4);
    await Promise.all(loops.map((l) => l.close()));
  });

  it('leaves the day to the next look when a run fails, its count rolled back with it', async () => {
    let fail = true;
    let runs = 0;
    const loop = startOnceADay({
      db: database.db,
      logger,
      name: 'failing',
      work: async () => {
        if (fail) throw new Error('the chore failed');
        runs++;
      },
    });
    await loop.first;
    expect(await looksOf('failing')).toBe(0);
    fail = false;
    await loop.runNow();
    await loop.runNow();
    expect(runs).toBe(1);
    expect(await looksOf('failing')).toBe(2);
    await loop.close();
  });
});
