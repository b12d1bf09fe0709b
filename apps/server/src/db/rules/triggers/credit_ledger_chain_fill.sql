-- An entry inserted without its hash, by anything but ledger_post (which chains its entries
-- itself, in one pass per posting): the test fixtures and tools that write books by hand. It
-- is chained here as ledger_post would: the organization's balance row locked, prev_hash its
-- ledger_head, hash ledger_entry_hash over it and the row as it will be stored, and the row's
-- hash the new ledger_head. So the ledger has no entry outside its organization's chain.
create or replace function credit_ledger_chain_fill() returns trigger language plpgsql as $$
declare
  v_head bytea;
begin
  select b.ledger_head into v_head from organization_billing_settings b where b.organization_id = new.organization_id for update;
  new.prev_hash := v_head;
  new.hash := ledger_entry_hash(v_head, new.id, new.organization_id, new.amount, new.entry_type, new.transaction_group,
                                new.metadata, new.balance_after, new.external_ref, new.refund_of, new.agent_type_id, new.units,
                                new.created_by, new.created_at);
  update organization_billing_settings set ledger_head = new.hash where organization_id = new.organization_id;
  return new;
end;
$$;

create or replace trigger credit_ledger_chain_fill_trg before insert on credit_ledger_entries
  for each row when (new.hash is null) execute function credit_ledger_chain_fill();
