-- usage_batch_facts: the first step of usage_record. Everything the decision needs of each
-- event of a batch, read in one query under the locks usage_record already holds, ordered by
-- organization and then by the event's number in the batch:
-- - the event as sent, and the number of the first event of the batch with its id (a repeat
--   inside the batch answers that one's outcome);
-- - reachable: the organization exists, is live and lies under the reporter's path p_reach;
-- - active: it and every organization above it are active;
-- - duplicate: its id was already recorded from this kind of reporter (p_source), with what it
--   charged then;
-- - agent_id (null: unknown), live (a live activation there) and priced (a catalog price in
--   force when it occurred);
-- - its price and price chain (agent_price_chain): read at the later of occurred_at and the
--   arrival minus p_price_grace when a grace is given (a key's report: backdating cannot pick an
--   older, lower price), the books at no later than p_now (an event stamped ahead takes the book
--   of its arrival). The chain is read only where some seller above keeps a book (p_booked);
--   elsewhere the price is the catalog's;
-- - its month (UTC), its organization's balance and its carry for the agent type;
-- - caps: every cap it is counted against, in the order a refusal names them: the reporting
--   key's, its activation's, then the spend caps of the organizations from the top down to its
--   own (a parent's cap on a child covers the child's subtree), each by day, week then month.
--   Each names its window holding the event (cap_window_start), whether the reporter (p_reach)
--   may see the organization it is on, and who set it: the key's organization, whoever last
--   set the activation's caps, or the parent of the subtree's organization (only its parent's
--   admins set it); the setter is left out (null) where the reporter may not see it.
create or replace function usage_batch_facts(
  p_events jsonb,
  p_reach text,
  p_source text,
  p_api_key uuid,
  p_price_grace interval,
  p_now timestamptz,
  p_booked uuid[]
) returns setof usage_fact
language sql stable as $$
  with ev as (
    select x.i, x.org, x.id, x.agent, x.units, x.occurred, coalesce(x.meta, '{}'::jsonb) as meta
    from jsonb_to_recordset(p_events) as x(i integer, org uuid, id text, agent text, units numeric, occurred timestamptz, meta jsonb)
  ),
  key_caps as (
    select coalesce(array_agg(row('key', k.id, null, w.cap, k.organization_id, k.name, null, null, false,
                                  w.kind, true, k.organization_id, ko.name)::usage_cap order by w.n), '{}') as caps
    from api_keys k
    join organizations ko on ko.id = k.organization_id
    cross join lateral (values (1, 'day', k.daily_cap), (2, 'week', k.weekly_cap), (3, 'month', k.monthly_cap)) as w(n, kind, cap)
    where k.id = p_api_key and w.cap is not null
  ),
  -- Each organization's ancestors, read once (organization_ancestors is a function call).
  anc as materialized (
    select o.id, o.path, o.status, o.deleted_at, organization_ancestors(o.path) as ids
    from organizations o where o.id in (select ev.org from ev)
  ),
  -- The spend caps on each organization and the ones above it, from the top down, set-based.
  subtree_caps as (
    select x.id, array_agg(row('subtree', b.organization_id, null, w.cap, b.organization_id, c.name, null, null, false,
                               w.kind, starts_with(c.path, p_reach),
                               case when starts_with(p.path, p_reach) then p.id end,
                               case when starts_with(p.path, p_reach) then p.name end)::usage_cap
                           order by a.n, w.n) as caps
    from anc x
    cross join unnest(x.ids || x.id) with ordinality as a(id, n)
    join organization_billing_settings b on b.organization_id = a.id
    cross join lateral (values (1, 'day', b.daily_spend_cap), (2, 'week', b.weekly_spend_cap), (3, 'month', b.spend_cap)) as w(n, kind, cap)
    join organizations c on c.id = a.id
    left join organizations p on p.id = c.parent_org_id
    where w.cap is not null
    group by x.id
  ),
  orgs as (
    select x.id, x.ids[2:] as sellers, x.ids[2:] && p_booked as booked,
           starts_with(x.path, p_reach) and x.deleted_at is null as reachable,
           x.status = 'active' and not exists (select 1 from organizations a where a.id = any(x.ids) and a.status <> 'active') as active,
           coalesce(sc.caps, '{}') as caps
    from anc x left join subtree_caps sc on sc.id = x.id
  )
  select ev.i, ev.org, ev.id, ev.agent, ev.units, ev.occurred, ev.meta,
         (min(ev.i) over (partition by ev.org, ev.id))::integer,
         coalesce(orgs.reachable, false),
         coalesce(orgs.active, false),
         u.client_event_id is not null,
         u.charged,
         t.id,
         v.id is not null,
         exists (select 1 from agent_prices p where p.agent_type_id = t.id and p.effective_from <= ev.occurred),
         coalesce(ch.chain[cardinality(ch.chain)], cp.price),
         ch.chain,
         orgs.sellers,
         date_trunc('month', ev.occurred at time zone 'UTC')::date,
         b.credit_balance,
         c.carry,
         array(
           select row(c.scope, c.scope_id, cap_window_start(c.kind, ev.occurred), c.cap, c.organization_id, c.name, null, null, false,
                      c.kind, c.visible, c.set_by, c.set_by_name)::usage_cap
           from unnest(kc.caps || coalesce(vc.caps, '{}'::usage_cap[]) || coalesce(orgs.caps, '{}'::usage_cap[])) with ordinality as c
           order by c.ordinality)
  from ev
  cross join key_caps kc
  left join orgs on orgs.id = ev.org
  left join usage_event_ids u on u.organization_id = ev.org and u.source = p_source and u.client_event_id = ev.id
  left join agent_types t on t.code = ev.agent
  -- A lateral lookup with a limit, so each event probes the index of live activations.
  left join lateral (
    select v.id, v.monthly_cap, v.daily_cap, v.weekly_cap, v.caps_set_by, v.organization_id from agent_activations v
    where v.organization_id = ev.org and v.agent_type_id = t.id and v.deactivated_at is null limit 1
  ) v on true
  -- The activation's caps, with who set them (its organization, unless its parent's admins did).
  left join lateral (
    select array_agg(row('activation', v.id, null, w.cap, v.organization_id, t.name, null, null, false, w.kind, true,
                         case when starts_with(s.path, p_reach) then s.id end,
                         case when starts_with(s.path, p_reach) then s.name end)::usage_cap order by w.n) as caps
    from (values (1, 'day', v.daily_cap), (2, 'week', v.weekly_cap), (3, 'month', v.monthly_cap)) as w(n, kind, cap)
    left join organizations s on s.id = coalesce(v.caps_set_by, v.organization_id)
    where w.cap is not null
  ) vc on v.id is not null
  left join lateral (
    select case when p_price_grace is null then ev.occurred else greatest(ev.occurred, p_now - p_price_grace) end as at
  ) pt on true
  left join lateral (
    select p.price from agent_prices p
    where p.agent_type_id = t.id and p.effective_from <= pt.at
    order by p.effective_from desc limit 1
  ) cp on true
  left join lateral agent_price_chain(orgs.sellers, ev.org, t.id, pt.at, least(pt.at, p_now)) as ch(chain)
    on orgs.booked and cp.price is not null
  left join organization_billing_settings b on b.organization_id = ev.org
  left join usage_carry c on c.organization_id = ev.org and c.agent_type_id = t.id
  order by ev.org, ev.i
$$;
