-- Metered usage, recorded a batch at a time by one function call in the caller's transaction.
--
-- usage_record(events, reach, api_key, user, ahead, behind, price_grace, keep) takes a batch as
-- a JSON array of { i, org, id, agent, units, occurred, meta } (i numbers the events 1..n in the
-- batch's order) for an actor whose reach is the subtree under the path `reach` (an API key's
-- organization, or the house of an admin importing usage), and answers one row per event in
-- batch order: r_ord, r_outcome (accepted, duplicate, rejected), r_reason, r_detail (the JSON
-- usage_decide gives a refusal) and r_charged (what the event took from the balance, or would
-- have taken when refused at a cap or for want of credits). Rejected events are not stored:
-- sent again, they are evaluated afresh.
--
-- It locks, then runs the engine's three steps in order:
-- 1. usage_batch_lock locks the sellers' price books and the balances the batch touches.
-- 2. usage_batch_facts reads every event's facts under those locks, and usage_caps_lock locks
--    the window rows of the caps they are counted against (a day, an ISO week, a month).
-- 3. usage_decide decides each event in batch order within its organization, from its facts,
--    the balance as the batch leaves it so far and each cap's window so far. An event costs
--    units × its price exactly; the cost is added to the organization's carry for the agent
--    type, the whole cents of the sum are what it charges and the rest is carried
--    (0 <= carry < 0.01), so over all events charges plus carry equal costs. What an event
--    may spend is what credit_grants_draw finds for its agent type at the batch's instant:
--    the grants held that apply and have not expired, and the open credits; an accepted
--    event draws it there and then, in that order, and carries its draws to usage_post.
-- 4. usage_post writes what was accepted, the carries, the caps' months and the alerts; then
--    the events refused at an organization's subtree caps are counted in spend_cap_refusals,
--    by organization and month of occurrence (what its parent is shown).
create or replace function usage_record(
  p_events jsonb,
  p_reach text,
  p_api_key uuid,
  p_user uuid,
  p_ahead interval,
  p_behind interval,
  p_price_grace interval,
  p_keep interval
) returns table (r_ord integer, r_outcome text, r_reason text, r_detail jsonb, r_charged text)
language plpgsql as $$
declare
  v_now constant timestamptz := now();
  v_source constant text := case when p_api_key is null then 'import' else 'key' end;
  v_sellers uuid[];
  v_facts usage_fact[];
  e usage_fact;
  v_caps usage_cap[];
  -- The caps' positions in v_caps, by "scope:id:kind:first day" of their window.
  v_tags text[];
  v_hits integer[];
  cap usage_cap;
  h integer;
  d usage_decision;
  o_outcome text[];
  o_reason text[];
  o_detail jsonb[];
  o_charged numeric[];
  v_accepted usage_accepted[] := '{}';
  -- Organizations that lacked credits, each once, with what their refused events would have charged.
  v_short_orgs uuid[] := '{}';
  v_short_need numeric[] := '{}';
  -- The events refused at a subtree cap: the organization the cap is on and their month.
  v_capped_orgs uuid[] := '{}';
  v_capped_months date[] := '{}';
  -- The organization being decided: its balance and its carries by agent type.
  v_org uuid;
  v_balance numeric;
  c_agent uuid[];
  c_carry numeric[];
  c_stored boolean[];
  k integer;
  v_cost numeric;
  v_total numeric;
  v_charge numeric;
  -- The batch's organizations' held grants in draw order (credit_grants_held), the range
  -- [g_lo, g_hi] of the organization being decided, its open credits, and an event's draw.
  -- These arrays are only read: PostgreSQL keeps an array written element by element in an
  -- expanded form that every slice copies whole, which would make the batch quadratic in its
  -- grants. The organization being decided has its own slices (l_*), and its remainders
  -- change there.
  g_id uuid[];
  g_org uuid[];
  g_rem numeric[];
  g_exp timestamptz[];
  g_agents text[];
  g_first boolean[];
  g_lo integer;
  g_hi integer := 0;
  j integer;
  v_open numeric;
  v_spend numeric;
  l_rem numeric[];
  l_exp timestamptz[];
  l_agents text[];
  l_first boolean[];
  d_rem numeric[];
  d_open numeric;
  d_short numeric;
  v_dr record;
  v_run record;
  v_drew boolean;
  v_draws jsonb;
  -- The batch's instant once its balances are locked: grants are drawn as they stand then,
  -- and ledger_post dates the batch's entries with it (console.ledger_at), so no entry is
  -- dated after the expiry of a grant it drew from.
  v_prior_at text;
  v_at timestamptz;
