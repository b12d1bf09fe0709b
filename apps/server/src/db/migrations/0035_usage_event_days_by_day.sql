-- The agent usage by day, so a parent's dashboard sums its whole subtree's usage by agent of
-- the last 30 days from the rows of those days (one an organization, day and agent type that
-- had any) rather than probing every organization of the subtree by its key. As for
-- credit_usage_days, the day of a row never changes, so adding to it stays an in-place update.
create index usage_event_days_day_idx on usage_event_days (day, organization_id);
