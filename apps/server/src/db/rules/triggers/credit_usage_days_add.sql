create or replace function credit_usage_days_add() returns trigger language plpgsql as $$
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

create or replace trigger credit_usage_days_trg after insert on credit_ledger_entries
  referencing new table as new_entries for each statement execute function credit_usage_days_add();
