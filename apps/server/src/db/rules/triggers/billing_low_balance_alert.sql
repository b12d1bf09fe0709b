-- The crossing is seen where the balance changes, whatever moved it (allocation,
-- adjustment, usage), in the same transaction.
create or replace function billing_low_balance_alert() returns trigger language plpgsql as $$
begin
  if old.credit_balance >= old.low_balance_threshold and new.credit_balance < new.low_balance_threshold then
    insert into balance_alerts (organization_id, kind, balance, threshold)
    values (new.organization_id, 'low_balance', new.credit_balance, new.low_balance_threshold);
  end if;
  return null;
end;
$$;

create or replace trigger billing_low_balance_trg after update of credit_balance on organization_billing_settings
  for each row execute function billing_low_balance_alert();
