-- The crossing is seen where the balance changes, whatever moved it (allocation,
-- adjustment, usage), in the same transaction. At most one low-balance alert an hour per
-- organization: an admin who sets the threshold to the balance again and again would
-- otherwise mail every admin at each cent spent.
create or replace function billing_low_balance_alert() returns trigger language plpgsql as $$
begin
  if old.credit_balance >= old.low_balance_threshold and new.credit_balance < new.low_balance_threshold
     and not exists (
       select 1 from balance_alerts a
       where a.organization_id = new.organization_id and a.kind = 'low_balance' and a.created_at > now() - interval '1 hour'
     ) then
    insert into balance_alerts (organization_id, kind, balance, threshold)
    values (new.organization_id, 'low_balance', new.credit_balance, new.low_balance_threshold);
  end if;
  return null;
end;
$$;

create or replace trigger billing_low_balance_trg after update of credit_balance on organization_billing_settings
  for each row execute function billing_low_balance_alert();
