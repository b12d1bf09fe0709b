-- Metered usage, recorded a batch at a time by one function call in the caller's transaction.
--
-- usage_record(events, reach, api_key, user, ahead, behind, price_grace, keep) takes a batch as a JSON array of
-- { i, org, id, agent, units, occurred, meta } (i numbers the events 1..n in the batch's order)
-- for an actor whose reach is the subtree under the path `reach` (an API key's organization,
-- or the house of an admin importing usage), and answers one row per event:
-- r_ord, r_outcome (accepted, duplicate, rejected), r_reason (the rejection), r_detail (what
-- its message needs: which rule an invalid event broke, or the balance that was too small)
-- and r_charged (what the event took from the balance, or would have taken when refused for
-- want of credits).
--
-- 1. The price books of the sellers above the batch's organizations within reach (every
--    ancestor but the house) are held with a shared advisory lock, which a price change
--    takes exclusively: a change waits for the batches reading the book it replaces and
--    takes effect after them. Then the balance rows of those organizations and of the
--    sellers that keep a book (who may earn) are locked in id order (credit_balances_lock,
--    as every movement of credits locks them), so an organization's events are taken by one
--    batch at a time and everything read below is the state as it stands.
-- 2. Each event, in batch order within its organization, is the first that applies of:
--    - rejected out_of_reach: no such organization, outside the reach, or deleted;
--    - duplicate: the organization already recorded this id from this kind of reporter (keys
--      and the house's import each have their own ids); its first outcome is answered and
--      nothing is charged again (a repeat inside the batch answers the first one's outcome);
--    - rejected invalid: occurred_at further ahead or behind than the window allows, or no
--      price in force when it occurred;
--    - rejected unknown_agent, organization_not_active (it or one above it is suspended or
--      inactive), agent_not_active (no live activation of the agent there);
--    - rejected key_cap_reached, activation_cap_reached, spend_cap_reached: the whole cents it
--      would take pass, for the calendar month (UTC) of its occurrence, the monthly cap of the
--      reporting key, of the activation, or of the organization or one above it (a parent's
--      cap on a child covers the child's subtree); the detail is "cap|YYYY-MM|name";
--    - rejected insufficient_credits: the whole cents it would take exceed the balance;
--    - accepted.
-- 3. An accepted event costs units × its price, exactly. Its price is its organization's own:
--    the greatest of the catalog price and the book prices of its sellers (a seller's book
--    never takes a child below the seller's own price, which follows as a floor). Each is
--    the price in force at occurred_at, or, when price_grace is given (a key's report), at
--    the later of occurred_at and the arrival minus price_grace; a book is read at no later
--    than the batch's own time, so an event stamped ahead takes the book of its arrival. A reporter cannot pick an older, lower price by backdating
--    an event, while an event in flight when a price changes keeps the price it occurred
--    under. The house's import passes null: its events take the price of their time. The cost is
--    added to the organization's carry for that agent type; the whole cents of the sum are
--    charged and the rest is carried (0 <= carry < 0.01). So over all events the charges
--    plus the carry equal the costs: rounding neither makes nor loses credits.
-- 4. Then, set-based: one consumption entry per organization, agent type and chain of prices
--    (its own and its sellers') of the batch that charged something (its event count, units, first and last occurrence; its
--    amount the sum of its events' charges), posted by ledger_post, which moves each
--    balance once; the accepted events, each linked to its entry, and their ids (kept for the
--    occurrence window plus a margin, p_keep; each batch deletes up to twice its size of the
--    expired ones); the carries (in key order); and for an organization that lacked credits
--    an insufficient_credits alert, at most one an hour, and, where the organization has an
--    automatic top-up that can help (below its line, or one top-up covers the refused
--    events), a top-up request (the top-up runner makes it at once).
-- 5. Margins, in the same posting: each seller above a group's organization earns, per unit,
--    the price of its child on the path minus its own price (the house's part is consumed).
--    A seller's exact earnings are added to its carry for the agent type and the whole cents
--    credited, nearest seller first, never more in all than the group's consumption took
--    (what is held back stays in the carry); the batch posts one earning entry per seller,
--    child it came through, agent type and margin. So over all events each
--    seller's earnings credited plus its carry equal units × its margin, and no batch credits
--    more than it charged. Each event keeps its margins (usage_events.margins, from the
--    parent upward).
-- 6. Caps: the month rows of the caps the batch charges against (spend_cap_months) are made
--    where missing (recounted from the day totals) and locked one by one in key order, after
--    the balances, so concurrent batches under one cap take it in turn and never pass it. Each
--    is written back with what it holds now; a month reaching 80 % or 100 % of its cap queues
--    one alert each to the admins of the organization the cap is on (not again within the hour
--    for the same cap, month and level after a change of the cap starts its month afresh). A key's months are kept
--    even without a cap.
-- Rejected events are not stored: sent again, they are evaluated afresh.
create or replace function usage_record(
  p_events jsonb,
  p_reach text,
  p_api_key uuid,
  p_user uuid,
  p_ahead interval,
  p_behind interval,
  p_price_grace interval,
  p_keep interval
) returns table (r_ord integer, r_outcome text, r_reason text, r_detail text, r_charged text)
language plpgsql as $$
declare
  v_now constant timestamptz := now();
  v_group constant uuid := gen_random_uuid();
  v_source constant text := case when p_api_key is null then 'import' else 'key' end;
  a_i integer[];
  a_org uuid[];
  a_id text[];
  a_agent text[];
  a_units numeric[];
  a_occurred timestamptz[];
  a_meta jsonb[];
  -- Outcomes, by the event's number in the batch (filled in organization order).
  o_outcome text[];
  o_reason text[];
  o_detail text[];
  o_charged numeric[];
  -- Accepted events, each with the number of its group.
  n_ev integer := 0;
  ev_org uuid[] := '{}';
  ev_id text[] := '{}';
  ev_agent uuid[] := '{}';
  ev_units numeric[] := '{}';
  ev_price numeric[] := '{}';
  ev_cost numeric[] := '{}';
  ev_charged numeric[] := '{}';
  ev_occurred timestamptz[] := '{}';
  ev_meta jsonb[] := '{}';
  ev_group integer[] := '{}';
  ev_carry numeric[] := '{}';
  ev_carry_stored boolean[] := '{}';
  -- Groups: the accepted events of one organization, agent type and price; one consumption
  -- entry each when they charged something.
  n_g integer := 0;
  g_id uuid[] := '{}';
  g_org uuid[] := '{}';
  g_agent uuid[] := '{}';
  g_code text[] := '{}';
  g_price numeric[] := '{}';
  g_charge numeric[] := '{}';
  g_units numeric[] := '{}';
  g_events integer[] := '{}';
  g_first timestamptz[] := '{}';
  g_last timestamptz[] := '{}';
  g_entry uuid[] := '{}';
  g_chain text[] := '{}';
  g_sellers text[] := '{}';
  g_margins text[] := '{}';
  ev_margins text[] := '{}';
  v_payers uuid[];
  v_sellers uuid[];
  -- Earning carries read so far, by "seller:agent".
  ec_key text[] := '{}';
  ec_carry numeric[] := '{}';
  ec_stored boolean[] := '{}';
  -- Each seller's whole cents earned on each group, summed after the loop per seller, child,
  -- agent type and margin into one earning entry each.
  n_er integer := 0;
  er_seller uuid[] := '{}';
  er_child uuid[] := '{}';
  er_agent uuid[] := '{}';
  er_code text[] := '{}';
  er_margin numeric[] := '{}';
  er_units numeric[] := '{}';
  er_events integer[] := '{}';
  er_credit numeric[] := '{}';
  ea_org uuid[];
  ea_amount numeric[];
  ea_meta jsonb[];
  ea_agent uuid[];
  ea_units numeric[];
  v_left numeric;
  v_exact numeric;
  v_credit numeric;
  v_chain numeric[];
  v_sell uuid[];
  v_margins numeric[];
  v_child uuid;
  j integer;
  q integer;
  -- Caps: the month rows this batch charges against, by tag "scope:…:month", in key order.
  cn_tag text[] := '{}';
  cn_scope text[] := '{}';
  cn_id uuid[] := '{}';
  cn_month date[] := '{}';
  cn_cap numeric[] := '{}';
  cn_org uuid[] := '{}';
  cn_label text[] := '{}';
  cn_spent numeric[] := '{}';
  cn_alerted integer[] := '{}';
  cn_hit boolean[] := '{}';
  v_hits integer[];
  v_cap_reason text;
  v_cap_detail text;
  v_level integer;
  c uuid;
  h integer;
  n_le integer := 0;
  le_id uuid[] := '{}';
  le_org uuid[] := '{}';
  le_amount numeric[] := '{}';
  le_meta jsonb[] := '{}';
  le_agent uuid[] := '{}';
  le_units numeric[] := '{}';
  -- Organizations that lacked credits, each once, with what their refused events would have charged.
  short_orgs uuid[] := '{}';
  short_need numeric[] := '{}';
  -- The organization being taken: its balance, its carries by agent type, its groups (by
  -- "agent:price") from g_base on.
  v_org uuid;
  v_balance numeric;
  c_agent uuid[];
  c_carry numeric[];
  c_stored boolean[];
  og_key text[];
  g_base integer;
  e record;
  k integer;
  g integer;
  v_cost numeric;
  v_total numeric;
  v_charge numeric;
begin
  select array_agg(x.i order by x.i), array_agg(x.org order by x.i), array_agg(x.id order by x.i),
         array_agg(x.agent order by x.i), array_agg(x.units order by x.i), array_agg(x.occurred order by x.i),
         array_agg(coalesce(x.meta, '{}'::jsonb) order by x.i)
    into a_i, a_org, a_id, a_agent, a_units, a_occurred, a_meta
    from jsonb_to_recordset(p_events) as x(i integer, org uuid, id text, agent text, units numeric, occurred timestamptz, meta jsonb);
  if a_i is null then
    return;
  end if;
  o_outcome := array_fill(null::text, array[cardinality(a_i)]);
  o_reason := o_outcome;
  o_detail := o_outcome;
  o_charged := array_fill(null::numeric, array[cardinality(a_i)]);

  v_payers := array(select o.id from organizations o where o.id = any(a_org) and starts_with(o.path, p_reach));
  -- The sellers' books, shared (price_book_set takes the same key exclusively), in one order.
  perform pg_advisory_xact_lock_shared(7031, hashtext(s.id::text))
  from (
    select distinct a.id from organizations o, unnest((organization_ancestors(o.path))[2:]) as a(id)
    where o.id = any(v_payers) order by a.id
  ) s;
  v_sellers := array(
    select distinct a.id from organizations o, unnest((organization_ancestors(o.path))[2:]) as a(id)
    where o.id = any(v_payers) and exists (select 1 from organization_prices p where p.organization_id = a.id));
  perform credit_balances_lock(v_payers || v_sellers);

  -- The caps the batch's events charge against: the key's, the activations', and those on
  -- its organizations and the ones above them, per month of occurrence.
  with ev as (
    select distinct x.org, x.agent, date_trunc('month', x.occurred at time zone 'UTC')::date as month
    from unnest(a_org, a_agent, a_occurred) as x(org, agent, occurred)
    where x.org = any(v_payers)
  ),
  need as (
    select 'key'::text as scope, k.id as scope_id, m.month, k.monthly_cap as cap, k.organization_id as org, k.name as label
    from api_keys k cross join (select distinct ev.month from ev) m
    where k.id = p_api_key and k.monthly_cap is not null
    union
    select 'activation', v.id, ev.month, v.monthly_cap, v.organization_id, t.name
    from ev
    join agent_types t on t.code = ev.agent
    join agent_activations v on v.organization_id = ev.org and v.agent_type_id = t.id and v.deactivated_at is null
    where v.monthly_cap is not null
    union
    select 'subtree', b.organization_id, ev.month, b.spend_cap, b.organization_id, c.name
    from ev
    join organizations o on o.id = ev.org
    cross join unnest(organization_ancestors(o.path) || o.id) as a(id)
    join organization_billing_settings b on b.organization_id = a.id and b.spend_cap is not null
    join organizations c on c.id = a.id
  )
  select coalesce(array_agg(
           n.scope || ':' || case n.scope when 'activation' then v.organization_id::text || ':' || v.agent_type_id::text else n.scope_id::text end
             || ':' || n.month order by n.scope, n.scope_id, n.month), '{}'),
         coalesce(array_agg(n.scope order by n.scope, n.scope_id, n.month), '{}'),
         coalesce(array_agg(n.scope_id order by n.scope, n.scope_id, n.month), '{}'),
         coalesce(array_agg(n.month order by n.scope, n.scope_id, n.month), '{}'),
         coalesce(array_agg(n.cap order by n.scope, n.scope_id, n.month), '{}'),
         coalesce(array_agg(n.org order by n.scope, n.scope_id, n.month), '{}'),
         coalesce(array_agg(n.label order by n.scope, n.scope_id, n.month), '{}')
    into cn_tag, cn_scope, cn_id, cn_month, cn_cap, cn_org, cn_label
  from need n
  left join agent_activations v on n.scope = 'activation' and v.id = n.scope_id;
  for h in 1 .. cardinality(cn_tag) loop
    insert into spend_cap_months (scope, scope_id, month, charged)
    values (cn_scope[h], cn_id[h], cn_month[h], spend_cap_recount(cn_scope[h], cn_id[h], cn_month[h]))
    on conflict do nothing;
    select m.charged, m.alerted into v_total, v_level
    from spend_cap_months m where m.scope = cn_scope[h] and m.scope_id = cn_id[h] and m.month = cn_month[h]
    for update;
    cn_spent[h] := v_total;
    cn_alerted[h] := v_level;
    cn_hit[h] := false;
  end loop;

  for e in
    with ev as (
      select * from unnest(a_i, a_org, a_id, a_agent, a_units, a_occurred, a_meta) as x(i, org, id, agent, units, occurred, meta)
    ),
    orgs as (
      select o.id,
             (organization_ancestors(o.path))[2:] as sellers,
             (organization_ancestors(o.path))[2:] && v_sellers as booked,
             organization_ancestors(o.path) || o.id as chain_ids,
             starts_with(o.path, p_reach) and o.deleted_at is null as reachable,
             o.status = 'active' and not exists (
               select 1 from organizations a where a.id = any(organization_ancestors(o.path)) and a.status <> 'active'
             ) as active
      from organizations o where o.id in (select ev.org from ev)
    )
    select ev.i, ev.org, ev.id, ev.agent, ev.units, ev.occurred, ev.meta,
           min(ev.i) over (partition by ev.org, ev.id) as first_i,
           coalesce(orgs.reachable, false) as reachable,
           coalesce(orgs.active, false) as active,
           u.client_event_id is not null as duplicate,
           u.charged as duplicate_charged,
           t.id as agent_id,
           exists (
             select 1 from agent_activations v where v.organization_id = ev.org and v.agent_type_id = t.id and v.deactivated_at is null
           ) as live,
           exists (select 1 from agent_prices p where p.agent_type_id = t.id and p.effective_from <= ev.occurred) as priced,
           coalesce(ch.chain[cardinality(ch.chain)], cp.price) as price,
           orgs.sellers,
           orgs.chain_ids,
           date_trunc('month', ev.occurred at time zone 'UTC')::date as month,
           ch.chain,
           b.credit_balance as balance,
           c.carry
    from ev
    left join orgs on orgs.id = ev.org
    left join usage_event_ids u on u.organization_id = ev.org and u.source = v_source and u.client_event_id = ev.id
    left join agent_types t on t.code = ev.agent
    left join lateral (
      select case when p_price_grace is null then ev.occurred else greatest(ev.occurred, v_now - p_price_grace) end as at
    ) pt on true
    left join lateral (
      select p.price from agent_prices p
      where p.agent_type_id = t.id and p.effective_from <= pt.at
      order by p.effective_from desc limit 1
    ) cp on true
    -- The own prices down the path, from the house's child to the event's organization: the
    -- catalog price, then for each seller the greatest of it and the books down to that seller.
    left join lateral (
      select array_agg(greatest(cp.price, x.m) order by x.n) as chain from (
        select 0::bigint as n, null::numeric as m
        union all
        select a.n, max(bp.price) over (order by a.n)
        from unnest(orgs.sellers) with ordinality as a(id, n)
        left join lateral (
          select p.price from organization_prices p
          where p.organization_id = a.id and p.agent_type_id = t.id and p.effective_from <= least(pt.at, v_now)
          order by p.effective_from desc limit 1
        ) bp on true
      ) x
    ) ch on orgs.booked and cp.price is not null
    left join organization_billing_settings b on b.organization_id = ev.org
    left join usage_carry c on c.organization_id = ev.org and c.agent_type_id = t.id
    order by ev.org, ev.i
  loop
    if e.org is distinct from v_org then
      v_org := e.org;
      v_balance := e.balance;
      c_agent := '{}';
      c_carry := '{}';
      c_stored := '{}';
      og_key := '{}';
      g_base := n_g;
    end if;
    o_outcome[e.i] := 'rejected';
    if e.i <> e.first_i then
      o_outcome[e.i] := case when o_outcome[e.first_i] = 'accepted' then 'duplicate' else o_outcome[e.first_i] end;
      o_reason[e.i] := o_reason[e.first_i];
      o_detail[e.i] := o_detail[e.first_i];
      o_charged[e.i] := o_charged[e.first_i];
    elsif not e.reachable then
      o_reason[e.i] := 'out_of_reach';
    elsif e.duplicate then
      o_outcome[e.i] := 'duplicate';
      o_charged[e.i] := e.duplicate_charged;
    elsif e.occurred > v_now + p_ahead then
      o_reason[e.i] := 'invalid';
      o_detail[e.i] := 'ahead';
    elsif e.occurred < v_now - p_behind then
      o_reason[e.i] := 'invalid';
      o_detail[e.i] := 'behind';
    elsif e.agent_id is null then
      o_reason[e.i] := 'unknown_agent';
    elsif not e.active then
      o_reason[e.i] := 'organization_not_active';
    elsif not e.live then
      o_reason[e.i] := 'agent_not_active';
    elsif not e.priced then
      o_reason[e.i] := 'invalid';
      o_detail[e.i] := 'no_price';
    else
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
      -- The caps it charges against, in the order their refusal is told: key, activation,
      -- then the organizations from the top down to its own.
      v_cap_reason := null;
      v_hits := '{}';
      if cardinality(cn_tag) > 0 then
        h := array_position(cn_tag, 'key:' || p_api_key::text || ':' || e.month);
        if h is not null then v_hits := v_hits || h; end if;
        h := array_position(cn_tag, 'activation:' || e.org::text || ':' || e.agent_id::text || ':' || e.month);
        if h is not null then v_hits := v_hits || h; end if;
        foreach c in array e.chain_ids loop
          h := array_position(cn_tag, 'subtree:' || c::text || ':' || e.month);
          if h is not null then v_hits := v_hits || h; end if;
        end loop;
        foreach h in array v_hits loop
          if cn_spent[h] + v_charge > cn_cap[h] then
            cn_hit[h] := true;
            v_cap_reason := case cn_scope[h] when 'key' then 'key_cap_reached' when 'activation' then 'activation_cap_reached'
                            else 'spend_cap_reached' end;
            v_cap_detail := cn_cap[h]::numeric(16, 2)::text || '|' || to_char(e.month, 'YYYY-MM') || '|' || cn_label[h];
            exit;
          end if;
        end loop;
      end if;
      if v_cap_reason is not null then
        o_reason[e.i] := v_cap_reason;
        o_detail[e.i] := v_cap_detail;
        o_charged[e.i] := v_charge;
      elsif v_charge > v_balance then
        o_reason[e.i] := 'insufficient_credits';
        o_detail[e.i] := v_balance::numeric(16, 2)::text;
        o_charged[e.i] := v_charge;
        if short_orgs[cardinality(short_orgs)] is distinct from e.org then
          short_orgs := short_orgs || e.org;
          short_need := short_need || v_charge;
        else
          short_need[cardinality(short_need)] := short_need[cardinality(short_need)] + v_charge;
        end if;
      else
        v_balance := v_balance - v_charge;
        c_carry[k] := v_total - v_charge;
        foreach h in array v_hits loop
          cn_spent[h] := cn_spent[h] + v_charge;
        end loop;
        o_outcome[e.i] := 'accepted';
        o_charged[e.i] := v_charge;
        g := array_position(og_key, e.agent_id::text || ':' || coalesce(e.chain::text, e.price::text));
        if g is null then
          og_key := og_key || (e.agent_id::text || ':' || coalesce(e.chain::text, e.price::text));
          n_g := n_g + 1;
          g := n_g;
          g_id[g] := gen_random_uuid();
          g_org[g] := e.org;
          g_agent[g] := e.agent_id;
          g_code[g] := e.agent;
          g_price[g] := e.price;
          g_chain[g] := e.chain::text;
          g_sellers[g] := e.sellers::text;
          -- Each seller's margin per unit, from the parent upward; null when none earns.
          g_margins[g] := null;
          if e.chain is not null then
            v_margins := '{}';
            for q in reverse cardinality(e.sellers) .. 1 loop
              v_margins := v_margins || (e.chain[q + 1] - e.chain[q]);
            end loop;
            if exists (select 1 from unnest(v_margins) m where m > 0) then
              g_margins[g] := v_margins::text;
            end if;
          end if;
          g_charge[g] := 0;
          g_units[g] := 0;
          g_events[g] := 0;
          g_first[g] := e.occurred;
          g_last[g] := e.occurred;
        else
          g := g_base + g;
        end if;
        g_charge[g] := g_charge[g] + v_charge;
        g_units[g] := g_units[g] + e.units;
        g_events[g] := g_events[g] + 1;
        g_first[g] := least(g_first[g], e.occurred);
        g_last[g] := greatest(g_last[g], e.occurred);
        n_ev := n_ev + 1;
        ev_org[n_ev] := e.org;
        ev_id[n_ev] := e.id;
        ev_agent[n_ev] := e.agent_id;
        ev_units[n_ev] := e.units;
        ev_price[n_ev] := e.price;
        ev_cost[n_ev] := v_cost;
        ev_charged[n_ev] := v_charge;
        ev_occurred[n_ev] := e.occurred;
        ev_meta[n_ev] := e.meta;
        ev_group[n_ev] := g;
        ev_margins[n_ev] := g_margins[g];
        ev_carry[n_ev] := c_carry[k];
        ev_carry_stored[n_ev] := c_stored[k];
      end if;
    end if;
  end loop;

  -- A group that charged whole cents becomes one consumption entry, which its events name.
  for g in 1 .. n_g loop
    g_entry[g] := null;
    if g_charge[g] > 0 then
      g_entry[g] := g_id[g];
      n_le := n_le + 1;
      le_id[n_le] := g_id[g];
      le_org[n_le] := g_org[g];
      le_amount[n_le] := -g_charge[g];
      le_meta[n_le] := jsonb_build_object(
        'agent', g_code[g], 'events', g_events[g], 'units', g_units[g]::numeric(18, 4)::text,
        'price', g_price[g]::numeric(14, 4)::text,
        'first_occurred_at', to_char(g_first[g] at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
        'last_occurred_at', to_char(g_last[g] at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'));
      le_agent[n_le] := g_agent[g];
      le_units[n_le] := g_units[g];
    end if;
    -- The group's sellers earn their margins, nearest first, from what the group charged.
    if g_margins[g] is not null then
      v_margins := g_margins[g]::numeric[];
      v_sell := g_sellers[g]::uuid[];
      v_left := g_charge[g];
      for j in 1 .. cardinality(v_margins) loop
        continue when v_margins[j] = 0;
        q := cardinality(v_sell) + 1 - j;
        v_child := case when q = cardinality(v_sell) then g_org[g] else v_sell[q + 1] end;
        k := array_position(ec_key, v_sell[q]::text || ':' || g_agent[g]::text);
        if k is null then
          k := cardinality(ec_key) + 1;
          ec_key[k] := v_sell[q]::text || ':' || g_agent[g]::text;
          select c.carry into v_exact from earning_carry c where c.organization_id = v_sell[q] and c.agent_type_id = g_agent[g];
          ec_stored[k] := found;
          ec_carry[k] := coalesce(v_exact, 0);
        end if;
        v_exact := ec_carry[k] + g_units[g] * v_margins[j];
        v_credit := least(trunc(v_exact, 2), v_left);
        ec_carry[k] := v_exact - v_credit;
        v_left := v_left - v_credit;
        n_er := n_er + 1;
        er_seller[n_er] := v_sell[q];
        er_child[n_er] := v_child;
        er_agent[n_er] := g_agent[g];
        er_code[n_er] := g_code[g];
        er_margin[n_er] := v_margins[j];
        er_units[n_er] := g_units[g];
        er_events[n_er] := g_events[g];
        er_credit[n_er] := v_credit;
      end loop;
    end if;
  end loop;

  -- One earning entry per seller, child it came through, agent type and margin: the whole
  -- cents its groups credited (a group's credit is what stays within its charge, above).
  if n_er > 0 then
    select coalesce(array_agg(x.seller order by x.seller, x.child, x.agent, x.margin), '{}'),
           coalesce(array_agg(x.amount order by x.seller, x.child, x.agent, x.margin), '{}'),
           coalesce(array_agg(jsonb_build_object(
             'agent', x.code, 'events', x.events, 'units', x.units::numeric(18, 4)::text, 'margin', x.margin::numeric(14, 4)::text,
             'child_id', x.child, 'child_name', x.name) order by x.seller, x.child, x.agent, x.margin), '{}'),
           coalesce(array_agg(x.agent order by x.seller, x.child, x.agent, x.margin), '{}'),
           coalesce(array_agg(x.units order by x.seller, x.child, x.agent, x.margin), '{}')
      into ea_org, ea_amount, ea_meta, ea_agent, ea_units
    from (
      select r.seller, r.child, r.agent, r.code, r.margin, o.name,
             sum(r.units) as units, sum(r.events)::integer as events, sum(r.credit) as amount
      from unnest(er_seller, er_child, er_agent, er_code, er_margin, er_units, er_events, er_credit)
        as r(seller, child, agent, code, margin, units, events, credit)
      left join organizations o on o.id = r.child
      group by r.seller, r.child, r.agent, r.code, r.margin, o.name
      having sum(r.credit) > 0
    ) x;
    if cardinality(ea_org) > 0 then
      le_id := le_id || array_fill(null::uuid, array[cardinality(ea_org)]);
      le_org := le_org || ea_org;
      le_amount := le_amount || ea_amount;
      le_meta := le_meta || ea_meta;
      le_agent := le_agent || ea_agent;
      le_units := le_units || ea_units;
      n_le := n_le + cardinality(ea_org);
    end if;
  end if;

  if n_le > 0 then
    -- The consumptions, through the one ledger writer: it re-checks each balance under the
    -- locks this function already holds and sets each organization's balance once.
    perform ledger_post(v_group, p_user, false, le_org, le_amount,
      array(select case when a > 0 then 'earning' else 'consumption' end from unnest(le_amount) a),
      le_meta, null, null, le_agent, le_units, le_id);
  end if;

  if n_ev > 0 then
    with stored as (
      insert into usage_events
        (organization_id, client_event_id, source, agent_type_id, units, price, cost, charged, occurred_at, api_key_id, created_by,
         ledger_entry_id, metadata, margins)
      select x.org, x.id, v_source, x.agent, x.units, x.price, x.cost, x.charged, x.occurred, p_api_key, p_user, g_entry[x.g], x.meta,
             x.margins::numeric[]
      from unnest(ev_org, ev_id, ev_agent, ev_units, ev_price, ev_cost, ev_charged, ev_occurred, ev_group, ev_meta, ev_margins)
        as x(org, id, agent, units, price, cost, charged, occurred, g, meta, margins)
      returning id, organization_id, client_event_id, occurred_at, charged
    )
    insert into usage_event_ids (organization_id, source, client_event_id, event_id, occurred_at, charged)
    select s.organization_id, v_source, s.client_event_id, s.id, s.occurred_at, s.charged from stored s
    order by s.organization_id, s.client_event_id;
    -- Ids past the window and its margin are forgotten a few at a time, so the table keeps
    -- about the window's ids whatever the traffic.
    delete from usage_event_ids d
    where (d.organization_id, d.source, d.client_event_id) in (
      select x.organization_id, x.source, x.client_event_id from usage_event_ids x
      where x.occurred_at < v_now - p_keep
      order by x.occurred_at
      limit 2 * n_ev
      for update skip locked
    );
    -- Each organization and agent type's carry after its last accepted event, in key order;
    -- a carry that stayed 0 and was never stored is not written.
    insert into usage_carry as c (organization_id, agent_type_id, carry)
    select y.org, y.agent, y.carry from (
      select distinct on (x.org, x.agent) x.org, x.agent, x.carry, x.stored
      from unnest(ev_org, ev_agent, ev_carry, ev_carry_stored) with ordinality as x(org, agent, carry, stored, n)
      order by x.org, x.agent, x.n desc
    ) y
    where y.stored or y.carry <> 0
    order by y.org, y.agent
    on conflict (organization_id, agent_type_id) do update set carry = excluded.carry where c.carry <> excluded.carry;
  end if;

  -- The earning carries that changed, in key order.
  if cardinality(ec_key) > 0 then
    insert into earning_carry as c (organization_id, agent_type_id, carry)
    select split_part(x.key, ':', 1)::uuid, split_part(x.key, ':', 2)::uuid, x.carry
    from unnest(ec_key, ec_carry, ec_stored) as x(key, carry, stored)
    where x.stored or x.carry <> 0
    order by 1, 2
    on conflict (organization_id, agent_type_id) do update set carry = excluded.carry where c.carry <> excluded.carry;
  end if;

  if cardinality(short_orgs) > 0 then
    with due as (
      update organization_billing_settings b set insufficient_alerted_at = v_now
      where b.organization_id = any(short_orgs)
        and (b.insufficient_alerted_at is null or b.insufficient_alerted_at <= v_now - interval '1 hour')
      returning b.organization_id, b.credit_balance, b.low_balance_threshold
    )
    insert into balance_alerts (organization_id, kind, balance, threshold)
    select due.organization_id, 'insufficient_credits', due.credit_balance, due.low_balance_threshold from due
    order by due.organization_id;
  end if;

  -- Refused for want of credits where a top-up is set: a request, which the runner makes at
  -- once, only where a top-up can help. The balance (as this batch leaves it) is below the
  -- line, or one top-up of the set amount lets the refused events through: a refusal a top-up
  -- cannot cover, above the line, moves nothing (else a child could pull its parent's credits
  -- with events it could never pay for). And not while the month's last request failed for a
  -- reason that still holds: the monthly maximum leaves no room for the amount, or the parent
  -- still lacks it (its admins were told once; each refused batch would tell them again).
  if cardinality(short_orgs) > 0 then
    insert into top_up_requests (organization_id, reason, balance, refused)
    select b.organization_id, 'refused', b.credit_balance, x.need
    from unnest(short_orgs, short_need) as x(org, need)
    join organization_billing_settings b on b.organization_id = x.org
    join organizations o on o.id = x.org
    left join organization_billing_settings pb on pb.organization_id = o.parent_org_id
    left join lateral (
      select q.outcome from top_up_requests q
      where q.organization_id = x.org and q.done_at is not null
        and q.created_at >= date_trunc('month', v_now at time zone 'UTC') at time zone 'UTC'
      order by q.created_at desc, q.id desc limit 1
    ) last on true
    where b.top_up_below is not null
      and (b.credit_balance < b.top_up_below or b.credit_balance + b.top_up_amount >= x.need)
      and not (last.outcome is not distinct from 'monthly_max'
               and top_up_month_total(x.org, v_now) + b.top_up_amount > b.top_up_monthly_max)
      and not (last.outcome is not distinct from 'parent_short' and pb.credit_balance < b.top_up_amount)
    order by 1
    on conflict (organization_id) where done_at is null do nothing;
  end if;

  -- The caps' month rows as they stand now, and an alert at 80 % and at 100 %, once each a month.
  for h in 1 .. cardinality(cn_tag) loop
    v_level := case when cn_hit[h] or cn_spent[h] >= cn_cap[h] then 100 when cn_spent[h] >= 0.8 * cn_cap[h] then 80 else 0 end;
    update spend_cap_months m set charged = cn_spent[h], alerted = greatest(m.alerted, v_level)
    where m.scope = cn_scope[h] and m.scope_id = cn_id[h] and m.month = cn_month[h];
    -- Once a month per cap and level; and, since a change of the cap starts its month afresh,
    -- not again within the hour for the same cap and level, however often its cap is changed.
    if v_level > cn_alerted[h] and not exists (
      select 1 from balance_alerts a
      where a.organization_id = cn_org[h] and a.kind = case when v_level = 100 then 'cap_reached' else 'cap_warning' end
        and a.detail->>'scope_id' = cn_id[h]::text and a.detail->>'month' = to_char(cn_month[h], 'YYYY-MM')
        and a.created_at > v_now - interval '1 hour'
    ) then
      insert into balance_alerts (organization_id, kind, balance, threshold, detail)
      values (cn_org[h], case when v_level = 100 then 'cap_reached' else 'cap_warning' end, cn_spent[h], cn_cap[h],
        jsonb_build_object('scope', cn_scope[h], 'scope_id', cn_id[h], 'name', cn_label[h], 'month', to_char(cn_month[h], 'YYYY-MM'),
          'percent', v_level));
    end if;
  end loop;
  -- A key's months are kept without a cap too: what its accepted events charged.
  if p_api_key is not null and n_ev > 0 then
    insert into spend_cap_months as s (scope, scope_id, month, charged)
    select 'key', p_api_key, y.month, sum(y.charged)
    from (
      select date_trunc('month', x.occurred at time zone 'UTC')::date as month, x.charged
      from unnest(ev_occurred, ev_charged) as x(occurred, charged)
    ) y
    where not (('key:' || p_api_key::text || ':' || y.month) = any(cn_tag))
    group by y.month
    having sum(y.charged) > 0
    order by y.month
    on conflict (scope, scope_id, month) do update set charged = s.charged + excluded.charged;
  end if;

  return query
    select x.n::integer, x.outcome, x.reason, x.detail, x.charged::text
    from unnest(o_outcome, o_reason, o_detail, o_charged) with ordinality as x(outcome, reason, detail, charged, n)
    order by x.n;
end;
$$;
