import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { grantMismatches } from './reconcile-grants.ts';

/**
 * Checks the books: each balance equals the sum of its entries and its last
 * balance_after, every allocation's transaction group nets to zero, and no deleted
 * organization holds credits (they would be out of everyone's reach). Also checks the
 * maintained subtree counts and ledger totals (the dashboard's) against the organizations
 * and entries themselves. For metered usage: per organization and agent type the costs of
 * the accepted events equal what they charged plus the carry (over all events, the charges
 * plus the carry equal units × price); each consumption entry of usage (an entry naming an
 * agent type) equals its events: the same organization and agent type, its amount the sum
 * of their charges and its units the sum of their units; and, replaying each
 * organization's ledger in order, no balance ever went below zero and each balance_after is
 * the running sum. The day totals the dashboard reads (usage per day and agent type,
 * consumptions and refunds per day) are checked against the events and entries they sum.
 * For margins: per seller and agent type, units × margin over the events below it (each event
 * keeps its margins from its parent upward) equals the earnings credited plus the carry, and
 * no usage posting credited more earnings than its consumption took. Each reversal mirrors the
 * allocation it names. Each organization's hash chain is whole (ledger_chain_check): no entry
 * edited, none deleted before another, and its ledger_head the hash of its last entry. Credit
 * grants agree with their moves and entries (reconcile-grants.ts).
 */
