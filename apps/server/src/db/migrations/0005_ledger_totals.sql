-- Each organization's entries summed by type, kept by a trigger in the same transaction as
-- the entries (the ledger is append-only, so only inserts move them). The dashboard reads
-- credits by entry type, allocated and received from here instead of summing every entry
-- of an organization that may hold hundreds of thousands. `npm run db:reconcile` checks it.
create table credit_ledger_totals (
  organization_id uuid not null references organizations (id),
  entry_type text not null,
  total numeric not null,
  entries bigint not null,
  primary key (organization_id, entry_type)
);

-- Statement-level: one upsert per statement, rows in key order. Every movement has locked
-- its organizations' balance rows first, so these rows add no new wait between movements.
create function credit_ledger_totals_add() returns trigger language plpgsql as $$
begin
  insert into credit_ledger_totals as t (organization_id, entry_type, total, entries)
  select organization_id, entry_type, sum(amount), count(*) from new_entries
  group by organization_id, entry_type
  order by organization_id, entry_type
  on conflict (organization_id, entry_type)
  do update set total = t.total + excluded.total, entries = t.entries + excluded.entries;
  return null;
end;
$$;

create trigger credit_ledger_totals_trg after insert on credit_ledger_entries
  referencing new table as new_entries for each statement execute function credit_ledger_totals_add();

insert into credit_ledger_totals (organization_id, entry_type, total, entries)
select organization_id, entry_type, sum(amount), count(*) from credit_ledger_entries group by organization_id, entry_type;
