-- Live descendants of every organization, counted by the UTC day they were created, their
-- status and their type. The dashboard reads a house's counts and growth from a few
-- thousand of these rows instead of scanning a subtree of a million organizations.
-- Triggers keep it exact in the same transaction as the change; `npm run db:reconcile`
-- checks it against the organizations themselves.
create table organization_subtree_counts (
  ancestor_id uuid not null references organizations (id),
  created_day date not null,
  status text not null,
  org_type text not null,
  n integer not null check (n >= 0),
  primary key (ancestor_id, created_day, status, org_type)
);

-- One organization entering (+1) or leaving (-1) the live set, and the net change of one
-- counts row.
create type organization_change as (path text, created_at timestamptz, status text, org_type text, delta integer);
create type organization_count_delta as (ancestor_id uuid, created_day date, status text, org_type text, delta integer);

-- Applies changes to the counts of every ancestor above each changed organization.
create function organization_subtree_counts_apply(changes organization_change[]) returns void language plpgsql as $$
declare
  deltas organization_count_delta[];
begin
  select array_agg(row(d.ancestor_id, d.created_day, d.status, d.org_type, d.delta)::organization_count_delta
                   order by d.ancestor_id, d.created_day, d.status, d.org_type)
  into deltas
  from (
    select a.ancestor::uuid as ancestor_id, (c.created_at at time zone 'UTC')::date as created_day,
           c.status, c.org_type, sum(c.delta)::int as delta
    from unnest(changes) c
    -- '/<root>/.../<parent>/<self>/': every element but the last is an ancestor.
    cross join lateral (select string_to_array(trim(both '/' from c.path), '/') as ids) p
    cross join lateral unnest(p.ids[1:cardinality(p.ids) - 1]) a(ancestor)
    group by 1, 2, 3, 4
    having sum(c.delta) <> 0
  ) d;
  -- A rename or any other change that moves no count writes nothing.
  if deltas is null then
    return;
  end if;
  -- Rows are created, then locked, in key order, so two changes under the same ancestors
  -- never wait for each other in opposite orders. A decrement needs its row locked before
  -- it is applied: an upsert would check n >= 0 on the proposed row, not the sum.
  insert into organization_subtree_counts (ancestor_id, created_day, status, org_type, n)
  select d.ancestor_id, d.created_day, d.status, d.org_type, 0 from unnest(deltas) d
  on conflict do nothing;
  perform 1 from organization_subtree_counts s
  join unnest(deltas) d using (ancestor_id, created_day, status, org_type)
  order by s.ancestor_id, s.created_day, s.status, s.org_type
  for update of s;
  update organization_subtree_counts s set n = s.n + d.delta
  from unnest(deltas) d
  where (s.ancestor_id, s.created_day, s.status, s.org_type) = (d.ancestor_id, d.created_day, d.status, d.org_type);
end;
$$;

-- Statement-level: a bulk insert of many organizations applies its counts in one pass.
create function organizations_count_changes() returns trigger language plpgsql as $$
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

create trigger organizations_count_insert after insert on organizations
  referencing new table as new_rows for each statement execute function organizations_count_changes();
create trigger organizations_count_update after update on organizations
  referencing old table as old_rows new table as new_rows for each statement execute function organizations_count_changes();
create trigger organizations_count_delete after delete on organizations
  referencing old table as old_rows for each statement execute function organizations_count_changes();

select organization_subtree_counts_apply(array(
  select row(path, created_at, status, org_type, 1)::organization_change from organizations where deleted_at is null));
