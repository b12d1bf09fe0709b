-- The credit ledger and the moves of its grants are append-only: a correction is a new entry.
create or replace function credit_ledger_append_only() returns trigger language plpgsql as $$
begin
  raise exception '% rows are append-only', replace(tg_table_name, '_', ' ') using errcode = '42501';
end;
$$;

create or replace trigger credit_ledger_no_update before update or delete on credit_ledger_entries
  for each row execute function credit_ledger_append_only();

create or replace trigger credit_ledger_no_truncate before truncate on credit_ledger_entries
  for each statement execute function credit_ledger_append_only();

create or replace trigger credit_grant_moves_no_update before update or delete on credit_grant_moves
  for each row execute function credit_ledger_append_only();

create or replace trigger credit_grant_moves_no_truncate before truncate on credit_grant_moves
  for each statement execute function credit_ledger_append_only();
