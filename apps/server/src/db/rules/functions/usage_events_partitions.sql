-- usage_events_partitions(from, to): makes the month partitions of usage_events for every month
-- from the month of p_from to the month of p_to (UTC), where missing, and answers how many it
-- made. A month whose events already went to the default partition is left there: making its
-- partition would have to move them under a lock. The one place a month partition is made: the
-- server's start and daily maintenance (usage_events_add_months) and the growth bench call it.
-- (Migration 0025 made the first months with the same statement before this rule existed.)
create or replace function usage_events_partitions(p_from date, p_to date) returns integer
language plpgsql as $$
declare
  m date := date_trunc('month', p_from)::date;
  made integer := 0;
  v_name text;
begin
  while m <= date_trunc('month', p_to)::date loop
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
