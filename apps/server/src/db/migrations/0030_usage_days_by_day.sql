-- The day totals of consumption and refunds by day, so a parent's dashboard sums its whole
-- subtree's usage of the last 60 days from the rows of those days (one an organization, day
-- and type that had any) instead of every day ever recorded. The day of a row never
-- changes, so adding to a total stays an in-place (HOT) update.
create index credit_usage_days_day_idx on credit_usage_days (day, organization_id);
