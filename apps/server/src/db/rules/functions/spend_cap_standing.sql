-- spend_cap_standing: the caps on an organization's own subtree (set by its parent's admins)
-- as they stand at p_at, one row per window kind it has a cap on: the cap, what its window
-- holding p_at has charged (its locked row while one is kept, else recounted from the day
-- totals), the window's first day and when it resets. Alerts on a percent of a cap read it.
create or replace function spend_cap_standing(p_org uuid, p_at timestamptz)
returns table (kind text, cap numeric, charged numeric, window_start date, resets_at timestamptz)
language sql stable as $$
  select w.kind, w.cap, spend_cap_charged('subtree', p_org, w.kind, cap_window_start(w.kind, p_at)),
         cap_window_start(w.kind, p_at),
         cap_window_end(w.kind, cap_window_start(w.kind, p_at))::timestamp at time zone 'UTC'
  from organization_billing_settings b
  cross join lateral (
    values (1, 'day', b.daily_spend_cap), (2, 'week', b.weekly_spend_cap), (3, 'month', b.spend_cap)
  ) as w(n, kind, cap)
  where b.organization_id = p_org and w.cap is not null
  order by w.n
$$;