begin
  if jsonb_array_length(p_events) = 0 then
    return;
  end if;
  v_sellers := usage_batch_lock(p_events, p_reach);
  v_prior_at := nullif(current_setting('console.ledger_at', true), '');
  v_at := coalesce(v_prior_at::timestamptz, clock_timestamp());
  v_facts := array(select f from usage_batch_facts(p_events, p_reach, v_source, p_api_key, p_price_grace, v_now, v_sellers) f);
  v_caps := usage_caps_lock(v_facts);
  v_tags := array(select c.scope || ':' || c.scope_id || ':' || c.kind || ':' || c.month from unnest(v_caps) with ordinality c order by c.ordinality);

  select coalesce(array_agg(g.id order by g.n), '{}'), coalesce(array_agg(g.organization_id order by g.n), '{}'),
         coalesce(array_agg(g.remaining order by g.n), '{}'), coalesce(array_agg(g.expires_at order by g.n), '{}'),
         coalesce(array_agg(g.agents order by g.n), '{}'), coalesce(array_agg(g.before_open order by g.n), '{}')
    into g_id, g_org, g_rem, g_exp, g_agents, g_first
  from credit_grants_held(array(select distinct f.org from unnest(v_facts) f where f.reachable))
    with ordinality as g(id, organization_id, remaining, expires_at, agents, before_open, n);

  o_outcome := array_fill(null::text, array[cardinality(v_facts)]);
  o_reason := o_outcome;
  o_detail := array_fill(null::jsonb, array[cardinality(v_facts)]);
  o_charged := array_fill(null::numeric, array[cardinality(v_facts)]);
  foreach e in array v_facts loop
    if e.org is distinct from v_org then
      v_org := e.org;
      v_balance := e.balance;
      c_agent := '{}';
      c_carry := '{}';
      c_stored := '{}';
      v_run := credit_grants_run(e.org, g_org, g_rem, g_hi + 1, coalesce(e.balance, 0));
      g_lo := v_run.o_lo;
      g_hi := v_run.o_hi;
      v_open := v_run.o_open;
      l_rem := g_rem[g_lo:g_hi];
      l_exp := g_exp[g_lo:g_hi];
      l_agents := g_agents[g_lo:g_hi];
      l_first := g_first[g_lo:g_hi];
    end if;
    if e.i <> e.first_i then
      -- A repeat inside the batch answers its first event's outcome, charging nothing again.
      o_outcome[e.i] := case when o_outcome[e.first_i] = 'accepted' then 'duplicate' else o_outcome[e.first_i] end;
      o_reason[e.i] := o_reason[e.first_i];
      o_detail[e.i] := o_detail[e.first_i];
      o_charged[e.i] := o_charged[e.first_i];
      continue;
    end if;
    v_charge := 0;
    v_hits := '{}';
    if e.price is not null and e.reachable then
      k := array_position(c_agent, e.agent_id);
      if k is null then
        k := coalesce(cardinality(c_agent), 0) + 1;
        c_agent[k] := e.agent_id;
        c_carry[k] := coalesce(e.carry, 0);
        c_stored[k] := e.carry is not null;
      end if;
      v_cost := e.units * e.price;
      v_total := c_carry[k] + v_cost;
      v_charge := trunc(v_total, 2);
      foreach cap in array e.caps loop
        v_hits := v_hits || array_position(v_tags, cap.scope || ':' || cap.scope_id || ':' || cap.kind || ':' || cap.month);
      end loop;
    end if;
    v_spend := v_balance;
    v_drew := g_hi >= g_lo and e.price is not null and e.reachable;
    if v_drew then
      -- Spendable: when the draw covers the charge, that is all the decision needs to know.
      -- An assignment, not a query: the function runs without the executor's cost per call.
      v_dr := credit_grants_draw(l_rem, l_exp, l_agents, l_first, v_open, v_charge, e.agent_id, v_at);
      d_rem := v_dr.o_rem;
      d_open := v_dr.o_open;
      d_short := v_dr.o_short;
      v_spend := v_charge - d_short;
    end if;
    d := usage_decide(e.reachable, e.duplicate, e.occurred, v_now, p_ahead, p_behind, e.agent_id is not null, e.active, e.live,
                      e.priced, v_charge, v_spend, e.month, v_caps, v_hits);
    o_outcome[e.i] := d.outcome;
    o_reason[e.i] := d.reason;
    o_detail[e.i] := d.detail;
    if d.outcome = 'duplicate' then
      o_charged[e.i] := e.duplicate_charged;
    elsif d.outcome = 'accepted' then
      o_charged[e.i] := v_charge;
      v_balance := v_balance - v_charge;
      c_carry[k] := v_total - v_charge;
      v_draws := null;
      if v_drew then
        for j in 1 .. g_hi - g_lo + 1 loop
          if d_rem[j] <> l_rem[j] then
            v_draws := coalesce(v_draws, '{}') || jsonb_build_object(g_id[g_lo + j - 1]::text, (l_rem[j] - d_rem[j])::text);
          end if;
        end loop;
        l_rem := d_rem;
        v_open := d_open;
      end if;
      foreach h in array v_hits loop
        v_caps[h].charged := v_caps[h].charged + v_charge;
      end loop;
      v_accepted := v_accepted || row(e.org, e.id, e.agent_id, e.agent, e.units, e.price, v_cost, v_charge, e.occurred, e.meta,
                                      e.chain, e.sellers, c_carry[k], c_stored[k], v_draws)::usage_accepted;
    elsif d.cap is not null then
      o_charged[e.i] := v_charge;
      v_caps[d.cap].hit := true;
      if v_caps[d.cap].scope = 'subtree' then
        v_capped_orgs := v_capped_orgs || v_caps[d.cap].scope_id;
        v_capped_months := v_capped_months || e.month;
      end if;
    elsif d.reason = 'insufficient_credits' then
      o_charged[e.i] := v_charge;
      if v_short_orgs[cardinality(v_short_orgs)] is distinct from e.org then
        v_short_orgs := v_short_orgs || e.org;
        v_short_need := v_short_need || v_charge;
      else
        v_short_need[cardinality(v_short_need)] := v_short_need[cardinality(v_short_need)] + v_charge;
      end if;
    end if;
  end loop;

  if v_prior_at is null then
    perform set_config('console.ledger_at', v_at::text, true);
  end if;
  perform usage_post(v_accepted, v_caps, v_short_orgs, v_short_need, p_api_key, p_user, v_source, v_now, p_keep);
  if cardinality(v_capped_orgs) > 0 then
    insert into spend_cap_refusals as r (organization_id, month, refused)
    select x.org, x.month, count(*) from unnest(v_capped_orgs, v_capped_months) as x(org, month)
    group by x.org, x.month
    order by x.org, x.month
    on conflict (organization_id, month) do update set refused = r.refused + excluded.refused;
  end if;
  if v_prior_at is null then
    perform set_config('console.ledger_at', '', true);
  end if;

  return query
    select x.n::integer, x.outcome, x.reason, x.detail, x.charged::text
    from unnest(o_outcome, o_reason, o_detail, o_charged) with ordinality as x(outcome, reason, detail, charged, n)
    order by x.n;
end;
$$;
