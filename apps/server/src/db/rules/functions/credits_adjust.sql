-- credits_adjust: credits entering (p_amount > 0) or leaving (p_amount < 0) the system through
-- one organization's balance (the server has decided that the caller may: a house admin, on
-- the own house), with the reason; answers the ledger entry. The posting (ledger_post) locks
-- the balance row, then a deleted organization is not_found, a balance that would go below
-- zero is insufficient_credits and one beyond the maximum balance_limit. The audit row records
-- the unsigned amount as the request gave it (p_shown). Terms (p_terms, an increase only)
-- make the credits a grant of the house's own: at its expiry what is left returns to the
-- house's open credits.
create or replace function credits_adjust(
  p_user uuid,
  p_org uuid,
  p_amount text,
  p_shown text,
  p_reason text,
  p_ip text,
  p_request_id text,
  p_terms jsonb
) returns setof credit_ledger_entries
language plpgsql as $$
declare
  v_amount constant numeric := p_amount::numeric;
  v_increase constant boolean := v_amount > 0;
  v_entry credit_ledger_entries;
begin
  select * into v_entry from ledger_post(gen_random_uuid(), p_user, false,
    array[p_org], array[v_amount], array[case when v_increase then 'adjustment_increase' else 'adjustment_decrease' end],
    array[jsonb_build_object('reason', p_reason, 'notes', p_reason)],
    p_terms => array[case when v_increase and p_terms is not null then p_terms || jsonb_build_object('granted_by', p_org) end]);

  insert into audit_log (actor_user_id, organization_id, action, target_type, target_id, details, ip, request_id)
  values (p_user, p_org, case when v_increase then 'credits.adjust_increase' else 'credits.adjust_decrease' end,
          'organization', p_org::text, jsonb_build_object('amount', p_shown, 'reason', p_reason)
            || case when p_terms is not null then jsonb_build_object('terms', p_terms) else '{}' end, p_ip, p_request_id);
  return next v_entry;
end;
$$;
