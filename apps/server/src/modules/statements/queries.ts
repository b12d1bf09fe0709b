import { sql, type Kysely } from 'kysely';
import type { StatementGroupKind } from '@console/domain';
import type { DB, Executor } from '../../db/schema.ts';
import type { OrganizationsService } from '../organizations/organizations.service.ts';
import type { Period } from './period.ts';

/** What each use case of the module is built from. */
export interface StatementsDeps {
  db: Kysely<DB>;
  organizations: OrganizationsService;
}

/** The balances that bound a period, and the chain head at its end. */
export interface BoundsRow {
  partial: boolean;
  opening: string;
  closing: string;
  code: string | null;
}

/**
 * The balance before the period, the balance and hash of the last entry before its end (or
 * now, for the month under way), and whether it is under way. Both reads take the newest entry
 * below a date from the index on (organization_id, created_at desc, seq desc): per organization
 * created_at follows seq (ledger_post dates entries after the balance lock), so that entry is
 * the last one posted. Read in the same transaction as the groups, so `now()` is one instant.
 */
export async function readBounds(executor: Executor, organizationId: string, period: Period): Promise<BoundsRow> {
  const { rows } = await sql<BoundsRow>`
    with b as (select ${period.start}::timestamptz as start, least(${period.end}::timestamptz, now()) as until)
    select now() < ${period.end}::timestamptz as partial,
      coalesce(
        (select e.balance_after from credit_ledger_entries e
         where e.organization_id = ${organizationId} and e.created_at < least(b.start, b.until)
         order by e.created_at desc, e.seq desc limit 1),
        0)::numeric(16, 2)::text as opening,
      coalesce(last.balance_after, 0)::numeric(16, 2)::text as closing,
      encode(last.hash, 'hex') as code
    from b
    left join lateral (
      select e.balance_after, e.hash from credit_ledger_entries e
      where e.organization_id = ${organizationId} and e.created_at < b.until
      order by e.created_at desc, e.seq desc limit 1
    ) last on true`.execute(executor);
  return rows[0]!;
}

export interface GroupRow {
  kind: StatementGroupKind;
  counterparty_id: string | null;
  counterparty_name: string | null;
  agent_id: string | null;
  agent_name: string | null;
  units: string | null;
  unit_price: string | null;
  entries: number;
  amount: string;
}

const UUID = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';

/**
 * The period's entries summed by kind and counterparty or agent type, in one `group by` over
 * the organization's index range (a usage organization has thousands of consumption entries a
 * month; they come back as one row per agent type).
 * - An allocation is a top-up when it is marked automatic: the received side always is; the
 *   sent side by its own metadata, or else by its received side in the same transaction group.
 * - The counterparty is the other organization the entry names (from_org_id / to_org_id), and
 *   for an earning the child it was earned through (`child_id`, written by usage_post), unless
 *   the viewer may not see margins: then earnings are one group without a child.
 * - A refund names no agent type itself: it is the one of the consumption it gives back (the
 *   usage event, or the older consumption entry, its refund_of names).
 * Names are today's where the organization or agent type still exists, else what the entry
 * stored.
 */
export async function readGroups(
  executor: Executor,
  organizationId: string,
  period: Period,
  view: { margins: boolean; prices: boolean },
): Promise<GroupRow[]> {
  const { rows } = await sql<GroupRow>`
    with moved as (
      select e.entry_type, e.amount, e.units, e.metadata, e.transaction_group, e.agent_type_id, e.refund_of
      from credit_ledger_entries e
      where e.organization_id = ${organizationId}
        and e.created_at >= ${period.start}::timestamptz and e.created_at < least(${period.end}::timestamptz, now())
    ),
    keyed as (
      select
        case
          when m.entry_type = 'allocation_received' and m.metadata->>'automatic' = 'true' then 'top_up_received'
          when m.entry_type = 'allocation_sent' and case
            when m.metadata ? 'automatic' then m.metadata->>'automatic' = 'true'
            else exists (select 1 from credit_ledger_entries r
                         where r.transaction_group = m.transaction_group and r.entry_type = 'allocation_received'
                           and r.metadata->>'automatic' = 'true')
          end then 'top_up_sent'
          else m.entry_type
        end as kind,
        case
          when m.entry_type in ('allocation_received', 'initial_balance', 'reversal_received', 'expiry_returned') then m.metadata->>'from_org_id'
          when m.entry_type in ('allocation_sent', 'reversal_sent', 'expiry') then m.metadata->>'to_org_id'
          when m.entry_type = 'earning' and ${view.margins}::boolean then m.metadata->>'child_id'
        end as counterparty_id,
        case
          when m.entry_type in ('allocation_received', 'initial_balance', 'reversal_received', 'expiry_returned') then m.metadata->>'from_org_name'
          when m.entry_type in ('allocation_sent', 'reversal_sent', 'expiry') then m.metadata->>'to_org_name'
          when m.entry_type = 'earning' and ${view.margins}::boolean then m.metadata->>'child_name'
        end as counterparty_name,
        case
          when m.entry_type = 'consumption' then m.agent_type_id
          when m.entry_type = 'refund' then coalesce(m.agent_type_id,
            (select u.agent_type_id from usage_events u
             where u.organization_id = ${organizationId} and u.client_event_id = m.refund_of
             order by u.agent_type_id limit 1),
            (select c.agent_type_id from credit_ledger_entries c
             where c.organization_id = ${organizationId} and c.entry_type = 'consumption' and c.external_ref = m.refund_of
             limit 1))
        end as agent_id,
        case when m.entry_type in ('consumption', 'refund') then m.units end as units,
        m.amount
      from moved m
    ),
    grouped as (
      select k.kind, k.counterparty_id, max(k.counterparty_name) as stored_name, k.agent_id,
             sum(k.units) as units, count(*)::integer as entries, sum(k.amount) as amount
      from keyed k
      group by k.kind, k.counterparty_id, k.agent_id
    )
    select g.kind, g.counterparty_id, coalesce(o.name, g.stored_name, g.counterparty_id) as counterparty_name,
           g.agent_id::text as agent_id, a.name as agent_name,
           g.units::numeric(18, 4)::text as units,
           case when ${view.prices}::boolean and g.units > 0 then round(abs(g.amount) / g.units, 6)::text end as unit_price,
           g.entries, g.amount::numeric(16, 2)::text as amount
    from grouped g
    left join organizations o on o.id = case when g.counterparty_id ~ ${UUID} then g.counterparty_id::uuid end
    left join agent_types a on a.id = g.agent_id`.execute(executor);
  return rows;
}

export interface ChainRow {
  checked: number;
  head: string | null;
  broken_seq: string | null;
  broken_id: string | null;
  reason: 'edited' | 'missing_before' | 'missing_at_end' | null;
}

/** The organization's chain walked up to the period's end (or now), by ledger_chain_check. */
export async function readChain(executor: Executor, organizationId: string, period: Period): Promise<ChainRow> {
  const { rows } = await sql<ChainRow>`
    select c.checked::integer as checked, encode(c.head, 'hex') as head, c.broken_seq::text as broken_seq,
           c.broken_id::text as broken_id, c.reason
    from ledger_chain_check(${organizationId}::uuid, least(${period.end}::timestamptz, now())) c`.execute(executor);
  return rows[0]!;
}
