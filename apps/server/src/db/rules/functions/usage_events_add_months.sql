-- usage_events_add_months(ahead): the month partitions of usage_events from this month to
-- `ahead` months on (usage_events_partitions). The server calls it at each start and once a day.
create or replace function usage_events_add_months(p_ahead integer) returns integer
language plpgsql as $$
begin
  return usage_events_partitions(
    (now() at time zone 'UTC')::date,
    ((now() at time zone 'UTC') + make_interval(months => p_ahead))::date);
end;
$$;
