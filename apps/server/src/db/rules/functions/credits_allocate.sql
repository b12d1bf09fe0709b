-- credits_allocate: an allocation from the caller's organization (p_org, whose path is
-- p_reach) to one of its direct children, answered as { transaction_id, from_balance,
-- to_balance }.
-- 1. With an Idempotency-Key: expired keys are deleted (this user's same key, and a batch of
--    the oldest of anyone's, skipping rows others hold); the key is claimed, which waits
--    for a concurrent request holding it. A key already answered for the same request
--    (p_request_hash) returns that answer and writes nothing; for another request, or
--    one that never finished, idempotency_conflict.
-- 2. p_source_ok is the server's verdict on the source (the caller's own organization, with
--    the permission, not frozen): otherwise not_own_source, after the key as before.
-- 3. The target, read without a lock: absent, deleted or outside the caller's subtree is
--    not_found; not a direct child or not active is not_direct_child.
-- 4. The audit row, before the lock so the lock is held for less.
-- 5. The posting (ledger_post): both balance rows locked in id order; under the locks either
--    organization deleted is not_found, not active is organization_not_active, the sender's
--    balance short is insufficient_credits, the receiver's beyond the maximum balance_limit;
--    both balances and the two ledger entries (sent first).
--    Terms (p_terms: expires_at, agent_type_ids, priority; null for open credits) make the
--    child's credits a grant, granted by the caller's organization.
-- 6. The key's answer.
create or replace function credits_allocate(
  p_user uuid,
  p_org uuid,
  p_reach text,
  p_source_ok boolean,
  p_to uuid,
  p_amount text,
  p_notes text,
  p_key text,
  p_request_hash text,
  p_window interval,
  p_ip text,
  p_request_id text,
  p_terms jsonb
) returns jsonb
language plpgsql as $$
declare
  v_amount constant numeric := p_amount::numeric;
  v_group constant uuid := gen_random_uuid();
  v_earlier record;
  v_child record;
  v_from_name text;
  v_from_after numeric(16, 2);
  v_to_after numeric(16, 2);
  v_result jsonb;
begin
  if p_key is not null then
    delete from idempotency_keys
    where created_at < now() - p_window
      and ((user_id = p_user and key = p_key)
        or (user_id, key) in (
          select k.user_id, k.key from idempotency_keys k where k.created_at < now() - p_window
          order by k.created_at limit 100 for update skip locked));
    insert into idempotency_keys (user_id, key, request_hash) values (p_user, p_key, p_request_hash)
    on conflict do nothing;
    if not found then
      select k.request_hash, k.response into v_earlier from idempotency_keys k where k.user_id = p_user and k.key = p_key;
      if not found or v_earlier.request_hash <> p_request_hash or v_earlier.response is null then
        raise exception using errcode = 'CR001', message = 'idempotency_conflict';
      end if;
      return v_earlier.response;
    end if;
  end if;

  if not p_source_ok then
    raise exception using errcode = 'CR001', message = 'not_own_source';
  end if;

  select o.id, o.parent_org_id, o.status, o.name into v_child from organizations o
  where o.id = p_to and o.deleted_at is null and starts_with(o.path, p_reach);
  if not found then
    raise exception using errcode = 'CR001', message = 'not_found';
  end if;
  if v_child.parent_org_id is distinct from p_org or v_child.status <> 'active' then
    raise exception using errcode = 'CR001', message = 'not_direct_child';
  end if;
  select o.name into v_from_name from organizations o where o.id = p_org;

  insert into audit_log (actor_user_id, organization_id, action, target_type, target_id, details, ip, request_id)
  values (p_user, p_org, 'credits.allocate', 'organization', p_to::text,
          jsonb_build_object('amount', p_amount, 'transaction_group', v_group, 'notes', p_notes)
            || case when p_terms is not null then jsonb_build_object('terms', p_terms) else '{}' end, p_ip, p_request_id);

  select max(e.balance_after) filter (where e.organization_id = p_org),
         max(e.balance_after) filter (where e.organization_id = p_to)
    into v_from_after, v_to_after
  from ledger_post(v_group, p_user, true,
    array[p_org, p_to], array[-v_amount, v_amount], array['allocation_sent', 'allocation_received'],
    array[
      jsonb_build_object('notes', p_notes, 'allocated_by_user_id', p_user, 'to_org_id', p_to, 'to_org_name', v_child.name),
      jsonb_build_object('notes', p_notes, 'allocated_by_user_id', p_user, 'from_org_id', p_org, 'from_org_name', v_from_name)
    ], p_terms => array[null, p_terms || jsonb_build_object('granted_by', p_org)]) e;

  v_result := jsonb_build_object('transaction_id', v_group, 'from_balance', v_from_after::text, 'to_balance', v_to_after::text);
  if p_key is not null then
    update idempotency_keys set response = v_result where user_id = p_user and key = p_key;
  end if;
  return v_result;
end;
$$;
