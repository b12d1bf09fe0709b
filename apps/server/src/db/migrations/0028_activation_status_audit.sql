-- Reported status changes of an activation reach the audit log at most once an hour, and a
-- change into error whenever the last audited one was not: when the last row was written,
-- the status it reported, and the changes reported since that wrote none.
alter table agent_activations add column status_audited_at timestamptz;
alter table agent_activations add column status_audited text check (status_audited in ('active', 'inactive', 'error'));
alter table agent_activations add column status_changes_unaudited integer not null default 0 check (status_changes_unaudited >= 0);
