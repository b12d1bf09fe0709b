-- usage_post: the last step of usage_record, under its locks. It writes a batch's accepted
-- events, then the caps' months and the alerts (usage_post_limits).
-- 1. Groups: the accepted events of one organization, agent type and chain of prices (its own
--    and its sellers'). A group that charged whole cents is one consumption entry (its event
--    count, units, first and last occurrence; its amount the sum of its events' charges),
--    which its events name. The sellers above a group earn their margins (usage_post_earnings):
--    one earning entry per seller, child it came through, agent type and margin.
-- 2. Everything is posted by ledger_post, which moves each balance once; then the events (each
--    with its margins, from the parent upward), their ids (kept for the occurrence window plus
--    p_keep; each batch forgets up to twice its size of the expired ones, so the table keeps
--    about the window's ids whatever the traffic), and the carries that changed, in key order.
-- The groups are made set-based, never by appending to JSON in a loop: a batch over 1,000
-- organizations has 1,000 groups.
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
  -- The groups (usage_group_key), in the order their first event was decided, and the id of
  -- each one's consumption entry: null for a group that charged no whole cent, which has none.
  v_keys text[];
  v_entries uuid[];
begin
  select coalesce(array_agg(x.key order by x.org, x.first), '{}'),
         coalesce(array_agg(case when x.charge > 0 then gen_random_uuid() end order by x.org, x.first), '{}')
    into v_keys, v_entries
  from (
    select usage_group_key(a.org, a.agent_id, a.chain, a.price) as key, a.org, min(a.ordinality) as first, sum(a.charged) as charge
    from unnest(p_accepted) with ordinality a group by 1, 2
  ) x;

  -- The consumptions, then one earning entry per seller, child, agent type and margin, through
  -- the one ledger writer: it re-checks each balance under the locks already held.
  perform ledger_post(gen_random_uuid(), p_user, false, array_agg(x.org order by x.part, x.n), array_agg(x.amount order by x.part, x.n),
      array_agg(case when x.amount > 0 then 'earning' else 'consumption' end order by x.part, x.n), array_agg(x.meta order by x.part, x.n),
      null, null, array_agg(x.agent order by x.part, x.n), array_agg(x.units order by x.part, x.n), array_agg(x.id order by x.part, x.n),
      null, array_agg(x.draws order by x.part, x.n))
  from (
    select 0 as part, k.n, k.id, c.org, -c.charge as amount, c.agent, c.units, dr.draws,
           jsonb_build_object('agent', c.code, 'events', c.events, 'units', c.units::numeric(18, 4)::text, 'price', c.price::numeric(14, 4)::text,
             'first_occurred_at', to_char(c.first_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
             'last_occurred_at', to_char(c.last_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')) as meta
    from (
      select usage_group_key(a.org, a.agent_id, a.chain, a.price) as key, a.org, a.agent_id as agent,
             a.agent as code, min(a.price) as price, sum(a.charged) as charge, sum(a.units) as units, count(*)::integer as events,
             min(a.occurred) as first_at, max(a.occurred) as last_at
      from unnest(p_accepted) a group by 1, 2, 3, 4
    ) c
    join unnest(v_keys, v_entries) with ordinality as k(key, id, n) on k.key = c.key
    -- The grants its events drew from, summed per grant (the rest came from open credits).
    left join (
      select g.key, jsonb_object_agg(g.grant_id, g.amount::text) as draws from (
        select usage_group_key(a.org, a.agent_id, a.chain, a.price) as key, d.key as grant_id, sum(d.value::numeric) as amount
        from unnest(p_accepted) a cross join jsonb_each_text(a.draws) d
        where a.draws is not null
        group by 1, 2
      ) g group by g.key
    ) dr on dr.key = c.key
    where k.id is not null
    union all
    select 1, row_number() over (order by r.seller, r.child, r.agent, r.margin), null, r.seller, sum(r.credit), r.agent, sum(r.units), null::jsonb,
           jsonb_build_object('agent', r.code, 'events', sum(r.events), 'units', sum(r.units)::numeric(18, 4)::text,
             'margin', r.margin::numeric(14, 4)::text, 'child_id', r.child, 'child_name', o.name)
    from usage_post_earnings(p_accepted) r
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
             g.entry, a.meta,
             case when 0 < any(m.margins) then m.margins end
      from unnest(p_accepted) a
      join unnest(v_keys, v_entries) as g(key, entry) on g.key = usage_group_key(a.org, a.agent_id, a.chain, a.price)
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
  perform usage_post_limits(p_accepted, p_caps, p_short_orgs, p_short_need, p_api_key, p_now);
end;
$$;
