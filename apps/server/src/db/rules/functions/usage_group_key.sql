-- The group an accepted event is posted in (usage_post): its organization, agent type and chain
-- of prices, or its price where no seller above keeps a book. One consumption entry per group.
-- Stable, not immutable: the array's and the uuid's text forms come from their output
-- functions. A single expression, so PostgreSQL inlines it.
create or replace function usage_group_key(p_org uuid, p_agent uuid, p_chain numeric[], p_price numeric) returns text
language sql stable as $$
  select p_org || ':' || p_agent || ':' || coalesce(p_chain::text, p_price::text)
$$;
