import { sql } from 'kysely';
import {
  AGING_BUCKETS,
  MESSAGES,
  agingBucket,
  mayViewSellerBooks,
  type AgingBucket,
  type Receivables,
  toCents,
  fromCents,
  todayUtc,
} from '@console/domain';
import type { Caller } from '../../lib/caller.ts';
import { NotFoundError } from '../../lib/errors.ts';
import { type PaymentsDeps } from './queries.ts';

interface Tally {
  buckets: Record<AgingBucket, bigint>;
  overdue: number;
}

const emptyTally = (): Tally => ({ buckets: { days_0_30: 0n, days_31_60: 0n, days_61_plus: 0n }, overdue: 0 });

const totalOf = (tally: Tally): bigint => AGING_BUCKETS.reduce((sum, bucket) => sum + tally.buckets[bucket], 0n);

const figures = (tally: Tally) => ({
  days_0_30: fromCents(tally.buckets.days_0_30),
  days_31_60: fromCents(tally.buckets.days_31_60),
  days_61_plus: fromCents(tally.buckets.days_61_plus),
  total: fromCents(totalOf(tally)),
  overdue: tally.overdue,
});

/**
 * What each child still owes the seller: every invoice that is neither void nor paid in full
 * counts what is left of it in the bucket of its age (days since its issue date, UTC), and as
 * overdue once past its due date. Read by the seller's own people (404 for anyone else, above it
 * too: what a seller charges is its own business). Only children that owe something are listed,
 * the largest debt first.
 */
export function createReceivables({ db }: PaymentsDeps) {
  async function receivables(caller: Caller, sellerId: string): Promise<Receivables> {
    if (!mayViewSellerBooks(caller, { id: sellerId })) throw new NotFoundError(MESSAGES.organizations.notFound);
    const today = todayUtc();
    const [details, open] = await Promise.all([
      db.selectFrom('billing_details').select('currency').where('organization_id', '=', sellerId).executeTakeFirst(),
      sql<{ buyer_id: string; buyer_name: string; days: number; due_on: string; outstanding: string }>`
        select i.buyer_id, b.name as buyer_name, (${today}::date - (i.issued_at at time zone 'UTC')::date)::int as days,
          i.due_on::text as due_on, (i.total - coalesce(p.paid, 0))::numeric(18, 2)::text as outstanding
        from invoices i
        join organizations b on b.id = i.buyer_id
        left join lateral (
          select sum(x.amount) as paid from invoice_payments x where x.invoice_id = i.id and x.reversed_at is null
        ) p on true
        where i.seller_id = ${sellerId} and i.kind = 'invoice' and i.voided_at is null and i.total > coalesce(p.paid, 0)`.execute(db),
    ]);
    const byChild = new Map<string, { name: string; tally: Tally }>();
    const totals = emptyTally();
    for (const row of open.rows) {
      const child = byChild.get(row.buyer_id) ?? { name: row.buyer_name, tally: emptyTally() };
      byChild.set(row.buyer_id, child);
      const bucket = agingBucket(Math.max(row.days, 0));
      const owed = toCents(row.outstanding);
      child.tally.buckets[bucket] += owed;
      totals.buckets[bucket] += owed;
      if (today > row.due_on) {
        child.tally.overdue += 1;
        totals.overdue += 1;
      }
    }
    const children = [...byChild.entries()]
      .sort(([idA, a], [idB, b]) => {
        const [ta, tb] = [totalOf(a.tally), totalOf(b.tally)];
        if (ta !== tb) return ta > tb ? -1 : 1;
        return a.name.localeCompare(b.name) || idA.localeCompare(idB);
      })
      .map(([id, child]) => ({ organization: { id, name: child.name }, ...figures(child.tally) }));
    return { currency: details?.currency ?? null, children, totals: figures(totals) };
  }

  return { receivables };
}
