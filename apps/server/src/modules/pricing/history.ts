import { sql } from 'kysely';
import { PAGING } from '@console/domain';
import type { Caller } from '../../lib/caller.ts';
import { seller, type PricingDeps } from './queries.ts';

export function createHistory({ db, organizations }: Pick<PricingDeps, 'db' | 'organizations'>) {
  /** The book's changes and the child prices' changes, newest first. */
  async function history(caller: Caller, id: string, page: number) {
    const org = await seller({ db, organizations }, caller, id);
    const pageSize = PAGING.ledgerPageSize;
    const [items, total] = await Promise.all([
      sql<{
        id: string;
        agent_type_id: string;
        code: string;
        name: string;
        child_id: string | null;
        child_name: string | null;
        price: string | null;
        effective_from: string;
        changed_by: string | null;
      }>`
        select b.id, t.id as agent_type_id, t.code, t.name, b.child_id, c.name as child_name, b.price::numeric(14, 4)::text as price,
               to_char(b.effective_from at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as effective_from, coalesce(nullif(concat_ws(' ', u.first_name, u.last_name), ''), u.email) as changed_by
        from (
          select id, agent_type_id, null::uuid as child_id, price, effective_from, created_by from organization_prices where organization_id = ${org.id}::uuid
          union all
          select id, agent_type_id, child_id, price, effective_from, created_by from organization_child_prices where organization_id = ${org.id}::uuid
        ) b
        join agent_types t on t.id = b.agent_type_id
        left join organizations c on c.id = b.child_id
        left join users u on u.id = b.created_by
        order by b.effective_from desc, b.id desc
        limit ${pageSize} offset ${(page - 1) * pageSize}`.execute(db),
      sql<{ n: string }>`
        select ((select count(*) from organization_prices where organization_id = ${org.id}::uuid)
              + (select count(*) from organization_child_prices where organization_id = ${org.id}::uuid))::text as n`.execute(db),
    ]);
    return {
      items: items.rows.map((row) => ({
        id: row.id,
        agent_type: { id: row.agent_type_id, code: row.code, name: row.name },
        child: row.child_id === null ? null : { id: row.child_id, name: row.child_name ?? '' },
        price: row.price,
        effective_from: row.effective_from,
        changed_by: row.changed_by,
      })),
      total: Number(total.rows[0]!.n),
      page,
      page_size: pageSize,
    };
  }

  return { history };
}
