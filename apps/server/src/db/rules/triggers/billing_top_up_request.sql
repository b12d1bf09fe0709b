-- A balance that crosses below its automatic top-up line queues one top-up request (at most
-- one pending per organization), whatever moved it; the top-up runner makes it. The request
-- keeps the balance it crossed to, which the parent sees on the child's spend controls.
create or replace function billing_top_up_request() returns trigger language plpgsql as $$
begin
  if new.top_up_below is not null and old.credit_balance >= new.top_up_below and new.credit_balance < new.top_up_below then
    insert into top_up_requests (organization_id, reason, balance) values (new.organization_id, 'crossed', new.credit_balance)
    on conflict (organization_id) where done_at is null do nothing;
  end if;
  return null;
end;
$$;

create or replace trigger billing_top_up_request_trg after update of credit_balance on organization_billing_settings
  for each row execute function billing_top_up_request();
