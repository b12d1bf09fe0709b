-- The activity log reads audit_log newest first, a page at a time, by (created_at, id).
-- An organization alone: its rows in that order, from the first index. A subtree: the rows
-- in that order from the second, kept when their organization's path lies under the
-- anchor's (organizations_path index). Both run unchanged on PostgreSQL 15 and on PGlite.
create index audit_log_org_created_idx on audit_log (organization_id, created_at desc, id desc);
create index audit_log_created_idx on audit_log (created_at desc, id desc);
-- The first index serves everything the old one did.
drop index audit_log_org_idx;
-- The activity log's actor filter.
create index audit_log_actor_idx on audit_log (actor_user_id, created_at desc, id desc) where actor_user_id is not null;
-- A subtree's history includes its deleted organizations': the path index without the
-- live-only condition finds them.
create index organizations_any_path_idx on organizations (path);
