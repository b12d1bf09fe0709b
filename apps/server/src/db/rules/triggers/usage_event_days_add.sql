create or replace function usage_event_days_add() returns trigger language plpgsql as $$
begin
  insert into usage_event_days as d (organization_id, day, agent_type_id, events, units, charged)
  select organization_id, (occurred_at at time zone 'UTC')::date, agent_type_id, count(*), sum(units), sum(charged)
  from new_events
  group by 1, 2, 3
  order by 1, 2, 3
  on conflict (organization_id, day, agent_type_id)
  do update set events = d.events + excluded.events, units = d.units + excluded.units, charged = d.charged + excluded.charged;
  return null;
end;
$$;

create or replace trigger usage_event_days_trg after insert on usage_events
  referencing new table as new_events for each statement execute function usage_event_days_add();
