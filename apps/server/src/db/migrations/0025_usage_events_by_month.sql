-- Usage events stored by month of occurrence, so billions of rows stay fast to write and to
-- page, and a month that is no longer read can be detached whole. The ledger no longer takes
-- a consumption entry per event: usage_record posts one per batch, organization, agent type
-- and price, and each event links to it.
--
-- A unique index of a partitioned table must hold the partition key, so the idempotency of
-- an event id per organization moves to usage_event_ids, which keeps each id for the whole
-- occurrence window plus a margin (usage_record deletes the older ones as it goes). An event
-- sent again after that is older than the window and is refused as such, never charged again.
--
-- Ids have two namespaces: what machine keys report ('key') and what the house imports
-- ('import'), so a key cannot take an id the house's import will use.

alter table usage_events rename to usage_events_unpartitioned;
alter index usage_events_pkey rename to usage_events_unpartitioned_pkey;
alter index usage_events_org_time_id_idx rename to usage_events_unpartitioned_org_time_id_idx;
alter index usage_events_entry_idx rename to usage_events_unpartitioned_entry_idx;
drop trigger usage_event_days_trg on usage_events_unpartitioned;

-- The constraints keep the names they had (the old table's go with it below).
create table usage_events (
  id uuid not null default gen_random_uuid(),
  organization_id uuid not null constraint usage_events_organization_id_fkey references organizations (id),
  client_event_id text not null constraint usage_events_client_event_id_check check (length(client_event_id) between 1 and 200),
  -- Who reported it: a machine key, or the house's usage import; each has its own ids.
  source text not null default 'key' constraint usage_events_source_check check (source in ('key', 'import')),
  agent_type_id uuid not null constraint usage_events_agent_type_id_fkey references agent_types (id),
  units numeric(18, 4) not null constraint usage_events_units_check check (units > 0),
  price numeric(14, 4) not null constraint usage_events_price_check check (price >= 0),
  cost numeric(32, 8) not null constraint usage_events_cost_check check (cost >= 0),
  charged numeric(16, 2) not null constraint usage_events_charged_check check (charged >= 0),
  occurred_at timestamptz not null,
  received_at timestamptz not null default now(),
  api_key_id uuid constraint usage_events_api_key_id_fkey references api_keys (id),
  created_by uuid constraint usage_events_created_by_fkey references users (id),
  -- The batch's consumption entry for the event's organization, agent type and price; an
  -- event that charged whole cents always has one (a group that charged nothing has none).
  ledger_entry_id uuid constraint usage_events_ledger_entry_id_fkey references credit_ledger_entries (id),
  metadata jsonb not null default '{}',
  constraint usage_events_check check (charged = 0 or ledger_entry_id is not null),
  constraint usage_events_pkey primary key (id, occurred_at)
) partition by range (occurred_at);

-- A month's partition for every month that holds events and the three months ahead; the
-- default partition takes an event whose month has none yet (usage_events_add_months makes
-- the months ahead at each start of the server).
do $$
declare
  m date;
  last date := (date_trunc('month', now() at time zone 'UTC') + interval '3 months')::date;
begin
  m := coalesce(
    (select date_trunc('month', min(occurred_at) at time zone 'UTC')::date from usage_events_unpartitioned),
    date_trunc('month', now() at time zone 'UTC')::date);
  m := least(m, (date_trunc('month', now() at time zone 'UTC') - interval '2 months')::date);
  while m <= last loop
    execute format(
      'create table %I partition of usage_events for values from (%L) to (%L)',
      'usage_events_' || to_char(m, 'YYYY_MM'),
      (m::timestamp at time zone 'UTC'),
      ((m + interval '1 month')::timestamp at time zone 'UTC'));
    m := (m + interval '1 month')::date;
  end loop;
end;
$$;
create table usage_events_default partition of usage_events default;

-- An organization's events newest first (the console's and the machine API's pages), the
-- events of one consumption entry, and an event by its id (a refund names it).
create index usage_events_org_time_id_idx on usage_events (organization_id, occurred_at desc, id desc);
create index usage_events_entry_idx on usage_events (ledger_entry_id) where ledger_entry_id is not null;
create index usage_events_client_idx on usage_events (organization_id, client_event_id);

insert into usage_events
  (id, organization_id, client_event_id, source, agent_type_id, units, price, cost, charged, occurred_at, received_at,
   api_key_id, created_by, ledger_entry_id, metadata)
select id, organization_id, client_event_id, case when api_key_id is null then 'import' else 'key' end, agent_type_id,
       units, price, cost, charged, occurred_at, received_at, api_key_id, created_by, ledger_entry_id, metadata
from usage_events_unpartitioned;

-- The ids an organization's reporters have used, kept while an event sent again could still
-- fall in the occurrence window. `charged` answers a replay with its first outcome.
create table usage_event_ids (
  organization_id uuid not null references organizations (id),
  source text not null check (source in ('key', 'import')),
  client_event_id text not null,
  event_id uuid not null,
  occurred_at timestamptz not null,
  charged numeric(16, 2) not null,
  primary key (organization_id, source, client_event_id)
);
create index usage_event_ids_occurred_idx on usage_event_ids (occurred_at);

insert into usage_event_ids (organization_id, source, client_event_id, event_id, occurred_at, charged)
select organization_id, source, client_event_id, id, occurred_at, charged from usage_events;

drop table usage_events_unpartitioned;

create trigger usage_event_days_trg after insert on usage_events
  referencing new table as new_events for each statement execute function usage_event_days_add();

-- At most one audit row an hour for a key's usage reports: the events name their key.
alter table api_keys add column usage_audited_at timestamptz;

-- usage_record takes an eighth argument, how long an event's id is kept (its rule file makes
-- the new function); the seven-argument one goes first so that calls name one function.
drop function if exists usage_record(jsonb, text, uuid, uuid, interval, interval, interval);
