-- The ancestors of an organization from its path '/<root>/.../<parent>/<self>/': every
-- element but the last. Also used by reconcile to recount from scratch.
create or replace function organization_ancestors(path text) returns uuid[] language sql immutable as $$
  select (ids[1:cardinality(ids) - 1])::uuid[] from (select string_to_array(trim(both '/' from path), '/') as ids) p
$$;
