-- An issued invoice never changes: its lines are never updated or deleted, and of the invoice
-- itself only a void (once) is written. Payments are never deleted; only a reversal (once) is
-- written on one.
create or replace function invoices_frozen() returns trigger language plpgsql as $$
begin
  if tg_op = 'DELETE' then
    raise exception 'issued invoices, their lines and payments are never deleted' using errcode = '42501';
  end if;
  if tg_table_name = 'invoice_lines' then
    raise exception 'invoice lines never change' using errcode = '42501';
  end if;
  if tg_table_name = 'invoices' then
    if old.voided_at is not null
      or (to_jsonb(new) - array['voided_at', 'voided_by', 'void_reason']) is distinct from (to_jsonb(old) - array['voided_at', 'voided_by', 'void_reason']) then
      raise exception 'an issued invoice never changes but to be voided once' using errcode = '42501';
    end if;
  else
    if old.reversed_at is not null
      or (to_jsonb(new) - array['reversed_at', 'reversed_by', 'reverse_reason']) is distinct from (to_jsonb(old) - array['reversed_at', 'reversed_by', 'reverse_reason']) then
      raise exception 'a payment never changes but to be reversed once' using errcode = '42501';
    end if;
  end if;
  return new;
end;
$$;

create or replace trigger invoices_frozen_trg before update or delete on invoices
  for each row execute function invoices_frozen();
create or replace trigger invoice_lines_frozen_trg before update or delete on invoice_lines
  for each row execute function invoices_frozen();
create or replace trigger invoice_payments_frozen_trg before update or delete on invoice_payments
  for each row execute function invoices_frozen();
