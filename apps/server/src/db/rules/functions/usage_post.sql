-- usage_post: the last step of usage_record, under its locks. It writes a batch's accepted
-- events, then the caps' months and the alerts (usage_post_limits).
-- 1. Groups: the accepted events of one organization, agent type and chain of prices (its own
--    and its sellers'). A group that charged whole cents is one consumption entry (its event
--    count, units, first and last occurrence; its amount the sum of its events' charges),
--    which its events name.
-- 2. Margins: each seller above a group's organization earns, per unit, the price of its child
--    on the path minus its own price (the house's part is consumed). A seller's exact earnings
--    are added to its carry for the agent type and the whole cents credited, nearest seller
--    first, never more in all than the group's consumption took (what is held back stays in
--    the carry). One earning entry per seller, child it came through, agent type and margin.
--    So over all events each seller's earnings credited plus its carry equal units × its
--    margin, and no batch credits more than it charged. Each event keeps its margins
--    (usage_events.margins, from the parent upward).
-- 3. Everything is posted by ledger_post, which moves each balance once; then the events, their
--    ids (kept for the occurrence window plus p_keep; each batch forgets up to twice its size of
--    the expired ones, so the table keeps about the window's ids whatever the traffic), and the
--    carries that changed, in key order.
create or replace function usage_post(
  p_accepted usage_accepted[],
  p_caps usage_cap[],
  p_short_orgs uuid[],
  p_short_need numeric[],
  p_api_key uuid,
  p_user uuid,
  p_source text,
  p_now timestamptz,
  p_keep interval
) returns void
language plpgsql as $$
declare
  g record;
  -- The consumption entry of each group that charged, by "org:agent:chain".
  v_entries jsonb := '{}';
  v_consumed jsonb := '[]';
  -- Each seller's whole cents earned on each group, and the earning carries read so far.
  v_earned jsonb := '[]';
  ec_key text[] := '{}';
  ec_carry numeric[] := '{}';
  ec_stored boolean[] := '{}';
  v_margins numeric[];
  v_left numeric;
  v_exact numeric;
  v_credit numeric;
  j integer;
  q integer;
  k integer;
begin
  for g in
    select a.org, a.agent_id, a.agent, a.price, a.chain, a.sellers, sum(a.charged) as charge, sum(a.units) as units,
           count(*)::integer as events, min(a.occurred) as first_at, max(a.occurred) as last_at,
           a.org || ':' || a.agent_id || ':' || coalesce(a.chain::text, a.price::text) as key
    from unnest(p_accepted) with ordinality a
    group by a.org, a.agent_id, a.agent, a.price, a.chain, a.sellers
    order by a.org, min(a.ordinality)
  loop
    if g.charge > 0 then
      v_entries := v_entries || jsonb_build_object(g.key, gen_random_uuid());
      v_consumed := v_consumed || jsonb_build_object('id', v_entries->>g.key, 'org', g.org, 'amount', -g.charge, 'agent', g.agent_id,
        'units', g.units, 'meta', jsonb_build_object(
          'agent', g.agent, 'events', g.events, 'units', g.units::numeric(18, 4)::text, 'price', g.price::numeric(14, 4)::text,
          'first_occurred_at', to_char(g.first_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
          'last_occurred_at', to_char(g.last_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')));
    end if;
    -- Each seller's margin per unit, from the parent upward.
    v_margins := array(select g.chain[s.n + 1] - g.chain[s.n] from generate_series(cardinality(g.sellers), 1, -1) as s(n));
    continue when g.chain is null or not (0 < any(v_margins));
    v_left := g.charge;
    for j in 1 .. cardinality(v_margins) loop
      continue when v_margins[j] = 0;
      q := cardinality(g.sellers) + 1 - j;
      k := array_position(ec_key, g.sellers[q]::text || ':' || g.agent_id::text);
      if k is null then
        k := cardinality(ec_key) + 1;
        ec_key[k] := g.sellers[q]::text || ':' || g.agent_id::text;
        select c.carry into v_exact from earning_carry c where c.organization_id = g.sellers[q] and c.agent_type_id = g.agent_id;
        ec_stored[k] := found;
        ec_carry[k] := coalesce(v_exact, 0);
      end if;
      v_exact := ec_carry[k] + g.units * v_margins[j];
      v_credit := least(trunc(v_exact, 2), v_left);
      ec_carry[k] := v_exact - v_credit;
      v_left := v_left - v_credit;
      v_earned := v_earned || jsonb_build_object('seller', g.sellers[q], 'child', case when q = cardinality(g.sellers) then g.org else g.sellers[q + 1] end,
        'agent', g.agent_id, 'code', g.agent, 'margin', v_margins[j], 'units', g.units, 'events', g.events, 'credit', v_credit);
    end loop;
  end loop;

  -- The consumptions, then one earning entry per seller, child, agent type and margin, through
  -- the one ledger writer: it re-checks each balance under the locks already held.
  perform ledger_post(gen_random_uuid(), p_user, false, array_agg(x.org order by x.part, x.n), array_agg(x.amount order by x.part, x.n),
      array_agg(case when x.amount > 0 then 'earning' else 'consumption' end order by x.part, x.n), array_agg(x.meta order by x.part, x.n),
      null, null, array_agg(x.agent order by x.part, x.n), array_agg(x.units order by x.part, x.n), array_agg(x.id order by x.part, x.n))
  from (
    select 0 as part, c.ordinality as n, c.id, c.org, c.amount, c.meta, c.agent, c.units
    from rows from (jsonb_to_recordset(v_consumed) as (id uuid, org uuid, amount numeric, agent uuid, units numeric, meta jsonb))
      with ordinality as c(id, org, amount, agent, units, meta, ordinality)
    union all
    select 1, row_number() over (order by r.seller, r.child, r.agent, r.margin), null, r.seller, sum(r.credit),
           jsonb_build_object('agent', r.code, 'events', sum(r.events), 'units', sum(r.units)::numeric(18, 4)::text,
             'margin', r.margin::numeric(14, 4)::text, 'child_id', r.child, 'child_name', o.name), r.agent, sum(r.units)
    from jsonb_to_recordset(v_earned) as r(seller uuid, child uuid, agent uuid, code text, margin numeric, units numeric, events integer, credit numeric)
    left join organizations o on o.id = r.child
    group by r.seller, r.child, r.agent, r.code, r.margin, o.name
    having sum(r.credit) > 0
  ) x
  having count(*) > 0;

  if cardinality(p_accepted) > 0 then
    with stored as (
      insert into usage_events
        (organization_id, client_event_id, source, agent_type_id, units, price, cost, charged, occurred_at, api_key_id, created_by,
         ledger_entry_id, metadata, margins)
      select a.org, a.id, p_source, a.agent_id, a.units, a.price, a.cost, a.charged, a.occurred, p_api_key, p_user,
             (v_entries->>(a.org || ':' || a.agent_id || ':' || coalesce(a.chain::text, a.price::text)))::uuid, a.meta,
             case when 0 < any(m.margins) then m.margins end
      from unnest(p_accepted) a
      cross join lateral (
        select array(select a.chain[s.n + 1] - a.chain[s.n] from generate_series(cardinality(a.sellers), 1, -1) as s(n)) as margins
      ) m
      returning id, organization_id, client_event_id, occurred_at, charged
    )
    insert into usage_event_ids (organization_id, source, client_event_id, event_id, occurred_at, charged)
    select s.organization_id, p_source, s.client_event_id, s.id, s.occurred_at, s.charged from stored s
    order by s.organization_id, s.client_event_id;
    delete from usage_event_ids d
    where (d.organization_id, d.source, d.client_event_id) in (
      select x.organization_id, x.source, x.client_event_id from usage_event_ids x
      where x.occurred_at < p_now - p_keep
      order by x.occurred_at
      limit 2 * cardinality(p_accepted)
      for update skip locked
    );
    -- Each carry after its last accepted event; a carry still 0 and never stored is not written.
    insert into usage_carry as c (organization_id, agent_type_id, carry)
    select y.org, y.agent_id, y.carry from (
      select distinct on (a.org, a.agent_id) a.org, a.agent_id, a.carry, a.carry_stored
      from unnest(p_accepted) with ordinality a
      order by a.org, a.agent_id, a.ordinality desc
    ) y
    where y.carry_stored or y.carry <> 0
    order by y.org, y.agent_id
    on conflict (organization_id, agent_type_id) do update set carry = excluded.carry where c.carry <> excluded.carry;
  end if;
  insert into earning_carry as c (organization_id, agent_type_id, carry)
  select split_part(x.key, ':', 1)::uuid, split_part(x.key, ':', 2)::uuid, x.carry
  from unnest(ec_key, ec_carry, ec_stored) as x(key, carry, stored)
  where x.stored or x.carry <> 0
  order by 1, 2
  on conflict (organization_id, agent_type_id) do update set carry = excluded.carry where c.carry <> excluded.carry;

  perform usage_post_limits(p_accepted, p_caps, p_short_orgs, p_short_need, p_api_key, p_now);
end;
$$;
