-- Alerts the database queues for people reach webhooks too, from the same row: a balance
-- below its threshold (at most one an hour per organization), a monthly cap reached (once a
-- month per cap), an automatic top-up of a child that could not be made (an event of
-- the child), and an alert line crossed (alert.crossed with its bound; the threshold's line
-- sends balance.low as it always did, and alert.crossed beside it).
create or replace function webhook_events_from_alerts() returns trigger language plpgsql as $$
declare
  d jsonb := coalesce(new.detail, '{}'::jsonb);
begin
  if new.kind = 'low_balance' then
    insert into webhook_events (type, organization_id, data)
    values ('balance.low', new.organization_id,
      jsonb_build_object('balance', new.balance::numeric(16, 2)::text, 'threshold', new.threshold::numeric(16, 2)::text));
  end if;
  if new.kind in ('low_balance', 'alert_line') and d ? 'line_id' then
    insert into webhook_events (type, organization_id, data)
    values ('alert.crossed', new.organization_id,
      jsonb_build_object('line_id', d ->> 'line_id', 'kind', d ->> 'line_kind', 'bound', new.threshold::numeric(16, 2)::text,
        'value', new.balance::numeric(16, 2)::text, 'window', d -> 'window'));
  elsif new.kind = 'cap_reached' then
    insert into webhook_events (type, organization_id, data)
    values ('spend_cap.reached', new.organization_id,
      jsonb_build_object('scope', d ->> 'scope', 'name', d ->> 'name', 'cap', new.threshold::numeric(16, 2)::text,
        'charged', new.balance::numeric(16, 2)::text, 'month', d ->> 'month',
        -- The cap's window and its first day (alerts from before windows: the month).
        'window', coalesce(d ->> 'window', 'month'), 'window_start', coalesce(d ->> 'window_start', (d ->> 'month') || '-01')));
  elsif new.kind = 'top_up_failed' then
    insert into webhook_events (type, organization_id, data)
    select 'top_up.failed', (d ->> 'child_id')::uuid,
      jsonb_build_object('amount', new.threshold::numeric(16, 2)::text,
        'from_organization', jsonb_build_object('id', p.id, 'name', p.name), 'reason', d ->> 'reason')
    from organizations p where p.id = new.organization_id;
  end if;
  return null;
end;
$$;

create or replace trigger webhook_events_from_alerts_trg after insert on balance_alerts
  for each row
  when (new.kind in ('low_balance', 'cap_reached', 'top_up_failed', 'alert_line'))
  execute function webhook_events_from_alerts();
