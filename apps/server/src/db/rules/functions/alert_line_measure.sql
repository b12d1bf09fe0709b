-- alert_line_measure: records what an alert line's value is now (p_value: credits, percent or
-- days; null when there is nothing to measure) and whether that is past its bound
-- (p_crossed), the caller holding the line's row lock (the balance trigger under the
-- balance's lock, the background pass with `for update skip locked`), so a crossing is seen
-- once. A crossing queues one alert for the admins, unless the line alerted within the hour;
-- coming back re-arms the line. The threshold's line queues a 'low_balance' alert as the
-- threshold always did, every other line an 'alert_line' one; both state the bound.
-- Answers whether an alert was queued.
create or replace function alert_line_measure(p_line uuid, p_value numeric, p_crossed boolean)
returns boolean language plpgsql as $$
declare
  l alert_lines;
  v_alert boolean := false;
begin
  select * into l from alert_lines where id = p_line;
  if not found then
    return false;
  end if;
  if p_crossed and not l.crossed then
    v_alert := not exists (
      select 1 from balance_alerts a
      where a.organization_id = l.organization_id
        and a.kind = case when l.low_balance_threshold then 'low_balance' else 'alert_line' end
        and a.created_at > now() - interval '1 hour'
        and (l.low_balance_threshold or a.detail ->> 'line_id' = l.id::text)
    );
    if v_alert then
      insert into balance_alerts (organization_id, kind, balance, threshold, detail)
      values (l.organization_id, case when l.low_balance_threshold then 'low_balance' else 'alert_line' end,
        coalesce(p_value, 0), l.bound,
        jsonb_build_object('line_id', l.id, 'line_kind', l.kind, 'window', l.cap_window));
    end if;
  end if;
  update alert_lines
  set crossed = p_crossed,
      value = p_value,
      crossed_at = case when not p_crossed then null when l.crossed then l.crossed_at else now() end,
      checked_at = now()
  where id = p_line;
  return v_alert;
end;
$$;
