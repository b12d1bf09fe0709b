-- Monthly spend caps and automatic top-ups.
--
-- A cap holds what may be charged in one calendar month (UTC) of the events' occurrence:
-- per API key (over every organization it reports for), per activation (an organization's
-- agent type), and per child organization, set by its parent, over the child's whole
-- subtree. usage_record refuses an event whose charge would take a month past a cap.
alter table api_keys add column monthly_cap numeric(16, 2) check (monthly_cap >= 0);
alter table agent_activations add column monthly_cap numeric(16, 2) check (monthly_cap >= 0);
alter table organization_billing_settings add column spend_cap numeric(16, 2) check (spend_cap >= 0);

-- What was charged per month against each cap, read under its row lock by usage_record.
-- A key's months are kept always (nothing else sums a key's usage); an activation's and a
-- subtree's only while a cap is set, each started from the day totals the first time a
-- batch needs it and deleted when the cap changes. `alerted` is the highest alert sent for
-- the month (0, 80 or 100 % of the cap).
create table spend_cap_months (
  scope text not null check (scope in ('key', 'activation', 'subtree')),
  scope_id uuid not null,
  month date not null check (extract(day from month) = 1),
  charged numeric(16, 2) not null default 0 check (charged >= 0),
  alerted smallint not null default 0 check (alerted in (0, 80, 100)),
  primary key (scope, scope_id, month)
);

insert into spend_cap_months (scope, scope_id, month, charged)
select 'key', api_key_id, date_trunc('month', occurred_at at time zone 'UTC')::date, sum(charged)
from usage_events
where api_key_id is not null
  and occurred_at >= (date_trunc('month', now() at time zone 'UTC') - interval '1 month') at time zone 'UTC'
group by 1, 2, 3
order by 1, 2, 3;

-- Automatic top-up of a child, set by its parent's admins: when the child's balance falls
-- below top_up_below, move top_up_amount from the parent, at most top_up_monthly_max in a
-- calendar month (UTC). All three or none.
alter table organization_billing_settings
  add column top_up_below numeric(16, 2) check (top_up_below >= 0),
  add column top_up_amount numeric(16, 2) check (top_up_amount > 0),
  add column top_up_monthly_max numeric(16, 2) check (top_up_monthly_max > 0),
  add constraint organization_billing_settings_top_up_check check (
    (top_up_below is null) = (top_up_amount is null) and (top_up_amount is null) = (top_up_monthly_max is null)
    and (top_up_amount is null or top_up_amount <= top_up_monthly_max)
  );

-- A top-up to make: queued where a balance crosses below its top-up line, or where usage was
-- refused for want of credits; at most one pending per organization. A background runner
-- takes each (several processes share them, skipping rows another holds) and, in one
-- transaction, allocates or refuses and marks it done: once per crossing.
create table top_up_requests (
  id bigint generated always as identity primary key,
  organization_id uuid not null references organizations (id),
  reason text not null check (reason in ('crossed', 'refused')),
  created_at timestamptz not null default now(),
  done_at timestamptz,
  outcome text check (outcome in ('topped_up', 'parent_short', 'monthly_max', 'not_needed', 'no_rule', 'not_active')),
  transaction_group uuid,
  check ((done_at is null) = (outcome is null))
);
create unique index top_up_requests_pending_idx on top_up_requests (organization_id) where done_at is null;
create index top_up_requests_org_idx on top_up_requests (organization_id, created_at desc);

-- Alerts to admins: a cap at 80 % and at 100 % (to the admins of the organization the cap is
-- on), and a top-up refused (to the parent's admins). `detail` says which cap or child.
alter table balance_alerts drop constraint balance_alerts_kind_check;
alter table balance_alerts add constraint balance_alerts_kind_check
  check (kind in ('low_balance', 'insufficient_credits', 'cap_warning', 'cap_reached', 'top_up_failed'));
alter table balance_alerts add column detail jsonb not null default '{}';
