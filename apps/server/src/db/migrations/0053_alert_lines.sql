-- Alert lines: any number per organization, each watching one value against its bound:
--   balance      the credit balance, crossed when it is below the bound (credits);
--   cap_percent  the organization's subtree spend cap in its current window (cap_window),
--                crossed when what the window charged is at or above the bound (percent);
--   runway_days  the days the balance lasts at the dashboard's forecast rate, crossed when
--                fewer than the bound (days).
-- A line alerts when its value crosses the bound (crossed goes false -> true) and re-arms
-- when the value comes back (true -> false); at most one alert an hour per line (as the
-- low-balance threshold had), so a value hovering at its bound mails nobody at every cent. Balance lines
-- are seen by the trigger on the balance, in the changing transaction; the other kinds by a
-- background pass that takes lines with `for update skip locked` (checked_at).
--
-- The organization's low-balance threshold becomes its line marked low_balance_threshold:
-- the column stays (the API's field, the organization list's low-balance filter and the
-- balance.recovered event read it) and a trigger keeps that line at the column's value; a
-- threshold of 0 is no line (a balance is never below 0).
create table alert_lines (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null references organizations (id),
  kind text not null check (kind in ('balance', 'cap_percent', 'runway_days')),
  bound numeric(16, 2) not null check (bound >= 0),
  cap_window text check (cap_window in ('day', 'week', 'month')),
  low_balance_threshold boolean not null default false,
  crossed boolean not null default false,
  -- The value last seen: credits, percent or days; null when unmeasured (no cap, no usage).
  value numeric(16, 2),
  crossed_at timestamptz,
  checked_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check ((kind = 'cap_percent') = (cap_window is not null)),
  check (kind <> 'cap_percent' or (bound between 1 and 100 and bound = trunc(bound))),
  check (kind <> 'runway_days' or (bound between 1 and 365 and bound = trunc(bound))),
  check (not low_balance_threshold or kind = 'balance')
);
create unique index alert_lines_threshold_idx on alert_lines (organization_id) where low_balance_threshold;
create index alert_lines_org_idx on alert_lines (organization_id, kind);
-- The lines the background pass measures, least recently measured first.
create index alert_lines_due_idx on alert_lines (checked_at nulls first) where kind <> 'balance';

-- Everyone's threshold becomes a line, crossed where the balance is below it now (it alerted
-- when it crossed, or was set above the balance, which alerts nobody), since the last
-- low-balance alert when there is one.
insert into alert_lines (organization_id, kind, bound, low_balance_threshold, crossed, value, crossed_at)
select b.organization_id, 'balance', b.low_balance_threshold, true, b.credit_balance < b.low_balance_threshold, b.credit_balance,
  case when b.credit_balance < b.low_balance_threshold then coalesce(last.at, now()) end
from organization_billing_settings b
left join lateral (
  select max(a.created_at) as at from balance_alerts a where a.organization_id = b.organization_id and a.kind = 'low_balance'
) last on true
where b.low_balance_threshold > 0
order by b.organization_id;

-- A crossed line of another kind than the threshold's queues an 'alert_line' alert; its
-- webhook event is alert.crossed. Both lists are extended from what they hold now, so the
-- kinds and types other migrations add stay.
do $$
declare
  v_values text[];
begin
  select array(
    select m[1] from pg_constraint c, regexp_matches(pg_get_constraintdef(c.oid), '''([^'']+)''', 'g') as m
    where c.conrelid = 'balance_alerts'::regclass and c.conname = 'balance_alerts_kind_check')
  into v_values;
  alter table balance_alerts drop constraint balance_alerts_kind_check;
  execute format('alter table balance_alerts add constraint balance_alerts_kind_check check (kind in (%s))',
    (select string_agg(quote_literal(v), ', ') from unnest(v_values || array['alert_line']) v));

  select array(
    select m[1] from pg_constraint c, regexp_matches(pg_get_constraintdef(c.oid), '''([^'']+)''', 'g') as m
    where c.conrelid = 'webhook_events'::regclass and c.conname = 'webhook_events_type_check')
  into v_values;
  alter table webhook_events drop constraint webhook_events_type_check;
  execute format('alter table webhook_events add constraint webhook_events_type_check check (type in (%s))',
    (select string_agg(quote_literal(v), ', ') from unnest(v_values || array['alert.crossed']) v));
end;
$$;
