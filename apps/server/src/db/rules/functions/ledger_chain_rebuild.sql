-- ledger_chain_rebuild: chains one organization's entries again, in seq order, as ledger_post
-- would have: each entry's prev_hash is the hash before it and its hash ledger_entry_hash over
-- that and its fields; the organization's ledger_head becomes the last hash. One pass, one
-- update per entry whose hashes differ and one of the balance row, so it is linear however
-- many entries there are.
--
-- For writers of books by hand only: a tool that generates a large ledger in SQL (inserting
-- with the chain's fill trigger off, since that trigger keeps the head row by row) and a test
-- that rewrites entries' dates. The ledger refuses updates: the caller lifts its guard
-- (credit_ledger_no_update) in its own transaction around this call.
create or replace function ledger_chain_rebuild(p_org uuid) returns bigint
language plpgsql as $$
declare
  e record;
  v_head bytea;
  v_hash bytea;
  v_n bigint := 0;
begin
  for e in
    select * from credit_ledger_entries where organization_id = p_org order by seq
  loop
    v_hash := ledger_entry_hash(v_head, e.id, e.organization_id, e.amount, e.entry_type, e.transaction_group, e.metadata,
                                e.balance_after, e.external_ref, e.refund_of, e.agent_type_id, e.units, e.created_by, e.created_at);
    if e.hash is distinct from v_hash or e.prev_hash is distinct from v_head then
      update credit_ledger_entries set prev_hash = v_head, hash = v_hash where id = e.id;
    end if;
    v_head := v_hash;
    v_n := v_n + 1;
  end loop;
  update organization_billing_settings set ledger_head = v_head where organization_id = p_org;
  return v_n;
end;
$$;
