import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';

/** The background queues whose depth and oldest item a scrape reads. */
export const QUEUES = ['webhook_deliveries', 'top_ups', 'mail', 'balance_alerts'] as const;
export type QueueName = (typeof QUEUES)[number];

export interface DatabaseFigures {
  queues: Partial<Record<QueueName, { depth: number; oldestSeconds: number }>>;
  /** Ledger entries written, by entry type. */
  ledger: Record<string, number>;
}

/**
 * One statement per scrape. Each queue is read through the partial index of its waiting rows
 * (webhook deliveries pending, top-up requests not done, balance alerts not mailed; the mail
 * queue holds only waiting mail), so the cost follows what waits, not the history. Ledger
 * entries come from the per-organization totals the ledger's trigger keeps, not the entries.
 */
export async function readDatabaseFigures(db: Kysely<DB>): Promise<DatabaseFigures> {
  const { rows } = await sql<{ kind: string; name: string; depth: string; oldest: number | null }>`
    select 'queue' as kind, 'webhook_deliveries' as name, count(*)::text as depth,
      extract(epoch from now() - min(created_at))::float8 as oldest
    from webhook_deliveries where state = 'pending'
    union all
    select 'queue', 'top_ups', count(*)::text, extract(epoch from now() - min(created_at))::float8
    from top_up_requests where done_at is null
    union all
    select 'queue', 'mail', count(*)::text, extract(epoch from now() - min(created_at))::float8 from mail_queue
    union all
    select 'queue', 'balance_alerts', count(*)::text, extract(epoch from now() - min(created_at))::float8
    from balance_alerts where mailed_at is null
    union all
    select 'ledger', entry_type, sum(entries)::text, null from credit_ledger_totals group by entry_type`.execute(db);
  const figures: DatabaseFigures = { queues: {}, ledger: {} };
  for (const row of rows) {
    if (row.kind === 'queue') {
      figures.queues[row.name as QueueName] = { depth: Number(row.depth), oldestSeconds: Math.max(0, Number(row.oldest ?? 0)) };
    } else figures.ledger[row.name] = Number(row.depth);
  }
  return figures;
}
