-- credit_grant_expire: a grant's expiry, once whatever runs it and however often. Answers
-- {amount, holder, returned_to} when it moved credits, else null (not due yet, already
-- expired, or nothing left, which it marks expired all the same).
-- 1. The organization the remainder returns to: the one that granted it, or, when that one
--    has been deleted, the nearest live organization above the holder (the holder itself at
--    the top). The house's own adjustments return to the house's open credits.
-- 2. Both balance rows locked in id order (credit_balances_lock), as every movement does;
--    then the grant read again: not due at p_at, or expired by another run, and nothing moves.
-- 3. ledger_post: `expiry` takes the remainder from the holder, drawn from this grant, and
--    `expiry_returned` gives it to the other as open credits; the grant is marked expired;
--    the holder's endpoints hear credits.expired.
create or replace function credit_grant_expire(p_grant uuid, p_at timestamptz) returns jsonb
language plpgsql as $$
declare
  g record;
  v_to uuid;
  v_to_name text;
  v_holder_name text;
begin
  select x.organization_id, x.granted_by into g from credit_grants x where x.id = p_grant;
  if not found then
    return null;
  end if;
  select o.id, o.name into v_to, v_to_name from organizations o where o.id = g.granted_by and o.deleted_at is null;
  if v_to is null then
    select a.id, a.name into v_to, v_to_name
    from organizations h
    cross join lateral unnest(organization_ancestors(h.path)) with ordinality as u(id, n)
    join organizations a on a.id = u.id and a.deleted_at is null
    where h.id = g.organization_id
    order by u.n desc limit 1;
  end if;
  if v_to is null then
    v_to := g.organization_id;
  end if;
  perform credit_balances_lock(array[g.organization_id, v_to]);

  select x.* into g from credit_grants x where x.id = p_grant;
  if g.expired_at is not null or g.expires_at is null or g.expires_at > p_at then
    return null;
  end if;
  update credit_grants set expired_at = p_at where id = p_grant;
  if g.remaining = 0 then
    return null;
  end if;
  select o.name into v_holder_name from organizations o where o.id = g.organization_id;
  select o.name into v_to_name from organizations o where o.id = v_to;
  perform ledger_post(gen_random_uuid(), null, false,
    array[g.organization_id, v_to], array[-g.remaining, g.remaining], array['expiry', 'expiry_returned'],
    array[
      jsonb_build_object('grant_id', p_grant, 'expires_at', g.expires_at, 'to_org_id', v_to, 'to_org_name', v_to_name),
      jsonb_build_object('grant_id', p_grant, 'expires_at', g.expires_at, 'from_org_id', g.organization_id, 'from_org_name', v_holder_name)
    ],
    p_draws => array[jsonb_build_object(p_grant::text, g.remaining::text), null]);
  insert into webhook_events (type, organization_id, data)
  values ('credits.expired', g.organization_id, jsonb_build_object('grant_id', p_grant, 'amount', g.remaining::numeric(16, 2)::text,
    'expires_at', to_char(g.expires_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'granted_by', jsonb_build_object('id', v_to, 'name', v_to_name)));
  return jsonb_build_object('amount', g.remaining::numeric(16, 2)::text, 'holder', g.organization_id, 'returned_to', v_to);
end;
$$;
