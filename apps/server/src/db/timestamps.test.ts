import fc from 'fast-check';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isoTimestamp, type Database } from './connection.ts';
import { freshDatabase } from '../test/harness.ts';

/** What pg gave before: a Date, written back as text by the services. */
const asDate = pg.types.getTypeParser(1184, 'text') as (text: string) => Date;

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** A timestamp as PostgreSQL writes it in a session at `offsetMinutes`, with `micros` beyond the millisecond. */
function postgresText(date: Date, micros: number, offsetMinutes: number): string {
  const local = new Date(date.getTime() + offsetMinutes * 60_000);
  const fraction = `${pad(local.getUTCMilliseconds(), 3)}${pad(micros, 3)}`.replace(/0+$/, '');
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  const offset = `${sign}${pad(Math.floor(abs / 60))}${abs % 60 ? `:${pad(abs % 60)}` : ''}`;
  return (
    `${pad(local.getUTCFullYear(), 4)}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())} ` +
    `${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}${fraction ? `.${fraction}` : ''}${offset}`
  );
}

describe('isoTimestamp', () => {
  it('gives the text toISOString() gave for the Date pg parsed, in UTC and at other offsets', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('0100-01-01T00:00:00Z'), max: new Date('9999-12-30T00:00:00Z'), noInvalidDate: true }),
        fc.integer({ min: 0, max: 999 }),
        fc.oneof(fc.constant(0), fc.constantFrom(-720, -330, 60, 345, 840)),
        (date, micros, offset) => {
          const text = postgresText(date, micros, offset);
          expect(isoTimestamp(text)).toBe(asDate(text).toISOString());
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('cuts microseconds to milliseconds, as a Date did', () => {
    expect(isoTimestamp('2026-11-27 01:46:59.123999+00')).toBe('2026-11-27T01:46:59.123Z');
    expect(isoTimestamp('2026-11-27 01:46:59.5+00')).toBe('2026-11-27T01:46:59.500Z');
    expect(isoTimestamp('2026-11-27 01:46:59+00')).toBe('2026-11-27T01:46:59.000Z');
    expect(isoTimestamp('2026-11-27 03:46:59.000999+02')).toBe('2026-11-27T01:46:59.000Z');
    expect(isoTimestamp('infinity')).toBe('infinity');
  });
});

describe('timestamps read from the database', () => {
  let database: Database;
  beforeAll(async () => {
    database = await freshDatabase();
  });
  afterAll(async () => {
    await database.close();
  });

  it('arrive as ISO-8601 text in UTC, with milliseconds, whatever the session time zone', async () => {
    const { rows } = await sql<{ tz: string; plain: string; zoned: string }>`
      select '2026-11-27 01:46:59.123456+00'::timestamptz as tz,
             '2026-11-27 01:46:59.9'::timestamp as plain,
             '2026-11-27 03:46:59.000999+02'::timestamptz as zoned
    `.execute(database.db);
    expect(rows[0]).toEqual({
      tz: '2026-11-27T01:46:59.123Z',
      plain: new Date(2026, 10, 27, 1, 46, 59, 900).toISOString(),
      zoned: '2026-11-27T01:46:59.000Z',
    });
    // In a session at another offset: the same instants.
    const zoned = await database.db.transaction().execute(async (trx) => {
      await sql`set local time zone 'Asia/Kolkata'`.execute(trx);
      return (await sql<{ tz: string }>`select '2026-11-27 01:46:59.123456+00'::timestamptz as tz`.execute(trx)).rows[0]!.tz;
    });
    expect(zoned).toBe('2026-11-27T01:46:59.123Z');
  });
});
