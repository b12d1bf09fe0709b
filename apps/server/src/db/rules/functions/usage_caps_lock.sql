-- usage_caps_lock: the caps a batch's events are counted against (usage_batch_facts), each
-- once per window (its kind and first day), in key order (scope, id, kind, first day), with
-- its window row made where missing (recounted from the day totals) and locked. usage_record
-- calls it after locking the balances, so batches under one cap take it in turn and never
-- pass it. `charged` and `alerted` are the window row's.
create or replace function usage_caps_lock(p_facts usage_fact[]) returns usage_cap[]
language plpgsql as $$
declare
  v_caps usage_cap[];
  h integer;
  v_charged numeric;
  v_alerted integer;
begin
  v_caps := array(
    select row(c.scope, c.scope_id, c.month, c.cap, c.organization_id, c.name, null, null, false,
               c.kind, c.visible, c.set_by, c.set_by_name)::usage_cap
    from (
      select distinct on (c.scope, c.scope_id, c.kind, c.month) c.*
      from unnest(p_facts) f cross join unnest(f.caps) c
      where f.reachable
      order by c.scope, c.scope_id, c.kind, c.month
    ) c
    order by c.scope, c.scope_id, c.kind, c.month);
  for h in 1 .. cardinality(v_caps) loop
    insert into spend_cap_months (scope, scope_id, kind, month, charged)
    values (v_caps[h].scope, v_caps[h].scope_id, v_caps[h].kind, v_caps[h].month,
            spend_cap_recount(v_caps[h].scope, v_caps[h].scope_id, v_caps[h].kind, v_caps[h].month))
    on conflict do nothing;
    select m.charged, m.alerted into v_charged, v_alerted
    from spend_cap_months m
    where m.scope = v_caps[h].scope and m.scope_id = v_caps[h].scope_id and m.kind = v_caps[h].kind and m.month = v_caps[h].month
    for update;
    v_caps[h].charged := v_charged;
    v_caps[h].alerted := v_alerted;
  end loop;
  return v_caps;
end;
$$;
