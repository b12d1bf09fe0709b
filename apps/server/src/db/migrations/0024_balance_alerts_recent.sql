-- An organization's latest alert of each kind, found at once: a low-balance alert is queued at
-- most once an hour per organization, whatever its admins do with the threshold.
create index balance_alerts_org_kind_time_idx on balance_alerts (organization_id, kind, created_at desc);
