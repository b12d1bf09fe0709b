-- What an organization pays per unit of an agent type at a time (its own price): the greatest
-- of the catalog price and the book prices, in force then, of its ancestors below the house
-- (each sets what its direct children pay, never below its own price, which rises with its
-- parent's as a floor). Null when the type had no catalog price then. usage_record computes
-- the same price inline, for a whole batch at once.
create or replace function organization_price(p_org uuid, p_agent uuid, p_at timestamptz) returns numeric
language sql stable as $$
  select case when cp.price is null then null else greatest(cp.price, (
    select max(bp.price)
    from organizations o
    cross join lateral unnest((organization_ancestors(o.path))[2:]) as a(id)
    cross join lateral (
      select p.price from organization_prices p
      where p.organization_id = a.id and p.agent_type_id = p_agent and p.effective_from <= p_at
      order by p.effective_from desc limit 1
    ) bp
    where o.id = p_org
  )) end
  from (
    select (select p.price from agent_prices p where p.agent_type_id = p_agent and p.effective_from <= p_at
            order by p.effective_from desc limit 1) as price
  ) cp
$$;
