-- usage_post_limits: what a batch leaves on the limits around the balances, written by
-- usage_post after the events:
-- 1. For an organization that lacked credits, an insufficient_credits alert, at most one an
--    hour; and, where it has an automatic top-up that can help, a request that the top-up
--    runner makes at once. A top-up can help when the balance (as the batch leaves it) is below
--    the line, or one top-up of the set amount lets the refused events through: a refusal a
--    top-up cannot cover, above the line, moves nothing (else a child could pull its parent's
--    credits with events it could never pay for). And not while the month's last request failed
--    for a reason that still holds: the monthly maximum leaves no room for the amount, or the
--    parent still lacks it (its admins were told once; each refused batch would tell them again).
-- 2. The caps' window rows as they stand now, and an alert at 80 % and at 100 % to the admins
--    of the organization the cap is on, once each a window; since a change of the cap starts
--    its window afresh, not again within the hour for the same cap, window and level.
-- 3. A key's windows (day, week, month) are kept without a cap too: what its accepted events
--    charged (a key has no day totals to recount them from).
create or replace function usage_post_limits(
  p_accepted usage_accepted[],
  p_caps usage_cap[],
  p_short_orgs uuid[],
  p_short_need numeric[],
  p_api_key uuid,
  p_now timestamptz
) returns void
language plpgsql as $$
declare
  h integer;
  v_level integer;
begin
  if cardinality(p_short_orgs) > 0 then
    with due as (
      update organization_billing_settings b set insufficient_alerted_at = p_now
      where b.organization_id = any(p_short_orgs)
        and (b.insufficient_alerted_at is null or b.insufficient_alerted_at <= p_now - interval '1 hour')
      returning b.organization_id, b.credit_balance, b.low_balance_threshold
    )
    insert into balance_alerts (organization_id, kind, balance, threshold)
    select due.organization_id, 'insufficient_credits', due.credit_balance, due.low_balance_threshold from due
    order by due.organization_id;

    insert into top_up_requests (organization_id, reason, balance, refused)
    select b.organization_id, 'refused', b.credit_balance, x.need
    from unnest(p_short_orgs, p_short_need) as x(org, need)
    join organization_billing_settings b on b.organization_id = x.org
    join organizations o on o.id = x.org
    left join organization_billing_settings pb on pb.organization_id = o.parent_org_id
    left join lateral (
      select q.outcome from top_up_requests q
      where q.organization_id = x.org and q.done_at is not null
        and q.created_at >= date_trunc('month', p_now at time zone 'UTC') at time zone 'UTC'
      order by q.created_at desc, q.id desc limit 1
    ) last on true
    where b.top_up_below is not null
      and (b.credit_balance < b.top_up_below or b.credit_balance + b.top_up_amount >= x.need)
      and not (last.outcome is not distinct from 'monthly_max'
               and top_up_month_total(x.org, p_now) + b.top_up_amount > b.top_up_monthly_max)
      and not (last.outcome is not distinct from 'parent_short' and pb.credit_balance < b.top_up_amount)
    order by 1
    on conflict (organization_id) where done_at is null do nothing;
  end if;

  for h in 1 .. coalesce(cardinality(p_caps), 0) loop
    v_level := case when p_caps[h].hit or p_caps[h].charged >= p_caps[h].cap then 100
                    when p_caps[h].charged >= 0.8 * p_caps[h].cap then 80 else 0 end;
    update spend_cap_months m set charged = p_caps[h].charged, alerted = greatest(m.alerted, v_level)
    where m.scope = p_caps[h].scope and m.scope_id = p_caps[h].scope_id and m.kind = p_caps[h].kind and m.month = p_caps[h].month;
    if v_level > p_caps[h].alerted and not exists (
      select 1 from balance_alerts a
      where a.organization_id = p_caps[h].organization_id and a.kind = case when v_level = 100 then 'cap_reached' else 'cap_warning' end
        and a.detail->>'scope_id' = p_caps[h].scope_id::text and a.detail->>'month' = to_char(p_caps[h].month, 'YYYY-MM')
        and coalesce(a.detail->>'window', 'month') = p_caps[h].kind
        and coalesce(a.detail->>'window_start', to_char(p_caps[h].month, 'YYYY-MM-DD')) = to_char(p_caps[h].month, 'YYYY-MM-DD')
        and a.created_at > p_now - interval '1 hour'
    ) then
      insert into balance_alerts (organization_id, kind, balance, threshold, detail)
      values (p_caps[h].organization_id, case when v_level = 100 then 'cap_reached' else 'cap_warning' end, p_caps[h].charged, p_caps[h].cap,
        jsonb_build_object('scope', p_caps[h].scope, 'scope_id', p_caps[h].scope_id, 'name', p_caps[h].name,
          'month', to_char(p_caps[h].month, 'YYYY-MM'), 'percent', v_level,
          'window', p_caps[h].kind, 'window_start', to_char(p_caps[h].month, 'YYYY-MM-DD')));
    end if;
  end loop;

  if p_api_key is not null and cardinality(p_accepted) > 0 then
    insert into spend_cap_months as s (scope, scope_id, kind, month, charged)
    select 'key', p_api_key, y.kind, y.month, sum(y.charged)
    from (
      select w.kind, cap_window_start(w.kind, a.occurred) as month, a.charged
      from unnest(p_accepted) a cross join (values ('day'), ('week'), ('month')) as w(kind)
    ) y
    where not exists (
      select 1 from unnest(p_caps) c where c.scope = 'key' and c.scope_id = p_api_key and c.kind = y.kind and c.month = y.month)
    group by y.kind, y.month
    having sum(y.charged) > 0
    order by y.kind, y.month
    on conflict (scope, scope_id, kind, month) do update set charged = s.charged + excluded.charged;
  end if;
end;
$$;
