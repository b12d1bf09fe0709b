import { sql, type Kysely } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { DB } from '../db/schema.ts';

/**
 * Counts the use of API keys without a write per request, so a busy key's row is no hot
 * spot: uses are added up in memory and written at most once a second per process, in one
 * statement for every key used meanwhile (use_count + n, last_used_at the latest use), rows
 * in key order. Closing writes what is pending; a process killed between two writes loses
 * at most that second's count, which is a figure shown to people, not money.
 */
export interface KeyUseCounter {
  count(keyId: string): void;
  /** Writes what is pending now (tests, shutdown). */
  flush(): Promise<void>;
  close(): Promise<void>;
}

export function createKeyUseCounter(db: Kysely<DB>, log: FastifyBaseLogger, intervalMs = 1000): KeyUseCounter {
  let pending = new Map<string, { uses: number; at: string }>();
  let timer: NodeJS.Timeout | null = null;
  let writing: Promise<void> = Promise.resolve();

  async function write(batch: Map<string, { uses: number; at: string }>) {
    if (batch.size === 0) return;
    const rows = [...batch.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([id, use]) => ({ id, ...use }));
    try {
      await sql`
        update api_keys k set use_count = k.use_count + x.uses, last_used_at = greatest(k.last_used_at, x.at)
        from (select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(id uuid, uses bigint, at timestamptz) order by r.id) x
        where k.id = x.id`.execute(db);
    } catch (error) {
      log.warn({ err: error, keys: rows.length }, 'API key use counts were not written');
    }
  }

  function flush(): Promise<void> {
    if (timer) clearTimeout(timer);
    timer = null;
    const batch = pending;
    pending = new Map();
    writing = writing.then(() => write(batch));
    return writing;
  }

  return {
    count(keyId) {
      const use = pending.get(keyId);
      const at = new Date().toISOString();
      if (use) {
        use.uses++;
        use.at = at;
      } else {
        pending.set(keyId, { uses: 1, at });
      }
      if (!timer) {
        timer = setTimeout(() => void flush(), intervalMs);
        timer.unref();
      }
    },
    flush,
    close: flush,
  };
}
