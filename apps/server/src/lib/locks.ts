import { sql, type Transaction } from 'kysely';
import type { DB } from '../db/schema.ts';

/**
 * Every PostgreSQL advisory lock the server and its SQL rules take, and the one place their
 * numbers are written. Each is a transaction-level lock (`pg_advisory_xact_lock`), released
 * when the transaction ends. Two locks are the same lock only if their numbers are, so every
 * number here is distinct (`locks.test.ts`), and no other file writes one: TypeScript takes a
 * lock through the functions below, a SQL rule through `lock_class('<name>')`, a function
 * generated from `LOCK_CLASSES` (`db/lock-class-rule.ts`).
 *
 * A number never changes once released: processes of two releases running side by side
 * during a rolling start must take the same lock for the same thing.
 */

/**
 * The classes of keyed locks: a lock on (class, hashtext(key)), one per class and key, so
 * that different keys of one class never wait for each other.
 */
export const LOCK_CLASSES = {
  /**
   * A seller's price book (its book prices and its child prices), by organization id.
   * `usage_batch_lock` holds it shared while a batch reads the books above it; a price
   * change, a child price change and a change of spend controls hold it exclusively, so a
   * change takes effect after the batches that read the book it replaces (and its time is
   * read after them).
   */
  book: 7031,
  /** One e-mail's account creation and moves, by the lowercased e-mail: they take turns. */
  email: 0x1a71,
  /** An organization's provisioning (its SCIM tokens and its SCIM changes), by organization id. */
  scim: 0x5c1d,
  /**
   * One person's shared CSV export slots, by user id: their takes run one at a time. (Its
   * number is hashtext('export_slots'), the class earlier releases computed.)
   */
  export_slots: -602_322_046,
} as const;

/** The locks of one whole thing, with no key: one lock each. */
export const LOCK_KEYS = {
  /** A migration run: processes starting at once on one server migrate once. */
  migration: 734_112_001,
  /** The first house admin's creation on an empty database: the first process creates it. */
  first_admin: 7_203_114_551,
  /**
   * Webhook deliveries' leases, which take turns across every process. (Its number is
   * hashtext('webhook_deliveries lease'), the key earlier releases computed.)
   */
  webhook_lease: -1_298_530_676,
} as const;

export type LockClass = keyof typeof LOCK_CLASSES;
export type LockKey = keyof typeof LOCK_KEYS;

/**
 * Waits for, then holds until the transaction ends, the lock of `key` in its class. It takes
 * a transaction: outside one, the lock would be released as soon as it is taken.
 */
export async function lockKeyed(trx: Transaction<DB>, lockClass: LockClass, key: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(${sql.lit(LOCK_CLASSES[lockClass])}, hashtext(${key}::text))`.execute(trx);
}

/** Waits for, then holds until the transaction ends, a whole-thing lock. */
export async function lockWhole(trx: Transaction<DB>, name: LockKey): Promise<void> {
  await sql`select pg_advisory_xact_lock(${sql.lit(LOCK_KEYS[name])})`.execute(trx);
}
