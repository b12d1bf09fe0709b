-- usage_events_add_months(ahead): makes the month partitions of usage_events from this month
-- to `ahead` months on, where missing, and answers how many it made. The server calls it at
-- each start and once a day. A month whose events already went to the default partition (no
-- start for months) is left there: making its partition would have to move them under a lock.
create or replace function usage_events_add_months(p_ahead integer) returns integer
language plpgsql as $$
declare
  m date := date_trunc('month', now() at time zone 'UTC')::date;
  last constant date := (date_trunc('month', now() at time zone 'UTC') + make_interval(months => p_ahead))::date;
  made integer := 0;
  v_name text;
begin
  while m <= last loop
    v_name := 'usage_events_' || to_char(m, 'YYYY_MM');
    if to_regclass(v_name) is null and not exists (
      select 1 from usage_events_default
      where occurred_at >= (m::timestamp at time zone 'UTC') and occurred_at < ((m + interval '1 month')::timestamp at time zone 'UTC')
    ) then
      execute format('create table %I partition of usage_events for values from (%L) to (%L)',
        v_name, (m::timestamp at time zone 'UTC'), ((m + interval '1 month')::timestamp at time zone 'UTC'));
      made := made + 1;
    end if;
    m := (m + interval '1 month')::date;
  end loop;
  return made;
end;
$$;
