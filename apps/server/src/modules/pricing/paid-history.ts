import { sql } from 'kysely';
import { PAID_HISTORY_MAX, type PaidChange } from '@console/domain';
import type { Caller } from '../../lib/caller.ts';
import { seller, type PricingDeps } from './queries.ts';

export function createPaidHistory({ db, organizations }: Pick<PricingDeps, 'db' | 'organizations'>) {
  /**
   * The changes of what an organization pays, newest first: every moment a price row could move
   * its own price (a catalog price, a book of a seller above it, a price a seller set for the child
   * on its path) where its price just before differs from its price from then on. A type's first
   * price moves nothing. The house pays no one: its list is empty.
   */
  async function paidHistory(caller: Caller, id: string): Promise<{ items: PaidChange[] }> {
    const org = await seller({ db, organizations }, caller, id);
    if (org.org_type === 'house') return { items: [] };
    const { rows } = await sql<{
      agent_type_id: string;
      code: string;
      name: string;
      before: string;
      after: string;
      effective_from: string;
      by_id: string | null;
      by_name: string | null;
    }>`
      with org as (
        select o.id, organization_ancestors(o.path) as up from organizations o where o.id = ${org.id}::uuid
      ),
      moves as (
        select distinct on (m.agent_type_id, m.effective_from) m.agent_type_id, m.effective_from, m.by
        from (
          select p.agent_type_id, p.effective_from, null::uuid as by from agent_prices p
          union all
          select b.agent_type_id, b.effective_from, b.organization_id from organization_prices b, org
          where b.organization_id = any(org.up[2:])
          union all
          select c.agent_type_id, c.effective_from, c.organization_id from organization_child_prices c, org
          where c.organization_id = any(org.up[2:]) and (c.child_id = any(org.up) or c.child_id = org.id)
        ) m
        order by m.agent_type_id, m.effective_from, m.by nulls last
      )
      select t.id as agent_type_id, t.code, t.name, x.before::numeric(14, 4)::text as before, x.after::numeric(14, 4)::text as after,
             to_char(m.effective_from at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as effective_from,
             s.id as by_id, s.name as by_name
      from moves m
      cross join org
      join agent_types t on t.id = m.agent_type_id
      cross join lateral (
        select organization_price(org.id, m.agent_type_id, m.effective_from - interval '1 microsecond') as before,
               organization_price(org.id, m.agent_type_id, m.effective_from) as after
      ) x
      left join organizations s on s.id = m.by
      where x.before is not null and x.after is distinct from x.before
      order by m.effective_from desc, t.id
      limit ${PAID_HISTORY_MAX}`.execute(db);
    return {
      items: rows.map((row) => ({
        agent_type: { id: row.agent_type_id, code: row.code, name: row.name },
        before: row.before,
        after: row.after,
        effective_from: row.effective_from,
        set_by: row.by_id === null ? null : { id: row.by_id, name: row.by_name ?? '' },
      })),
    };
  }

  return { paidHistory };
}
