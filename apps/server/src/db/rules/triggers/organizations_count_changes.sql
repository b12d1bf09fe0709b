-- Statement-level: a bulk insert of many organizations applies its counts in one pass.
create or replace function organizations_count_changes() returns trigger language plpgsql as $$
begin
  if tg_op = 'INSERT' then
    perform organization_subtree_counts_apply(array(
      select row(path, created_at, status, org_type, 1)::organization_change from new_rows where deleted_at is null));
  elsif tg_op = 'UPDATE' then
    perform organization_subtree_counts_apply(array(
      select row(path, created_at, status, org_type, 1)::organization_change from new_rows where deleted_at is null
      union all
      select row(path, created_at, status, org_type, -1)::organization_change from old_rows where deleted_at is null));
  else
    perform organization_subtree_counts_apply(array(
      select row(path, created_at, status, org_type, -1)::organization_change from old_rows where deleted_at is null));
  end if;
  return null;
end;
$$;

create or replace trigger organizations_count_insert after insert on organizations
  referencing new table as new_rows for each statement execute function organizations_count_changes();

create or replace trigger organizations_count_update after update on organizations
  referencing old table as old_rows new table as new_rows for each statement execute function organizations_count_changes();

create or replace trigger organizations_count_delete after delete on organizations
  referencing old table as old_rows for each statement execute function organizations_count_changes();
