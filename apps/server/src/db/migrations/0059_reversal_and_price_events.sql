-- New webhook event types: an allocation given back within its reversal window
-- (credits.reversed, an event of the child whose balance it lowers, from its reversal_sent
-- entry), and a price change told to the organizations whose own price it moves
-- (price.changed) and to the sellers it puts below their own price (price.floored), from the
-- price row. The event types' list is widened from the constraint as it stands.
do $$
declare
  v_values text[];
begin
  select array(
    select m[1] from pg_constraint c, regexp_matches(pg_get_constraintdef(c.oid), '''([^'']+)''', 'g') as m
    where c.conrelid = 'webhook_events'::regclass and c.conname = 'webhook_events_type_check')
  into v_values;
  alter table webhook_events drop constraint webhook_events_type_check;
  execute format('alter table webhook_events add constraint webhook_events_type_check check (type in (%s))',
    (select string_agg(quote_literal(v), ', ')
     from unnest(v_values || array['credits.reversed', 'price.changed', 'price.floored']) v));
end;
$$;
