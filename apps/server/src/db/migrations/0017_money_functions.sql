-- Allocations and adjustments as one function call each, run by the server as a single
-- statement outside any explicit transaction: one round trip to the database, and the
-- statement is the transaction (a refusal raised anywhere undoes everything it wrote).
--
-- A refusal is raised with SQLSTATE CR001, the reason as the message (not_found,
-- not_own_source, not_direct_child, organization_not_active, insufficient_credits,
-- balance_limit, idempotency_conflict) and, for insufficient_credits, the balance as the
-- detail; the server turns each into its HTTP answer. Any other error is a failure.

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
-- 5. Both balance rows locked in id order, as every movement and every agent-limit change
--    locks them, so no two wait on each other in a cycle.
-- 6. Under the locks: either organization deleted is not_found, not active is
--    organization_not_active; the sender's balance short is insufficient_credits, the
--    receiver's beyond 99,999,999,999,999.99 is balance_limit.
-- 7. Both balances, the two ledger entries (sent first) and the key's answer.
create function credits_allocate(
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
  p_request_id text
) returns jsonb
language plpgsql as $$
declare
  v_amount constant numeric := p_amount::numeric;
  v_group constant uuid := gen_random_uuid();
  v_earlier record;
  v_child record;
  v_from record;
  v_to record;
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

  select o.id, o.parent_org_id, o.status into v_child from organizations o
  where o.id = p_to and o.deleted_at is null and starts_with(o.path, p_reach);
  if not found then
    raise exception using errcode = 'CR001', message = 'not_found';
  end if;
  if v_child.parent_org_id is distinct from p_org or v_child.status <> 'active' then
    raise exception using errcode = 'CR001', message = 'not_direct_child';
  end if;

  insert into audit_log (actor_user_id, organization_id, action, target_type, target_id, details, ip, request_id)
  values (p_user, p_org, 'credits.allocate', 'organization', p_to::text,
          jsonb_build_object('amount', p_amount, 'transaction_group', v_group, 'notes', p_notes), p_ip, p_request_id);

  perform 1 from organization_billing_settings b
  where b.organization_id in (p_org, p_to)
  order by b.organization_id
  for update of b;

  select o.deleted_at is null as live, o.status = 'active' as active, o.name, b.credit_balance into v_from
  from organizations o join organization_billing_settings b on b.organization_id = o.id where o.id = p_org;
  select o.deleted_at is null as live, o.status = 'active' as active, o.name, b.credit_balance into v_to
  from organizations o join organization_billing_settings b on b.organization_id = o.id where o.id = p_to;
  if v_from.live is not true or v_to.live is not true then
    raise exception using errcode = 'CR001', message = 'not_found';
  end if;
  if not (v_from.active and v_to.active) then
    raise exception using errcode = 'CR001', message = 'organization_not_active';
  end if;
  if v_from.credit_balance - v_amount < 0 then
    raise exception using errcode = 'CR001', message = 'insufficient_credits', detail = v_from.credit_balance::text;
  end if;
  if v_to.credit_balance + v_amount > 99999999999999.99 then
    raise exception using errcode = 'CR001', message = 'balance_limit';
  end if;
  v_from_after := v_from.credit_balance - v_amount;
  v_to_after := v_to.credit_balance + v_amount;

  update organization_billing_settings b
  set credit_balance = case when b.organization_id = p_org then v_from_after else v_to_after end, updated_at = now()
  where b.organization_id in (p_org, p_to);

  insert into credit_ledger_entries (organization_id, amount, entry_type, transaction_group, metadata, balance_after, created_by)
  values
    (p_org, -v_amount, 'allocation_sent', v_group,
     jsonb_build_object('notes', p_notes, 'allocated_by_user_id', p_user, 'to_org_id', p_to, 'to_org_name', v_to.name),
     v_from_after, p_user),
    (p_to, v_amount, 'allocation_received', v_group,
     jsonb_build_object('notes', p_notes, 'allocated_by_user_id', p_user, 'from_org_id', p_org, 'from_org_name', v_from.name),
     v_to_after, p_user);

  v_result := jsonb_build_object('transaction_id', v_group, 'from_balance', v_from_after::text, 'to_balance', v_to_after::text);
  if p_key is not null then
    update idempotency_keys set response = v_result where user_id = p_user and key = p_key;
  end if;
  return v_result;
end;
$$;

-- credits_adjust: credits entering (p_amount > 0) or leaving (p_amount < 0) the system through
-- one organization's balance (the server has decided that the caller may: a house admin, on
-- the own house), with the reason; answers the ledger entry. The balance row is locked first;
-- then a deleted organization is not_found, a balance that would go below zero is
-- insufficient_credits and one beyond the maximum balance_limit. The audit row records the
-- unsigned amount as the request gave it (p_shown).
create function credits_adjust(
  p_user uuid,
  p_org uuid,
  p_amount text,
  p_shown text,
  p_reason text,
  p_ip text,
  p_request_id text
) returns setof credit_ledger_entries
language plpgsql as $$
declare
  v_amount constant numeric := p_amount::numeric;
  v_increase constant boolean := v_amount > 0;
  v_org record;
  v_after numeric(16, 2);
  v_entry credit_ledger_entries;
begin
  perform 1 from organization_billing_settings b where b.organization_id = p_org for update of b;
  select o.deleted_at is null as live, b.credit_balance into v_org
  from organizations o join organization_billing_settings b on b.organization_id = o.id where o.id = p_org;
  if v_org.live is not true then
    raise exception using errcode = 'CR001', message = 'not_found';
  end if;
  if v_org.credit_balance + v_amount < 0 then
    raise exception using errcode = 'CR001', message = 'insufficient_credits', detail = v_org.credit_balance::text;
  end if;
  if v_org.credit_balance + v_amount > 99999999999999.99 then
    raise exception using errcode = 'CR001', message = 'balance_limit';
  end if;
  v_after := v_org.credit_balance + v_amount;

  update organization_billing_settings b set credit_balance = v_after, updated_at = now() where b.organization_id = p_org;
  insert into credit_ledger_entries (organization_id, amount, entry_type, transaction_group, metadata, balance_after, created_by)
  values (p_org, v_amount, case when v_increase then 'adjustment_increase' else 'adjustment_decrease' end, gen_random_uuid(),
          jsonb_build_object('reason', p_reason, 'notes', p_reason), v_after, p_user)
  returning * into v_entry;

  insert into audit_log (actor_user_id, organization_id, action, target_type, target_id, details, ip, request_id)
  values (p_user, p_org, case when v_increase then 'credits.adjust_increase' else 'credits.adjust_decrease' end,
          'organization', p_org::text, jsonb_build_object('amount', p_shown, 'reason', p_reason), p_ip, p_request_id);
  return next v_entry;
end;
$$;
