-- ledger_post: the one writer of the credit ledger and of balances. Allocations, adjustments,
-- initial balances, refunds and usage (the machine API and the house's import) all post here.
--
-- A posting is a list of entries (the arrays, one element per entry, in order) under one
-- transaction group. It
-- 1. locks every balance row the entries touch, in id order (credit_balances_lock);
-- 2. under the locks refuses the whole posting when an organization is missing or deleted
--    (not_found) or, with p_require_active, not active (organization_not_active);
-- 3. computes each entry's balance_after as its organization's balance plus the entries so
--    far, exactly, and refuses the whole posting at the first entry that would take a balance
--    below zero (insufficient_credits, the balance before the posting as the detail) or above
--    credit_balance_max() (balance_limit, the maximum as the detail);
-- 4. dates every entry of the posting with one created_at, taken after the locks, so per
--    organization the order of created_at is the order of the entries: clock_timestamp(), or
--    the instant a writer of history set for its transaction in the setting console.ledger_at
--    (the demo seed dates its month of usage on the days it tells of);
-- 5. chains each organization's entries, in posting order, from its ledger_head: each entry's
--    prev_hash is the hash before it and its hash is ledger_entry_hash over that and its own
--    fields. The balance rows are locked, so an organization's chain grows one posting at a
--    time;
-- 6. sets each balance to its last balance_after and each ledger_head to its last hash (one
--    update), and appends the entries, answered in order.
--
-- A refusal is raised with SQLSTATE CR001 and the reason as the message, so the statement,
-- and the transaction it runs in, writes nothing. The ledger itself is append-only (a trigger
-- refuses updates and deletes) and a CHECK keeps every balance and balance_after >= 0;
-- ledger_chain_check (and db:reconcile) find an entry edited or deleted afterwards.
create or replace function ledger_post(
  p_group uuid,
  p_created_by uuid,
  p_require_active boolean,
  p_org uuid[],
  p_amount numeric[],
  p_type text[],
  p_meta jsonb[],
  p_ref text[] default null,
  p_refund_of text[] default null,
  p_agent uuid[] default null,
  p_units numeric[] default null,
  p_id uuid[] default null
) returns setof credit_ledger_entries
language plpgsql as $$
declare
  v_orgs constant uuid[] := array(select distinct x from unnest(p_org) x order by x);
  v_n constant integer := cardinality(p_org);
  v_bad record;
  v_at timestamptz;
  e record;
  v_org uuid;
  v_head bytea;
  -- Per entry, by its position in the arrays: filled in place, so the chain is linear in n.
  v_ids uuid[];
  v_after numeric[];
  v_prev bytea[];
  v_hash bytea[];
begin
  if v_n is null or v_n = 0 then
    return;
  end if;
  perform credit_balances_lock(v_orgs);

  select count(*) filter (where o.deleted_at is null) as live,
         count(*) filter (where o.deleted_at is null and o.status = 'active') as active
    into v_bad
  from organizations o join organization_billing_settings b on b.organization_id = o.id
  where o.id = any(v_orgs);
  if v_bad.live < cardinality(v_orgs) then
    raise exception using errcode = 'CR001', message = 'not_found';
  end if;
  if p_require_active and v_bad.active < cardinality(v_orgs) then
    raise exception using errcode = 'CR001', message = 'organization_not_active';
  end if;

  select s.n, s.balance, s.balance_after into v_bad from (
    select m.n, b.credit_balance as balance,
           b.credit_balance + sum(m.amount) over (partition by m.org order by m.n) as balance_after
    from unnest(p_org, p_amount) with ordinality as m(org, amount, n)
    join organization_billing_settings b on b.organization_id = m.org
  ) s
  where s.balance_after < 0 or s.balance_after > credit_balance_max()
  order by s.n
  limit 1;
  if found then
    if v_bad.balance_after < 0 then
      raise exception using errcode = 'CR001', message = 'insufficient_credits', detail = v_bad.balance::text;
    end if;
    raise exception using errcode = 'CR001', message = 'balance_limit', detail = credit_balance_max()::text;
  end if;

  -- One instant for the posting, now that the rows are locked.
  v_at := coalesce(nullif(current_setting('console.ledger_at', true), '')::timestamptz, clock_timestamp());

  v_ids := array_fill(null::uuid, array[v_n]);
  v_after := array_fill(null::numeric, array[v_n]);
  v_prev := array_fill(null::bytea, array[v_n]);
  v_hash := array_fill(null::bytea, array[v_n]);
  for e in
    select x.n::integer as n, x.org, x.amount, x.entry_type, x.meta, x.ref, x.refund_of, x.agent, x.units, x.id, b.ledger_head,
           b.credit_balance + sum(x.amount) over (partition by x.org order by x.n) as balance_after
    from unnest(p_org, p_amount, p_type, p_meta,
                coalesce(p_ref, array_fill(null::text, array[v_n])),
                coalesce(p_refund_of, array_fill(null::text, array[v_n])),
                coalesce(p_agent, array_fill(null::uuid, array[v_n])),
                coalesce(p_units, array_fill(null::numeric, array[v_n])),
                coalesce(p_id, array_fill(null::uuid, array[v_n])))
      with ordinality as x(org, amount, entry_type, meta, ref, refund_of, agent, units, id, n)
    join organization_billing_settings b on b.organization_id = x.org
    order by x.org, x.n
  loop
    if v_org is distinct from e.org then
      v_org := e.org;
      v_head := e.ledger_head;
    end if;
    v_ids[e.n] := coalesce(e.id, gen_random_uuid());
    v_after[e.n] := e.balance_after;
    v_prev[e.n] := v_head;
    v_head := ledger_entry_hash(v_head, v_ids[e.n], e.org, e.amount, e.entry_type, p_group, e.meta, e.balance_after, e.ref,
                                e.refund_of, e.agent, e.units, p_created_by, v_at);
    v_hash[e.n] := v_head;
  end loop;

  return query
  with m as (
    select x.*
    from unnest(p_org, p_amount, p_type, p_meta,
                coalesce(p_ref, array_fill(null::text, array[v_n])),
                coalesce(p_refund_of, array_fill(null::text, array[v_n])),
                coalesce(p_agent, array_fill(null::uuid, array[v_n])),
                coalesce(p_units, array_fill(null::numeric, array[v_n])),
                v_ids, v_after, v_prev, v_hash)
      with ordinality as x(org, amount, entry_type, meta, ref, refund_of, agent, units, id, balance_after, prev_hash, hash, n)
  ),
  balances as (
    update organization_billing_settings b
    set credit_balance = last.balance_after, ledger_head = last.hash, updated_at = now()
    from (select distinct on (m.org) m.org, m.balance_after, m.hash from m order by m.org, m.n desc) last
    where b.organization_id = last.org
  ),
  entries as (
    insert into credit_ledger_entries
      (id, organization_id, amount, entry_type, transaction_group, metadata, balance_after, external_ref, refund_of,
       agent_type_id, units, created_by, created_at, prev_hash, hash)
    select m.id, m.org, m.amount, m.entry_type, p_group, coalesce(m.meta, '{}'::jsonb),
           m.balance_after, m.ref, m.refund_of, m.agent, m.units, p_created_by, v_at, m.prev_hash, m.hash
    from m order by m.n
    returning *
  )
  select * from entries order by seq;
end;
$$;
