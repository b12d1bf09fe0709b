-- The webhook events of one price change: a new book row, child price row or catalog price of
-- agent type p_agent taking effect at p_at, for the live organizations whose path starts with
-- p_scope (the only ones whose own price it can move; p_except, the seller whose book it is,
-- pays what its own parent charges, not its book). Each organization's own price is read just
-- before p_at and from p_at, so a change dated later is told now with its date.
--  price.changed: an organization whose own price it moves: the price before and after, from
--    when, and which organization's price moved it (null for the catalog).
--  price.floored: a seller whose book in force at p_at the change puts below its own price
--    (its children now pay its own price, and it earns nothing on them until it sets another
--    book), as its admins are mailed.
-- A first price of a type (nothing before) is no change.
create or replace function price_move_events(p_scope text, p_except uuid, p_agent uuid, p_at timestamptz, p_by uuid)
returns void language sql volatile as $$
  with moved as (
    select o.id, x.before, x.after
    from organizations o
    cross join lateral (
      select organization_price(o.id, p_agent, p_at - interval '1 microsecond') as before, organization_price(o.id, p_agent, p_at) as after
    ) x
    where o.path like p_scope || '%' and o.deleted_at is null and o.org_type <> 'house'
      and o.id is distinct from p_except
      and x.before is not null and x.after is distinct from x.before
  ),
  agent as (
    select jsonb_build_object('id', t.id, 'code', t.code, 'name', t.name) as ref from agent_types t where t.id = p_agent
  ),
  changed as (
    insert into webhook_events (type, organization_id, data)
    select 'price.changed', m.id,
      jsonb_build_object('agent_type', a.ref, 'before', m.before::numeric(14, 4)::text, 'after', m.after::numeric(14, 4)::text,
        'effective_from', p_at,
        'set_by', (select jsonb_build_object('id', s.id, 'name', s.name) from organizations s where s.id = p_by))
    from moved m cross join agent a
    returning 1
  )
  insert into webhook_events (type, organization_id, data)
  select 'price.floored', m.id,
    jsonb_build_object('agent_type', a.ref, 'book', b.price::numeric(14, 4)::text, 'own_price', m.after::numeric(14, 4)::text,
      'effective_from', p_at)
  from moved m
  cross join agent a
  cross join lateral (
    select p.price from organization_prices p
    where p.organization_id = m.id and p.agent_type_id = p_agent and p.effective_from <= p_at
    order by p.effective_from desc limit 1
  ) b
  where b.price is not null and b.price < m.after and b.price >= m.before
$$;
