-- The own prices of one agent type down a path of sellers to an organization p_org, at a time:
-- element 1 is the catalog price in force at p_at (what the house's child pays), and element
-- n + 1 what the n-th seller's child on the path (the next seller, or p_org below the last one)
-- pays: the greatest of the catalog price and the prices sellers 1..n charge down the path,
-- each read at p_book_at. A seller charges its child on the path its child price for that child
-- when one stands (organization_child_prices), else its book price (a seller's price never
-- takes a child below the seller's own price, which follows as a floor). So the last element is
-- the price of p_org, and element n + 1 less element n the n-th seller's margin per unit.
-- Null when the type had no catalog price then.
--
-- This is the one place prices are decided: usage_batch_facts prices every event of a batch
-- with it and organization_price answers one organization's price from it. It answers one row
-- and is called in FROM: a set-returning SQL function with one SELECT is inlined by PostgreSQL
-- into the query calling it, so a batch reads its events' chains as one plan, not a call each.
create or replace function agent_price_chain(p_sellers uuid[], p_org uuid, p_agent uuid, p_at timestamptz, p_book_at timestamptz)
returns setof numeric[]
language sql stable as $$
  select case when cp.price is not null then (
    select array_agg(greatest(cp.price, x.m) order by x.n) from (
      select 0::bigint as n, null::numeric as m
      union all
      -- A removed child price (a null row) falls back to the book.
      select a.n, max(coalesce(op.price, bp.price)) over (order by a.n)
      from unnest(p_sellers) with ordinality as a(id, n)
      left join lateral (
        select p.price from organization_prices p
        where p.organization_id = a.id and p.agent_type_id = p_agent and p.effective_from <= p_book_at
        order by p.effective_from desc limit 1
      ) bp on true
      left join lateral (
        select p.price from organization_child_prices p
        where p.organization_id = a.id and p.child_id = coalesce(p_sellers[(a.n + 1)::integer], p_org)
          and p.agent_type_id = p_agent and p.effective_from <= p_book_at
        order by p.effective_from desc limit 1
      ) op on true
    ) x
  ) end
  from (
    select (select p.price from agent_prices p where p.agent_type_id = p_agent and p.effective_from <= p_at
            order by p.effective_from desc limit 1) as price
  ) cp
$$;
