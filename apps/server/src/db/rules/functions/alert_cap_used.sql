-- alert_cap_used: the organization's subtree spend cap on the window kind p_kind ('day',
-- 'week' or 'month') as it stands now, with what that window has charged; no row without
-- such a cap. The one place percent-of-cap alert lines read caps from.
create or replace function alert_cap_used(p_org uuid, p_kind text)
returns table (cap numeric, charged numeric, window_start date, resets_at timestamptz)
language plpgsql stable as $$
begin
  return query
    select s.cap, s.charged, s.window_start, s.resets_at
    from spend_cap_standing(p_org, now()) s
    where s.kind = p_kind;
end;
$$;
