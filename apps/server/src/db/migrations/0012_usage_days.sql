-- Day totals for the dashboard, kept by triggers in the same transaction as the rows they
-- count, so a month of an organization's usage is read as at most 30 rows per agent type
-- instead of every event and every consumption entry of the month.
--
-- Both sources are append-only (usage events are only inserted; the ledger refuses updates
-- and deletes), so only inserts move the totals. Each trigger is statement-level and applies
-- its rows in key order (organization first). Every writer of usage events, consumptions and
-- refunds has locked the organization's balance row before it writes them, so these rows add
-- no new waiting between two writers.

-- Accepted usage events by organization, UTC day of occurrence and agent type.
create table usage_event_days (
  organization_id uuid not null references organizations (id),
  day date not null,
  agent_type_id uuid not null references agent_types (id),
  events bigint not null,
  units numeric not null,
  charged numeric not null,
  primary key (organization_id, day, agent_type_id)
);

create function usage_event_days_add() returns trigger language plpgsql as $$
begin
  insert into usage_event_days as d (organization_id, day, agent_type_id, events, units, charged)
  select organization_id, (occurred_at at time zone 'UTC')::date, agent_type_id, count(*), sum(units), sum(charged)
  from new_events
  group by 1, 2, 3
  order by 1, 2, 3
  on conflict (organization_id, day, agent_type_id)
  do update set events = d.events + excluded.events, units = d.units + excluded.units, charged = d.charged + excluded.charged;
  return null;
end;
$$;

create trigger usage_event_days_trg after insert on usage_events
  referencing new table as new_events for each statement execute function usage_event_days_add();

insert into usage_event_days (organization_id, day, agent_type_id, events, units, charged)
select organization_id, (occurred_at at time zone 'UTC')::date, agent_type_id, count(*), sum(units), sum(charged)
from usage_events group by 1, 2, 3;

-- Consumption and refund entries by organization, UTC day of the entry and type: the
-- dashboard's usage periods, forecast and 7-day history.
create table credit_usage_days (
  organization_id uuid not null references organizations (id),
  day date not null,
  entry_type text not null check (entry_type in ('consumption', 'refund')),
  total numeric not null,
  entries bigint not null,
  primary key (organization_id, day, entry_type)
);

create function credit_usage_days_add() returns trigger language plpgsql as $$
begin
  insert into credit_usage_days as d (organization_id, day, entry_type, total, entries)
  select organization_id, (created_at at time zone 'UTC')::date, entry_type, sum(amount), count(*)
  from new_entries
  where entry_type in ('consumption', 'refund')
  group by 1, 2, 3
  order by 1, 2, 3
  on conflict (organization_id, day, entry_type)
  do update set total = d.total + excluded.total, entries = d.entries + excluded.entries;
  return null;
end;
$$;

create trigger credit_usage_days_trg after insert on credit_ledger_entries
  referencing new table as new_entries for each statement execute function credit_usage_days_add();

insert into credit_usage_days (organization_id, day, entry_type, total, entries)
select organization_id, (created_at at time zone 'UTC')::date, entry_type, sum(amount), count(*)
from credit_ledger_entries where entry_type in ('consumption', 'refund') group by 1, 2, 3;