export async function reconcile(db: Kysely<DB>) {
  const balances = await sql<{ organization_id: string; credit_balance: string; ledger_sum: string; last_balance_after: string | null }>`
    select b.organization_id, b.credit_balance,
           coalesce((select sum(e.amount) from credit_ledger_entries e where e.organization_id = b.organization_id), 0)::numeric(16,2)::text as ledger_sum,
           (select e.balance_after::text from credit_ledger_entries e where e.organization_id = b.organization_id
             order by e.created_at desc, e.seq desc limit 1) as last_balance_after
    from organization_billing_settings b`.execute(db);
  const mismatches = balances.rows.filter(
    (r) => r.credit_balance !== r.ledger_sum || r.credit_balance !== (r.last_balance_after ?? '0.00'),
  );
  const groups = await sql<{ transaction_group: string; total: string }>`
    select transaction_group, sum(amount)::text as total from credit_ledger_entries
    where entry_type in ('allocation_sent', 'allocation_received', 'initial_balance', 'reversal_sent', 'reversal_received')
    group by transaction_group having sum(amount) <> 0`.execute(db);
  const deleted = await sql<{ organization_id: string; name: string; credit_balance: string }>`
    select o.id as organization_id, o.name, b.credit_balance::text as credit_balance
    from organizations o join organization_billing_settings b on b.organization_id = o.id
    where o.deleted_at is not null and b.credit_balance <> 0
    order by o.id`.execute(db);
  const counts = await sql<{ ancestor_id: string; created_day: string; status: string; org_type: string; stored: number; actual: number }>`
    with actual as (
      select a.ancestor as ancestor_id, (o.created_at at time zone 'UTC')::date as created_day, o.status, o.org_type, count(*)::int as n
      from organizations o
      cross join lateral unnest(organization_ancestors(o.path)) a(ancestor)
      where o.deleted_at is null
      group by 1, 2, 3, 4
    )
    select ancestor_id, to_char(created_day, 'YYYY-MM-DD') as created_day, status, org_type,
           coalesce(s.n, 0) as stored, coalesce(actual.n, 0) as actual
    from actual full join (select * from organization_subtree_counts where n > 0) s
      using (ancestor_id, created_day, status, org_type)
    where coalesce(actual.n, 0) <> coalesce(s.n, 0)
    limit 100`.execute(db);
  const totals = await sql<{ organization_id: string; entry_type: string; stored: string | null; actual: string | null }>`
    with actual as (
      select organization_id, entry_type, sum(amount) as total, count(*) as entries
      from credit_ledger_entries group by organization_id, entry_type
    )
    select organization_id, entry_type, s.total::text as stored, actual.total::text as actual
    from actual full join credit_ledger_totals s using (organization_id, entry_type)
    where actual.total is distinct from s.total or actual.entries is distinct from s.entries
    limit 100`.execute(db);
  const carries = await sql<{ organization_id: string; agent_type_id: string; cost: string; charged: string; carry: string }>`
    with usage as (
      select organization_id, agent_type_id, sum(units * price) as cost, sum(charged) as charged
      from usage_events group by organization_id, agent_type_id
    )
    select organization_id, agent_type_id, coalesce(usage.cost, 0)::text as cost, coalesce(usage.charged, 0)::text as charged,
           coalesce(c.carry, 0)::text as carry
    from usage full join usage_carry c using (organization_id, agent_type_id)
    where coalesce(usage.cost, 0) <> coalesce(usage.charged, 0) + coalesce(c.carry, 0)
    order by organization_id, agent_type_id
    limit 100`.execute(db);
  const usageEntries = await sql<{
    organization_id: string;
    ledger_entry_id: string;
    problem: string;
    entry: string | null;
    events: string | null;
  }>`
    with linked as (
      select ledger_entry_id, organization_id, agent_type_id, count(*) as events, sum(units) as units, sum(charged) as charged
      from usage_events where ledger_entry_id is not null
      group by 1, 2, 3
    ),
    usage_entries as (
      select id, organization_id, entry_type, agent_type_id, amount, units from credit_ledger_entries
      where agent_type_id is not null and entry_type <> 'earning'
    )
    select coalesce(l.organization_id, u.organization_id) as organization_id, coalesce(l.id, u.ledger_entry_id) as ledger_entry_id,
           case when u.ledger_entry_id is null then 'entry without usage event'
                when l.id is null then 'events without their entry'
                else 'entry differs' end as problem,
           l.entry_type || ' ' || l.amount || ' for ' || l.units || ' units' as entry,
           u.events || ' events charged ' || u.charged || ' for ' || u.units || ' units' as events
    from usage_entries l full join linked u on u.ledger_entry_id = l.id
    where l.id is null or u.ledger_entry_id is null
       or l.organization_id <> u.organization_id or l.entry_type <> 'consumption' or l.amount <> -u.charged
       or l.agent_type_id <> u.agent_type_id or l.units is distinct from u.units
    order by 1, 2
    limit 100`.execute(db);
  const chains = await sql<{ organization_id: string; ledger_entry_id: string; running: string; balance_after: string }>`
    select organization_id, id as ledger_entry_id, running::text, balance_after::text from (
      select organization_id, id, balance_after,
             sum(amount) over (partition by organization_id order by created_at, seq rows unbounded preceding) as running
      from credit_ledger_entries
    ) l
    where running < 0 or running <> balance_after
    order by organization_id
    limit 100`.execute(db);
  const usageDays = await sql<{
    organization_id: string;
    day: string;
    agent_type_id: string;
    stored: string | null;
    actual: string | null;
  }>`
    with actual as (
      select organization_id, (occurred_at at time zone 'UTC')::date as day, agent_type_id,
             count(*) as events, sum(units) as units, sum(charged) as charged
      from usage_events group by 1, 2, 3
    )
    select organization_id, to_char(day, 'YYYY-MM-DD') as day, agent_type_id,
           s.events || ' events, ' || s.units || ' units, ' || s.charged || ' charged' as stored,
           actual.events || ' events, ' || actual.units || ' units, ' || actual.charged || ' charged' as actual
    from actual full join usage_event_days s using (organization_id, day, agent_type_id)
    where actual.events is distinct from s.events or actual.units is distinct from s.units or actual.charged is distinct from s.charged
    order by 1, 2, 3
    limit 100`.execute(db);
  const creditDays = await sql<{ organization_id: string; day: string; entry_type: string; stored: string | null; actual: string | null }>`
    with actual as (
      select organization_id, (created_at at time zone 'UTC')::date as day, entry_type, sum(amount) as total, count(*) as entries
      from credit_ledger_entries where entry_type in ('consumption', 'refund') group by 1, 2, 3
    )
    select organization_id, to_char(day, 'YYYY-MM-DD') as day, entry_type,
           s.total || ' in ' || s.entries || ' entries' as stored, actual.total || ' in ' || actual.entries || ' entries' as actual
    from actual full join credit_usage_days s using (organization_id, day, entry_type)
    where actual.total is distinct from s.total or actual.entries is distinct from s.entries
    order by 1, 2, 3
    limit 100`.execute(db);
  const earnings = await sql<{ organization_id: string; agent_type_id: string; earned: string; credited: string; carry: string }>`
    with expected as (
      select a.id as organization_id, e.agent_type_id, sum(e.units * m.margin) as earned
      from usage_events e
      join organizations o on o.id = e.organization_id
      cross join lateral unnest(e.margins) with ordinality as m(margin, k)
      cross join lateral (select (organization_ancestors(o.path))[cardinality(organization_ancestors(o.path)) + 1 - m.k::int] as id) a
      where e.margins is not null
      group by 1, 2
    ),
    credited as (
      select organization_id, agent_type_id, sum(amount) as credited from credit_ledger_entries where entry_type = 'earning' group by 1, 2
    )
    select organization_id, agent_type_id, coalesce(x.earned, 0)::text as earned, coalesce(c.credited, 0)::text as credited,
           coalesce(k.carry, 0)::text as carry
    from expected x
    full join credited c using (organization_id, agent_type_id)
    full join earning_carry k using (organization_id, agent_type_id)
    where coalesce(x.earned, 0) <> coalesce(c.credited, 0) + coalesce(k.carry, 0)
    order by 1, 2
    limit 100`.execute(db);
  const overEarned = await sql<{ transaction_group: string; earned: string; consumed: string }>`
    select transaction_group, coalesce(sum(amount) filter (where entry_type = 'earning'), 0)::text as earned,
           coalesce(-sum(amount) filter (where entry_type = 'consumption'), 0)::text as consumed
    from credit_ledger_entries where entry_type in ('consumption', 'earning')
    group by transaction_group
    having coalesce(sum(amount) filter (where entry_type = 'earning'), 0) > coalesce(-sum(amount) filter (where entry_type = 'consumption'), 0)
    limit 100`.execute(db);
  // A reversal gives back exactly its allocation: the child's entry mirrors the allocation's
  // received one, the parent's its sent one.
  const reversals = await sql<{ transaction_group: string; reverses: string }>`
    select r.transaction_group, r.metadata->>'reverses_transaction_id' as reverses
    from credit_ledger_entries r
    left join credit_ledger_entries received
      on received.transaction_group::text = r.metadata->>'reverses_transaction_id' and received.entry_type = 'allocation_received'
    left join credit_ledger_entries sent
      on sent.transaction_group::text = r.metadata->>'reverses_transaction_id' and sent.entry_type = 'allocation_sent'
    left join credit_ledger_entries back
      on back.transaction_group = r.transaction_group and back.entry_type = 'reversal_received'
    where r.entry_type = 'reversal_sent'
      and (received.id is null or sent.id is null or back.id is null
        or received.organization_id <> r.organization_id or received.amount <> -r.amount
        or sent.organization_id <> back.organization_id or sent.amount <> -back.amount)
    limit 100`.execute(db);
  // Every organization that has entries or a chain head: the first entry that breaks its chain.
  const hashChains = await sql<{ organization_id: string; ledger_entry_id: string | null; seq: string | null; reason: string }>`
    select o.organization_id, c.broken_id as ledger_entry_id, c.broken_seq::text as seq, c.reason
    from (select organization_id from organization_billing_settings where ledger_head is not null
          union select organization_id from credit_ledger_entries) o
    cross join lateral ledger_chain_check(o.organization_id) c
    where c.reason is not null
    order by o.organization_id
    limit 100`.execute(db);
  const grants = await grantMismatches(db);
  return {
    organizations_checked: balances.rows.length,
    balance_mismatches: mismatches,
    unbalanced_groups: groups.rows,
    deleted_with_balance: deleted.rows,
    subtree_count_mismatches: counts.rows,
    ledger_total_mismatches: totals.rows,
    /** Per organization and agent type, sum(units × price) of the events <> sum(charged) + carry. */
    usage_carry_mismatches: carries.rows,
    /** Consumption entries of usage that differ from the sum of their events (or have none), and events whose entry is missing. */
    usage_entry_mismatches: usageEntries.rows,
    /** Entries where the replayed balance went below zero or differs from balance_after. */
    balance_chain_breaks: chains.rows,
    /** Accepted usage per organization, UTC day and agent type (the dashboard's) that differs from the events. */
    usage_day_mismatches: usageDays.rows,
    /** Consumptions and refunds per organization, UTC day and type (the dashboard's) that differ from the ledger. */
    credit_day_mismatches: creditDays.rows,
    /** Per seller and agent type, units × margin of the events below it <> earnings credited + carry. */
    earning_mismatches: earnings.rows,
    /** Usage postings whose earnings exceed what their consumption took. */
    over_earned_groups: overEarned.rows,
    /** Reversals that do not mirror the allocation they name. */
    reversal_mismatches: reversals.rows,
    /** Organizations whose hash chain is broken, each with its first broken entry: edited, missing_before or missing_at_end. */
    hash_chain_breaks: hashChains.rows,
    /** Credit grants that disagree with their moves or entries. */
    grant_mismatches: grants,
    ok:
      mismatches.length === 0 &&
      groups.rows.length === 0 &&
      deleted.rows.length === 0 &&
      counts.rows.length === 0 &&
      totals.rows.length === 0 &&
      carries.rows.length === 0 &&
      usageEntries.rows.length === 0 &&
      chains.rows.length === 0 &&
      usageDays.rows.length === 0 &&
      creditDays.rows.length === 0 &&
      earnings.rows.length === 0 &&
      overEarned.rows.length === 0 &&
      reversals.rows.length === 0 &&
      hashChains.rows.length === 0 &&
      grants.length === 0,
  };
}
