-- What an organization pays per unit of an agent type at a time (its own price): the last link
-- of its price chain (agent_price_chain) down its ancestors below the house to it, every book
-- and child price read at the same time. Null when the type had no catalog price then.
create or replace function organization_price(p_org uuid, p_agent uuid, p_at timestamptz) returns numeric
language sql stable as $$
  select c.chain[cardinality(c.chain)]
  from organizations o
  cross join lateral agent_price_chain((organization_ancestors(o.path))[2:], o.id, p_agent, p_at, p_at) as c(chain)
  where o.id = p_org
$$;
