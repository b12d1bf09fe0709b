-- Each event becomes one delivery per enabled endpoint that subscribes to its type: the
-- endpoints of the event's own organization, and those of its ancestors that asked for their
-- subtree. In the event's transaction, so a delivery exists exactly when its event does. A
-- test event is delivered to its one endpoint by the action that sends it. An invoice event
-- (`invoice.*`, the billed child's) goes to the billed child's endpoints and the seller's
-- (`data.seller.id`) only: an invoice is theirs alone, so organizations above the seller never
-- receive it, whatever subtree they asked for.
create or replace function webhook_events_deliver() returns trigger language plpgsql as $$
begin
  if new.type = 'webhook.test' then
    return null;
  end if;
  if starts_with(new.type, 'invoice.') then
    insert into webhook_deliveries (event_id, endpoint_id, next_attempt_at)
    select new.id, e.id, now()
    from webhook_endpoints e
    where e.organization_id in (new.organization_id, (new.data -> 'seller' ->> 'id')::uuid)
      and e.enabled and new.type = any(e.event_types);
    return null;
  end if;
  insert into webhook_deliveries (event_id, endpoint_id, next_attempt_at)
  select new.id, e.id, now()
  from organizations o
  join webhook_endpoints e
    on e.organization_id = o.id or (e.include_subtree and e.organization_id = any(organization_ancestors(o.path)))
  where o.id = new.organization_id and e.enabled and new.type = any(e.event_types);
  return null;
end;
$$;

create or replace trigger webhook_events_deliver_trg after insert on webhook_events
  for each row execute function webhook_events_deliver();
