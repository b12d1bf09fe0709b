-- Price books: what an organization with children charges its direct children for an agent
-- type, from a time on. The house's children pay the catalog (agent_prices); a super agency
-- or an agency sets its own book. A row with a null price returns to pass-through (the
-- children pay what the seller pays). The rows are the history: never updated, never deleted.
--
-- What an organization pays for a type at a time is the greatest of the catalog price and
-- every book price of its ancestors below the house in force then: a seller's book never
-- takes a child below the seller's own price, and when a seller's own price rises above
-- the book it set, its children's price follows as a floor (its margin is zero until it
-- sets a new one).
create table organization_prices (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null references organizations (id),
  agent_type_id uuid not null references agent_types (id),
  price numeric(14, 4) check (price >= 0),
  effective_from timestamptz not null,
  created_by uuid references users (id),
  created_at timestamptz not null default now(),
  unique (organization_id, agent_type_id, effective_from)
);
-- The book in force: the newest row at or before a time, per seller and type (the unique
-- index serves it); the history page lists a seller's changes newest first.
create index organization_prices_history_idx on organization_prices (organization_id, effective_from desc, id desc);

-- Earnings: an ancestor's margin on its subtree's usage, posted in the usage's transaction.
-- An earning names the agent type and units it came from, as a consumption does.
alter table credit_ledger_entries drop constraint credit_ledger_entries_entry_type_check;
alter table credit_ledger_entries add constraint credit_ledger_entries_entry_type_check check (entry_type in (
  'initial_balance', 'allocation_sent', 'allocation_received', 'consumption', 'refund',
  'adjustment_increase', 'adjustment_decrease', 'earning'
));
alter table credit_ledger_entries drop constraint credit_ledger_entries_check;
alter table credit_ledger_entries add constraint credit_ledger_entries_check check (
  (entry_type in ('allocation_sent', 'consumption', 'adjustment_decrease') and amount < 0)
  or (entry_type in ('initial_balance', 'allocation_received', 'refund', 'adjustment_increase', 'earning') and amount > 0)
);
alter table credit_ledger_entries drop constraint credit_ledger_agent_check;
alter table credit_ledger_entries add constraint credit_ledger_agent_check
  check ((agent_type_id is null) = (units is null) and (agent_type_id is null or entry_type in ('consumption', 'earning')));

-- Each accepted event keeps the margins it paid, per unit, from its organization's parent
-- upward (the house's part is not a margin); null when no ancestor earned. Reconciliation
-- recomputes every earner's earnings from them.
alter table usage_events add column margins numeric(14, 4)[];

-- What earnings came to beyond the whole cents credited so far, per earner and agent type:
-- over all events, units × margin = the earnings credited + the carry. A batch never credits
-- more than its consumption took, so a carry can briefly hold a cent or more.
create table earning_carry (
  organization_id uuid not null references organizations (id),
  agent_type_id uuid not null references agent_types (id),
  carry numeric(32, 8) not null default 0 check (carry >= 0),
  primary key (organization_id, agent_type_id)
);
