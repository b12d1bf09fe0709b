-- Four migrations were edited after they had been applied in some databases (0001, 0004,
-- 0011 and 0016), so a database migrated before an edit kept the earlier text. This brings
-- every database to the schema the files describe now; on one migrated from today's files it
-- changes nothing. The functions those edits touched (organization_ancestors,
-- organization_subtree_counts_apply, usage_record) are rules now, applied from their files.

-- 0001: the organization's shape rule became one CHECK that no NULL can pass; it first was two.
do $$
begin
  if exists (select 1 from pg_constraint where conrelid = 'organizations'::regclass and conname = 'organizations_check1') then
    alter table organizations drop constraint organizations_check1;
    alter table organizations drop constraint organizations_check;
    alter table organizations add constraint organizations_check check (
      (org_type = 'house' and parent_org_id is null and parent_org_type is null)
      or (
        org_type <> 'house'
        and parent_org_id is not null
        and parent_org_type is not distinct from (
          case org_type when 'super_agency' then 'house' when 'agency' then 'super_agency' when 'tenant' then 'agency' end
        )
      )
    );
  end if;
end;
$$;

-- 0001: the path index became partial (live organizations only) and no longer unique; the
-- name index was added.
do $$
begin
  if exists (select 1 from pg_indexes where indexname = 'organizations_path_idx' and indexdef not like '%WHERE%') then
    drop index organizations_path_idx;
    create index organizations_path_idx on organizations (path) where deleted_at is null;
  end if;
end;
$$;
create index if not exists organizations_name_idx on organizations (name, id) where deleted_at is null;

-- 0016: the users list's first-name index was added.
create index if not exists users_org_first_name_idx on users (organization_id, first_name, id) where deleted_at is null;
