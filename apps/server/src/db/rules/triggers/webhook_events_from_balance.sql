-- A balance that climbs from below its low-balance threshold to at or above it: the pair of
-- balance.low, seen where the balance changes, whatever moved it.
create or replace function webhook_events_from_balance() returns trigger language plpgsql as $$
begin
  insert into webhook_events (type, organization_id, data)
  values ('balance.recovered', new.organization_id,
    jsonb_build_object('balance', new.credit_balance::numeric(16, 2)::text, 'threshold', new.low_balance_threshold::numeric(16, 2)::text));
  return null;
end;
$$;

create or replace trigger webhook_events_from_balance_trg after update of credit_balance on organization_billing_settings
  for each row
  when (old.credit_balance < old.low_balance_threshold and new.credit_balance >= new.low_balance_threshold)
  execute function webhook_events_from_balance();
