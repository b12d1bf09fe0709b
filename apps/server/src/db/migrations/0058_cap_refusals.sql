-- Events refused at an organization's own subtree caps (day, week or month, set by its parent's
-- admins), counted by the calendar month (UTC) of their occurrence, the month caps count by:
-- what its parent sees as "N events refused this month". usage_record adds a batch's refusals
-- in the same transaction, after the caps' window rows are locked, so concurrent batches of a
-- subtree add in turn. Refused events are not stored: one sent again and refused again counts
-- again. A change of a cap leaves these counts (they are the month's, not one cap's).
create table spend_cap_refusals (
  organization_id uuid not null references organizations (id) on delete cascade,
  month date not null check (extract(day from month) = 1),
  refused bigint not null check (refused > 0),
  primary key (organization_id, month)
);

-- The organizations with a subtree cap, the few the "Cap reached" filter of a list reads.
create index billing_capped_idx on organization_billing_settings (organization_id)
  where spend_cap is not null or daily_spend_cap is not null or weekly_spend_cap is not null;
