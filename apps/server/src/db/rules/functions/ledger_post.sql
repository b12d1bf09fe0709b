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
-- 6. moves the organizations' credit grants (below);
-- 7. sets each balance to its last balance_after and each ledger_head to its last hash (one
--    update), and appends the entries, answered in order.
--
-- Grants (credit_grants): an organization's credits are its grants' remainders plus its open
-- credits (the rest of the balance). Under the balance locks, each entry in turn:
-- - a credit with terms (p_terms: {granted_by, expires_at, agent_type_ids, priority}) makes a
--   new grant of its amount; a credit without terms adds to the open credits;
-- - a debit with draws (p_draws: {grant id: amount}, decided by its caller: the usage engine
--   per event, the expiry, a reversal) takes them from those grants and the rest from the
--   open credits;
-- - any other debit draws by rule (credit_grants_held): from the grants that apply to its
--   agent type (an entry without one: from grants for every agent only) and have not expired
--   by the posting's instant, highest priority first, then soonest expiry, then oldest, the
--   open credits standing as a grant of priority 0 without expiry older than every grant.
--   What those cannot cover is refused: insufficient_credits, with what they held as detail
--   and the hint 'spendable'.
-- A consumption records the grants it drew from in its metadata (`grants`: {grant id:
-- amount}); every other change of a grant is a row of credit_grant_moves naming the entry.
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
  p_id uuid[] default null,
  p_terms jsonb[] default null,
  p_draws jsonb[] default null
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
  -- The held grants of the posting's organizations, by organization and then in draw order;
  -- [g_lo, g_hi] is the range of the organization being posted.
  g_id uuid[];
  g_org uuid[];
  g_rem numeric[];
  g_start numeric[];
  g_exp timestamptz[];
  g_agents text[];
  g_first boolean[];
  g_lo integer;
  g_hi integer;
  j integer;
  v_open numeric;
  v_need numeric;
  v_take numeric;
  d_rem numeric[];
  d_open numeric;
  d_short numeric;
  v_dr record;
  v_run record;
  -- The grants this posting makes, and the moves.
  n_id uuid[] := '{}';
  n_org uuid[] := '{}';
  n_terms jsonb[] := '{}';
  n_entry uuid[] := '{}';
  n_amount numeric[] := '{}';
  m_entry uuid[] := '{}';
  m_grant uuid[] := '{}';
  m_amount numeric[] := '{}';
  -- The explicit draws of every entry (p_draws), by entry position: read in one query, not one per entry.
  x_n integer[];
  x_grant uuid[];
  x_amount numeric[];
  -- x_first[n]: where entry n's draws begin in x_n (null: none).
  x_first integer[];
  x_at integer;
  -- Each entry's metadata as stored: a consumption's with the grants it drew from ({grant id: amount}).
  v_meta jsonb[];
  v_drew jsonb;
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
  v_meta := p_meta;
  select coalesce(array_agg(g.id order by g.n), '{}'), coalesce(array_agg(g.organization_id order by g.n), '{}'),
         coalesce(array_agg(g.remaining order by g.n), '{}'), coalesce(array_agg(g.expires_at order by g.n), '{}'),
         coalesce(array_agg(g.agents order by g.n), '{}'), coalesce(array_agg(g.before_open order by g.n), '{}')
    into g_id, g_org, g_rem, g_exp, g_agents, g_first
  from credit_grants_held(v_orgs) with ordinality as g(id, organization_id, remaining, expires_at, agents, before_open, n);
  g_start := g_rem;
  g_hi := 0;
  if p_draws is not null then
    select coalesce(array_agg(d.n::integer order by d.n, d.grant_id), '{}'), coalesce(array_agg(d.grant_id order by d.n, d.grant_id), '{}'),
           coalesce(array_agg(d.amount order by d.n, d.grant_id), '{}')
      into x_n, x_grant, x_amount
    from (
      select p.n, k.key::uuid as grant_id, k.value::numeric as amount
      from unnest(p_draws) with ordinality as p(draws, n) cross join jsonb_each_text(p.draws) k
    ) d;
  else
    x_n := '{}';
  end if;
  x_first := array_fill(null::integer, array[v_n]);
  for x_at in reverse cardinality(x_n) .. 1 loop
    x_first[x_n[x_at]] := x_at;
  end loop;
  for e in
    select x.n::integer as n, x.org, x.amount, x.entry_type, x.meta, x.ref, x.refund_of, x.agent, x.units, x.id, b.ledger_head,
           b.credit_balance, x.terms, x.draws,
           b.credit_balance + sum(x.amount) over (partition by x.org order by x.n) as balance_after
    from unnest(p_org, p_amount, p_type, p_meta,
                coalesce(p_ref, array_fill(null::text, array[v_n])),
                coalesce(p_refund_of, array_fill(null::text, array[v_n])),
                coalesce(p_agent, array_fill(null::uuid, array[v_n])),
                coalesce(p_units, array_fill(null::numeric, array[v_n])),
                coalesce(p_id, array_fill(null::uuid, array[v_n])),
                coalesce(p_terms, array_fill(null::jsonb, array[v_n])),
                coalesce(p_draws, array_fill(null::jsonb, array[v_n])))
      with ordinality as x(org, amount, entry_type, meta, ref, refund_of, agent, units, id, terms, draws, n)
    join organization_billing_settings b on b.organization_id = x.org
    order by x.org, x.n
  loop
    if v_org is distinct from e.org then
      v_org := e.org;
      v_head := e.ledger_head;
      v_run := credit_grants_run(e.org, g_org, g_rem, g_hi + 1, e.credit_balance);
      g_lo := v_run.o_lo;
      g_hi := v_run.o_hi;
      v_open := v_run.o_open;
    end if;
    v_ids[e.n] := coalesce(e.id, gen_random_uuid());
    v_drew := null;
    if e.amount > 0 and e.terms is not null then
      n_id := n_id || gen_random_uuid();
      n_org := n_org || e.org;
      n_terms := n_terms || e.terms;
      n_entry := n_entry || v_ids[e.n];
      n_amount := n_amount || e.amount;
      m_entry := m_entry || v_ids[e.n];
      m_grant := m_grant || n_id[cardinality(n_id)];
      m_amount := m_amount || e.amount;
    elsif e.amount > 0 then
      v_open := v_open + e.amount;
    elsif g_hi < g_lo and e.draws is null then
      -- No grant held: the open credits are the balance, checked above.
      v_open := v_open + e.amount;
    else
      v_need := -e.amount;
      if e.draws is not null then
        -- This entry's draws, read out of p_draws once for the whole posting (above), by its position.
        x_at := coalesce(x_first[e.n], cardinality(x_n) + 1);
        while x_at <= cardinality(x_n) and x_n[x_at] = e.n loop
          j := array_position(g_id, x_grant[x_at], g_lo);
          if j is null or j > g_hi or g_rem[j] < x_amount[x_at] or x_amount[x_at] <= 0 or x_amount[x_at] > v_need then
            raise exception using errcode = 'CR001', message = 'insufficient_credits', detail = e.credit_balance::text;
          end if;
          g_rem[j] := g_rem[j] - x_amount[x_at];
          v_need := v_need - x_amount[x_at];
          v_drew := coalesce(v_drew, '{}') || jsonb_build_object(g_id[j]::text, x_amount[x_at]);
          x_at := x_at + 1;
        end loop;
      else
        -- By rule (credit_grants_draw), on this organization's grants.
        -- An assignment, not a query: the function runs without the executor's cost per call.
      v_dr := credit_grants_draw(g_rem[g_lo:g_hi], g_exp[g_lo:g_hi], g_agents[g_lo:g_hi], g_first[g_lo:g_hi], v_open, v_need, e.agent, v_at);
      d_rem := v_dr.o_rem;
      d_open := v_dr.o_open;
      d_short := v_dr.o_short;
        if d_short > 0 then
          -- The hint tells the credits that could be moved from the balance.
          raise exception using errcode = 'CR001', message = 'insufficient_credits', detail = (v_need - d_short)::text, hint = 'spendable';
        end if;
        for j in g_lo .. g_hi loop
          if d_rem[j - g_lo + 1] <> g_rem[j] then
            v_drew := coalesce(v_drew, '{}') || jsonb_build_object(g_id[j]::text, g_rem[j] - d_rem[j - g_lo + 1]);
            g_rem[j] := d_rem[j - g_lo + 1];
          end if;
        end loop;
        v_open := d_open;
        v_need := 0;
      end if;
      if v_need > v_open then
        raise exception using errcode = 'CR001', message = 'insufficient_credits', detail = e.credit_balance::text;
      end if;
      v_open := v_open - v_need;
      -- A consumption keeps its draws in its own metadata (no row more per entry on the usage
      -- engine's hot path); any other debit's draws are moves.
      if v_drew is not null and e.entry_type = 'consumption' then
        v_meta[e.n] := coalesce(e.meta, '{}') || jsonb_build_object('grants', v_drew);
      elsif v_drew is not null then
        select m_entry || array_agg(v_ids[e.n]), m_grant || array_agg(k.key::uuid), m_amount || array_agg(-(k.value::numeric))
          into m_entry, m_grant, m_amount
        from jsonb_each_text(v_drew) k;
      end if;
    end if;
    v_after[e.n] := e.balance_after;
    v_prev[e.n] := v_head;
    v_head := ledger_entry_hash(v_head, v_ids[e.n], e.org, e.amount, e.entry_type, p_group, v_meta[e.n], e.balance_after, e.ref,
                                e.refund_of, e.agent, e.units, p_created_by, v_at);
    v_hash[e.n] := v_head;
  end loop;

  if cardinality(n_id) > 0 then
    insert into credit_grants (id, organization_id, granted_by, entry_id, amount, remaining, priority, expires_at, agent_type_ids, created_at)
    select x.id, x.org, (x.terms ->> 'granted_by')::uuid, x.entry, x.amount, x.amount, coalesce((x.terms ->> 'priority')::smallint, 0),
           (x.terms ->> 'expires_at')::timestamptz,
           case when jsonb_typeof(x.terms -> 'agent_type_ids') = 'array'
             then array(select a::uuid from jsonb_array_elements_text(x.terms -> 'agent_type_ids') a) end,
           v_at
    from unnest(n_id, n_org, n_terms, n_entry, n_amount) as x(id, org, terms, entry, amount);
  end if;
  if cardinality(g_id) > 0 then
    update credit_grants g set remaining = x.rem
    from unnest(g_id, g_rem, g_start) as x(id, rem, start)
    where g.id = x.id and x.rem <> x.start;
  end if;
  if cardinality(m_entry) > 0 then
    insert into credit_grant_moves (entry_id, grant_id, amount)
    select x.entry, x.grant_id, sum(x.amount) from unnest(m_entry, m_grant, m_amount) as x(entry, grant_id, amount)
    group by x.entry, x.grant_id;
  end if;

  return query
  with m as (
    select x.*
    from unnest(p_org, p_amount, p_type, v_meta,
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
