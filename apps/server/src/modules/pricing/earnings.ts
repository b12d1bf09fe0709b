import { sql } from 'kysely';
import type { Earnings } from '@console/domain';
import type { Caller } from '../../lib/caller.ts';
import { seller, type PricingDeps } from './queries.ts';

export function createEarnings({ db, organizations }: Pick<PricingDeps, 'db' | 'organizations'>) {
  /** What the seller earned this calendar month (UTC), by the child it came through and by agent. */
  async function earnings(caller: Caller, id: string): Promise<Earnings> {
    const org = await seller({ db, organizations }, caller, id);
    const month = sql`(date_trunc('month', now() at time zone 'UTC') at time zone 'UTC')`;
    const [byChild, byAgent, head] = await Promise.all([
      sql<{ organization_id: string; name: string; amount: string }>`
        select e.child as organization_id, coalesce(o.name, 'Unknown') as name, e.amount::numeric(16, 2)::text as amount
        from (
          select (metadata->>'child_id')::uuid as child, sum(amount) as amount from credit_ledger_entries
          where organization_id = ${org.id}::uuid and entry_type = 'earning' and created_at >= ${month}
          group by 1
        ) e left join organizations o on o.id = e.child
        order by e.amount desc, name`.execute(db),
      sql<{ agent_type_id: string; code: string; name: string; amount: string }>`
        select t.id as agent_type_id, t.code, t.name, e.amount::numeric(16, 2)::text as amount
        from (
          select agent_type_id, sum(amount) as amount from credit_ledger_entries
          where organization_id = ${org.id}::uuid and entry_type = 'earning' and created_at >= ${month}
          group by 1
        ) e join agent_types t on t.id = e.agent_type_id
        order by e.amount desc, t.name`.execute(db),
      sql<{ month: string }>`select to_char(now() at time zone 'UTC', 'YYYY-MM') as month`.execute(db),
    ]);
    const total = byAgent.rows.reduce((sum, row) => sum + BigInt(row.amount.replace('.', '')), 0n);
    const cents = total.toString().padStart(3, '0');
    return {
      month: head.rows[0]!.month,
      total: `${cents.slice(0, -2)}.${cents.slice(-2)}`,
      by_child: byChild.rows,
      by_agent: byAgent.rows,
    };
  }

  return { earnings };
}
