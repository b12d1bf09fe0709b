-- The own prices of one agent type down a path of sellers, at a time: element 1 is the catalog
-- price in force at p_at (what the house's child pays), and element n + 1 what the children of
-- the n-th seller pay: the greatest of the catalog price and the book prices of sellers 1..n,
-- each the book in force at p_book_at (a seller's book never takes a child below the seller's
-- own price, which follows as a floor). So the last element is the price of the organization
-- below the last seller, and element n + 1 less element n the n-th seller's margin per unit.
-- Null when the type had no catalog price then.
--
-- This is the one place prices are decided: usage_batch_facts prices every event of a batch
-- with it and organization_price answers one organization's price from it. It answers one row
-- and is called in FROM: a set-returning SQL function with one SELECT is inlined by PostgreSQL
-- into the query calling it, so a batch reads its events' chains as one plan, not a call each.
create or replace function agent_price_chain(p_sellers uuid[], p_agent uuid, p_at timestamptz, p_book_at timestamptz)
returns setof numeric[]
language sql stable as $$
  select case when cp.price is not null then (
    select array_agg(greatest(cp.price, x.m) order by x.n) from (
      select 0::bigint as n, null::numeric as m
      union all
      select a.n, max(bp.price) over (order by a.n)
      from unnest(p_sellers) with ordinality as a(id, n)
      left join lateral (
        select p.price from organization_prices p
        where p.organization_id = a.id and p.agent_type_id = p_agent and p.effective_from <= p_book_at
        order by p.effective_from desc limit 1
      ) bp on true
    ) x
  ) end
  from (
    select (select p.price from agent_prices p where p.agent_type_id = p_agent and p.effective_from <= p_at
            order by p.effective_from desc limit 1) as price
  ) cp
$$;
