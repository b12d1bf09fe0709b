-- Reading the stored usage events, in the console and on the machine API: an organization's
-- events newest occurrence first, with the row id breaking ties so a cursor names one place
-- (this index replaces the one on the organization and occurrence alone), and the events one
-- consumption entry of the ledger charged.
create index usage_events_org_time_id_idx on usage_events (organization_id, occurred_at desc, id desc);
drop index usage_events_org_time_idx;
create index usage_events_entry_idx on usage_events (ledger_entry_id) where ledger_entry_id is not null;

-- A key may hold usage:read, to list the events recorded within its reach.
alter table api_keys drop constraint api_keys_scopes_check;
alter table api_keys add constraint api_keys_scopes_check check (
  cardinality(scopes) > 0 and scopes <@ array['usage:write', 'agents:report', 'entitlements:read', 'usage:read']::text[]
);
