-- Statement-level: one upsert per statement, rows in key order. Every movement has locked
-- its organizations' balance rows first, so these rows add no new wait between movements.
create or replace function credit_ledger_totals_add() returns trigger language plpgsql as $$
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

create or replace trigger credit_ledger_totals_trg after insert on credit_ledger_entries
  referencing new table as new_entries for each statement execute function credit_ledger_totals_add();
