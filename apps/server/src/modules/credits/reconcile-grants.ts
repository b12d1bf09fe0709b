import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';

export interface GrantMismatch {
  organization_id: string;
  grant_id: string | null;
  entry_id: string | null;
  reason: 'moves' | 'entry' | 'grant' | 'over_balance' | 'expired_with_remainder' | 'entry_overdrawn' | 'out_of_scope' | 'after_expiry';
}

/**
 * Checks credit grants against their entries (the moves, and the draws a consumption keeps in
 * its metadata):
 * - moves: a grant's remaining is not the sum of its moves;
 * - entry: a move names no entry of the grant's organization;
 * - grant: a move names no grant;
 * - over_balance: an organization's grants hold more than its balance (its open credits
 *   would be negative);
 * - expired_with_remainder: a grant marked expired still holds credits;
 * - entry_overdrawn: an entry's moves go the other way than the entry, or beyond it;
 * - out_of_scope: a consumption drew from a grant for other agent types;
 * - after_expiry: anything but the expiry drew from a grant after its instant.
 */
export async function grantMismatches(db: Kysely<DB>): Promise<GrantMismatch[]> {
  const { rows } = await sql<GrantMismatch>`
    with all_moves as (
      select m.entry_id, m.grant_id, m.amount from credit_grant_moves m
      union all
      -- A consumption's draws are in its metadata.
      select e.id, k.key::uuid, -(k.value::numeric)
      from credit_ledger_entries e cross join jsonb_each_text(e.metadata -> 'grants') k
      where e.entry_type = 'consumption' and e.metadata ? 'grants'
    ),
    moved as (
      select m.grant_id, sum(m.amount) as total from all_moves m group by m.grant_id
    ),
    per_entry as (
      select m.entry_id, sum(m.amount) as total from all_moves m group by m.entry_id
    )
    select g.organization_id, g.id as grant_id, null::uuid as entry_id, 'moves' as reason
    from credit_grants g left join moved on moved.grant_id = g.id
    where g.remaining <> coalesce(moved.total, 0)
    union all
    select g.organization_id, g.id, m.entry_id, 'entry'
    from all_moves m join credit_grants g on g.id = m.grant_id
    left join credit_ledger_entries e on e.id = m.entry_id
    where e.id is null or e.organization_id <> g.organization_id
    union all
    select e.organization_id, m.grant_id, m.entry_id, 'grant'
    from all_moves m left join credit_grants g on g.id = m.grant_id
    left join credit_ledger_entries e on e.id = m.entry_id
    where g.id is null
    union all
    select b.organization_id, null, null, 'over_balance'
    from organization_billing_settings b
    join (select organization_id, sum(remaining) as held from credit_grants where remaining > 0 group by organization_id) h
      on h.organization_id = b.organization_id
    where h.held > b.credit_balance
    union all
    select g.organization_id, g.id, null, 'expired_with_remainder'
    from credit_grants g where g.expired_at is not null and g.remaining > 0
    union all
    select e.organization_id, null, e.id, 'entry_overdrawn'
    from per_entry p join credit_ledger_entries e on e.id = p.entry_id
    where sign(p.total) <> sign(e.amount) or abs(p.total) > abs(e.amount)
    union all
    select g.organization_id, g.id, e.id, 'out_of_scope'
    from all_moves m join credit_grants g on g.id = m.grant_id join credit_ledger_entries e on e.id = m.entry_id
    where e.entry_type = 'consumption' and g.agent_type_ids is not null
      and (e.agent_type_id is null or not (e.agent_type_id = any(g.agent_type_ids)))
    union all
    select g.organization_id, g.id, e.id, 'after_expiry'
    from all_moves m join credit_grants g on g.id = m.grant_id join credit_ledger_entries e on e.id = m.entry_id
    where m.amount < 0 and e.entry_type <> 'expiry' and g.expires_at is not null and e.created_at > g.expires_at
    limit 100`.execute(db);
  return rows;
}
