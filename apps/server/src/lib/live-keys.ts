import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import { hashKey } from './api-key.ts';

/**
 * How many hex digits of a secret's hash are kept: 64 bits. A made-up key shares them with a
 * live one about once in 2^64 / (live keys) tries, and even then only earns a lookup.
 */
const KEPT_DIGITS = 16;

export interface LiveKeys {
  /**
   * Whether the whole key (`oc_<prefix>_<secret>`) can be a live key: its hash is one of the
   * live secrets' as last read. A key that is not is read again first when the last read is
   * `reloadMs` old or more (or one is under way), so a key made or rolled in another process
   * is known within that.
   */
  mayBeLive(key: string): Promise<boolean>;
  /** A key found not usable after all (revoked, expired, its organization deleted): not live until read again. */
  forget(key: string): void;
}

/**
 * A read after the first takes only the keys made or rolled since the one before, less this
 * much of the database's clock: a key's `created_at` (or `rolled_at`) is its transaction's
 * start, which can fall before a read its commit follows.
 */
const OVERLAP_SECONDS = 10;

/**
 * The live keys as one process last read them: the hashes of the current secret, and of the
 * previous one while its grace period lasts, of every key neither revoked nor expired whose
 * organization is not deleted. The database stays the judge: a key found here is still
 * looked up, so a revocation takes effect at once everywhere; this only spares the lookup
 * of a key that cannot be real.
 *
 * Only an address past its refused-key allowance asks, so the keys are read only while such
 * an address sends keys, and then at most once per `reloadMs` whatever their number: made-up
 * keys cost no database work beyond that one read, and every process reads the same table,
 * so each knows every other's new keys within `reloadMs`. After the first, a read takes only
 * the keys made or rolled since the last (through their indexes on `created_at` and
 * `rolled_at`), and a whole read comes at most once per `fullReadMs`, so a flood from an address
 * costs each process one small read a second however many keys the house has.
 */
export function createLiveKeys(db: Kysely<DB>, options: { reloadMs: number; fullReadMs?: number; now?: () => number }): LiveKeys {
  const now = options.now ?? Date.now;
  // A whole read drops keys revoked or expired since, and catches a key whose transaction outlasted the overlap.
  const fullReadMs = options.fullReadMs ?? 60_000;
  let kept: Set<string> | null = null;
  let readAt: number | null = null;
  let fullReadAt = 0;
  /** The database's clock at the start of the last read: the next one takes what changed since (less the overlap). */
  let since: string | null = null;
  let reading: Promise<void> | null = null;

  async function read(): Promise<void> {
    readAt = now();
    const whole = kept === null || since === null || readAt - fullReadAt >= fullReadMs;
    const started = (await sql<{ at: string }>`select now()::text as at`.execute(db)).rows[0]!.at;
    const changed = whole
      ? sql`true`
      : sql`(k.created_at >= ${since}::timestamptz - make_interval(secs => ${OVERLAP_SECONDS})
             or k.rolled_at >= ${since}::timestamptz - make_interval(secs => ${OVERLAP_SECONDS}))`;
    const { rows } = await sql<{ current: string; previous: string | null }>`
      select left(k.secret_hash, ${KEPT_DIGITS}) as current,
        case when k.previous_expires_at > now() then left(k.previous_secret_hash, ${KEPT_DIGITS}) end as previous
      from api_keys k join organizations o on o.id = k.organization_id
      where k.revoked_at is null and (k.expires_at is null or k.expires_at > now()) and o.deleted_at is null and ${changed}`.execute(db);
    const next = whole ? new Set<string>() : kept!;
    for (const row of rows) {
      next.add(row.current);
      if (row.previous) next.add(row.previous);
    }
    kept = next;
    since = started;
    if (whole) fullReadAt = readAt;
  }

  const digest = (key: string) => hashKey(key).slice(0, KEPT_DIGITS);

  return {
    async mayBeLive(key) {
      const hash = digest(key);
      if (kept?.has(hash)) return true;
      // A failed read counts as a read: the database is asked at most once per reloadMs whatever happens.
      if (!reading && readAt !== null && now() - readAt < options.reloadMs) return false;
      reading ??= read().finally(() => {
        reading = null;
      });
      await reading;
      return kept?.has(hash) ?? false;
    },
    forget(key) {
      kept?.delete(digest(key));
    },
  };
}
