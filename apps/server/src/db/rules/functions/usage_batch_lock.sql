-- usage_batch_lock: what usage_record locks before it reads anything, answering the sellers
-- above the batch's organizations (within reach p_reach) that keep a price book (book prices
-- or child prices).
-- The price books of those sellers (every ancestor but the house) are held with a shared
-- advisory lock, which a price change takes exclusively: a change waits for the batches reading
-- the book it replaces and takes effect after them. Then the balance rows of the organizations
-- and of the sellers that keep a book (who may earn) are locked in id order
-- (credit_balances_lock, as every movement of credits locks them), so an organization's events
-- are taken by one batch at a time and everything read afterwards is the state as it stands.
create or replace function usage_batch_lock(p_events jsonb, p_reach text) returns uuid[]
language plpgsql as $$
declare
  v_payers uuid[];
  -- Every seller above the batch's organizations, once, in id order, so that concurrent
  -- batches take the book keys in one order.
  v_above uuid[];
  v_sellers uuid[];
begin
  v_payers := array(
    select o.id from organizations o
    where o.id in (select (x->>'org')::uuid from jsonb_array_elements(p_events) x) and starts_with(o.path, p_reach));
  v_above := array(
    select distinct a.id from organizations o, unnest((organization_ancestors(o.path))[2:]) as a(id)
    where o.id = any(v_payers) order by a.id);
  perform pg_advisory_xact_lock_shared(lock_class('book'), hashtext(s.id::text)) from unnest(v_above) with ordinality as s(id, n) order by s.n;
  v_sellers := array(
    select s.id from unnest(v_above) as s(id)
    where exists (select 1 from organization_prices p where p.organization_id = s.id)
       or exists (select 1 from organization_child_prices p where p.organization_id = s.id));
  perform credit_balances_lock(v_payers || v_sellers);
  return v_sellers;
end;
$$;
