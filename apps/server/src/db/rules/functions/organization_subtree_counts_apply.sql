-- Applies changes to the counts of every ancestor above each changed organization.
create or replace function organization_subtree_counts_apply(changes organization_change[]) returns void language plpgsql as $$
declare
  deltas organization_count_delta[];
begin
  select array_agg(row(d.ancestor_id, d.created_day, d.status, d.org_type, d.delta)::organization_count_delta
                   order by d.ancestor_id, d.created_day, d.status, d.org_type)
  into deltas
  from (
    select a.ancestor as ancestor_id, (c.created_at at time zone 'UTC')::date as created_day,
           c.status, c.org_type, sum(c.delta)::int as delta
    from unnest(changes) c
    cross join lateral unnest(organization_ancestors(c.path)) a(ancestor)
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
