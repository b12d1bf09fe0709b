-- Child prices: a seller's price for one named direct child and agent type, which replaces the
-- seller's book price for that child's subtree from a time on. A row with a null price removes
-- it (the child pays the book again). As with the book, the rows are the history: never
-- updated, never deleted. The floor still holds through the price chain: what anyone pays is
-- at least what every seller above it pays.
create table organization_child_prices (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null references organizations (id),
  child_id uuid not null references organizations (id),
  agent_type_id uuid not null references agent_types (id),
  price numeric(14, 4) check (price >= 0),
  effective_from timestamptz not null,
  created_by uuid references users (id),
  created_at timestamptz not null default now(),
  check (child_id <> organization_id),
  unique (organization_id, child_id, agent_type_id, effective_from)
);
-- The price in force for a child: the newest row at or before a time (the unique index serves
-- it); the seller's list and history read by seller, newest first.
create index organization_child_prices_history_idx on organization_child_prices (organization_id, effective_from desc, id desc);

-- agent_price_chain now takes the organization the chain prices (a seller's child price for the
-- next organization down the path replaces its book price): the old signature goes, its rule
-- file creates the new one.
drop function if exists agent_price_chain(uuid[], uuid, timestamptz, timestamptz);
