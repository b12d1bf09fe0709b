-- The organization's balance alert lines, seen where the balance changes, whatever moved it
-- (allocation, adjustment, usage, expiry), in the same transaction and under the balance's
-- row lock: each line whose side of its bound the new balance changes is measured (a
-- crossing below queues one alert, at most one an hour per line; coming back re-arms it).
-- Lines on the same side read nothing more than the index.
create or replace function billing_low_balance_alert() returns trigger language plpgsql as $$
declare
  l record;
begin
  for l in
    select a.id, new.credit_balance < a.bound as below
    from alert_lines a
    where a.organization_id = new.organization_id and a.kind = 'balance'
      and a.crossed <> (new.credit_balance < a.bound)
    order by a.id
    for update
  loop
    perform alert_line_measure(l.id, new.credit_balance, l.below);
  end loop;
  return null;
end;
$$;

create or replace trigger billing_low_balance_trg after update of credit_balance on organization_billing_settings
  for each row
  when (new.credit_balance <> old.credit_balance)
  execute function billing_low_balance_alert();
