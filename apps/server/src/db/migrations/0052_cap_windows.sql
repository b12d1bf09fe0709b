-- Caps on windows: a key's, an activation's and a subtree's cap may stand on a day, an ISO week
-- (Monday to Sunday) and a calendar month at once, each in UTC; every one an event counts
-- against is checked. The month caps keep their columns (current API clients set them); the
-- day and week caps sit beside them.
alter table api_keys
  add column daily_cap numeric(16, 2) check (daily_cap >= 0),
  add column weekly_cap numeric(16, 2) check (weekly_cap >= 0);
alter table agent_activations
  add column daily_cap numeric(16, 2) check (daily_cap >= 0),
  add column weekly_cap numeric(16, 2) check (weekly_cap >= 0),
  -- Who last set the activation's caps: its organization's admins or its parent's. A refusal
  -- names them; null (caps set before this was kept) reads as the organization itself.
  add column caps_set_by uuid references organizations (id);
alter table organization_billing_settings
  add column daily_spend_cap numeric(16, 2) check (daily_spend_cap >= 0),
  add column weekly_spend_cap numeric(16, 2) check (weekly_spend_cap >= 0);

-- The counted windows: spend_cap_months keeps a row per cap and window, its `month` now the
-- window's first day. Rows stay locked in key order (scope, scope_id, kind, month).
alter table spend_cap_months add column kind text not null default 'month' check (kind in ('day', 'week', 'month'));
alter table spend_cap_months drop constraint spend_cap_months_month_check;
alter table spend_cap_months add constraint spend_cap_months_window_start check (
  case kind when 'month' then extract(day from month) = 1 when 'week' then extract(isodow from month) = 1 else true end);
alter table spend_cap_months drop constraint spend_cap_months_pkey;
alter table spend_cap_months add primary key (scope, scope_id, kind, month);

-- A key's usage has no day totals of its own, so its windows are kept from its events on, with
-- or without a cap: this week's and today's are counted once here from its events.
insert into spend_cap_months (scope, scope_id, kind, month, charged)
select 'key', x.api_key_id, x.kind, x.start, sum(x.charged)
from (
  select e.api_key_id, w.kind, w.start, e.charged
  from usage_events e
  cross join lateral (
    values ('week', date_trunc('week', e.occurred_at at time zone 'UTC')::date),
           ('day', (e.occurred_at at time zone 'UTC')::date)
  ) as w(kind, start)
  where e.api_key_id is not null
    and e.occurred_at >= date_trunc('week', now() at time zone 'UTC') at time zone 'UTC'
) x
where x.start >= case x.kind when 'day' then (now() at time zone 'UTC')::date else date_trunc('week', now() at time zone 'UTC')::date end
group by 1, 2, 3, 4
having sum(x.charged) > 0
order by 1, 2, 3, 4;

-- A cap now names its window (`kind`; `month` is the window's first day), whether the
-- reporter may see the organization it is on (`visible`), and who set it (`set_by`, with
-- `set_by_name`; both null where the reporter may not see that organization). Attributes are
-- added in place: the rule files that build the type are reapplied with them.
alter type usage_cap
  add attribute kind text,
  add attribute visible boolean,
  add attribute set_by uuid,
  add attribute set_by_name text;
