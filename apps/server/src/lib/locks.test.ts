import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/connection.ts';
import { LOCK_CLASS_RULE, lockClassRuleText } from '../db/lock-class-rule.ts';
import { listRules } from '../db/migrate.ts';
import { freshDatabase } from '../test/harness.ts';
import { LOCK_CLASSES, LOCK_KEYS, lockKeyed, lockWhole, type LockClass, type LockKey } from './locks.ts';

/**
 * The advisory locks' registry is their one source: its numbers are distinct, the SQL rules
 * read the same numbers, the functions take the lock the registry names, and no production
 * file writes a lock's number or class key of its own.
 */

const SERVER_SRC = fileURLToPath(new URL('../', import.meta.url));
const INT4 = 2 ** 31;

let database: Database;
beforeAll(async () => {
  database = await freshDatabase();
});
afterAll(async () => {
  await database.close();
});

/** The advisory locks this transaction holds, as pg_locks shows them. */
async function heldLocks(trx: Parameters<typeof lockKeyed>[0]) {
  const { rows } = await sql<{ classid: string; objid: string; objsubid: number }>`
    select classid::text, objid::text, objsubid from pg_locks
    where locktype = 'advisory' and pid = pg_backend_pid()`.execute(trx);
  return rows;
}

/** PostgreSQL keeps a 64-bit key, or two 32-bit ones, as two unsigned 32-bit halves. */
const unsigned = (n: number) => String(n >>> 0);

describe('the advisory lock registry', () => {
  it('gives every lock its own number: keyed classes fit an integer, whole keys a bigint', () => {
    const numbers = [...Object.values(LOCK_CLASSES), ...Object.values(LOCK_KEYS)];
    expect(new Set(numbers).size).toBe(numbers.length);
    for (const n of Object.values(LOCK_CLASSES)) expect(Number.isInteger(n) && n >= -INT4 && n < INT4).toBe(true);
    for (const n of Object.values(LOCK_KEYS)) expect(Number.isSafeInteger(n)).toBe(true);
  });

  it('is what the lock_class rule, written from it by the migrator, answers', async () => {
    expect(listRules().find((rule) => rule.name === LOCK_CLASS_RULE)?.sql).toBe(lockClassRuleText());
    for (const [name, number] of Object.entries(LOCK_CLASSES)) {
      const { rows } = await sql<{ n: number }>`select lock_class(${name}) as n`.execute(database.db);
      expect(rows[0]!.n, name).toBe(number);
    }
    await expect(sql`select lock_class('no_such_class')`.execute(database.db)).rejects.toThrow(/case not found/i);
  });

  it('takes, for a class and a key, the lock a SQL rule takes by lock_class', async () => {
    for (const name of Object.keys(LOCK_CLASSES) as LockClass[]) {
      await database.db.transaction().execute(async (trx) => {
        await lockKeyed(trx, name, 'a key');
        const { rows } = await sql<{ objid: string }>`select (hashtext('a key')::bigint & 4294967295)::text as objid`.execute(trx);
        expect(await heldLocks(trx)).toEqual([{ classid: unsigned(LOCK_CLASSES[name]), objid: rows[0]!.objid, objsubid: 2 }]);
        await sql`select pg_advisory_xact_lock(lock_class(${name}), hashtext('a key'))`.execute(trx);
        expect(await heldLocks(trx), 'the same lock, taken twice').toHaveLength(1);
      });
    }
  });

  it('takes, for a whole thing, the one lock of its key', async () => {
    for (const name of Object.keys(LOCK_KEYS) as LockKey[]) {
      await database.db.transaction().execute(async (trx) => {
        await lockWhole(trx, name);
        const key = BigInt(LOCK_KEYS[name]);
        expect(await heldLocks(trx)).toEqual([
          { classid: String(BigInt.asUintN(32, key >> 32n)), objid: String(BigInt.asUintN(32, key)), objsubid: 1 },
        ]);
      });
    }
  });
});

/** The production sources: the server's TypeScript but its tests, and the SQL rules. */
function productionFiles(dir = SERVER_SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'test' ? [] : productionFiles(path);
    return /\.(ts|sql)$/.test(entry.name) && !/\.test\.ts$/.test(entry.name) ? [path] : [];
  });
}

describe('the production code', () => {
  it('writes no lock number or class key outside the registry', () => {
    // The registry itself, and its SQL view, which shows a rule how to call lock_class.
    const registry = new Set([join('lib', 'locks.ts'), join('db', 'lock-class-rule.ts')]);
    const advisory = /pg_(?:try_)?advisory_\w*\(\s*([^)]*)/g;
    const offences: string[] = [];
    for (const file of productionFiles()) {
      const name = relative(SERVER_SRC, file);
      if (registry.has(name)) continue;
      for (const line of readFileSync(file, 'utf8').split('\n')) {
        for (const [call, first] of line.matchAll(advisory)) {
          // A SQL rule names its class by lock_class; TypeScript passes a number of the registry.
          const named = file.endsWith('.sql') ? first!.startsWith('lock_class(') : /LOCK_(CLASSES|KEYS)\b/.test(line);
          if (!named) offences.push(`${name}: ${call}`);
        }
      }
    }
    expect(offences).toEqual([]);
  });
});
