create or replace function credit_ledger_append_only() returns trigger language plpgsql as $$
begin
  raise exception 'credit ledger entries are append-only' using errcode = '42501';
end;
$$;

create or replace trigger credit_ledger_no_update before update or delete on credit_ledger_entries
  for each row execute function credit_ledger_append_only();

create or replace trigger credit_ledger_no_truncate before truncate on credit_ledger_entries
  for each statement execute function credit_ledger_append_only();
