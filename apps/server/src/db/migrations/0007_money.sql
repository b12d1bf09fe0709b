-- A refund names the consumption it returns (that consumption's external_ref, in the same
-- organization), so refunds of one consumption can be summed and never exceed it.
alter table credit_ledger_entries add column refund_of text;
alter table credit_ledger_entries add constraint credit_ledger_refund_of_check
  check (refund_of is null or entry_type = 'refund');
create index ledger_refund_of_idx on credit_ledger_entries (organization_id, refund_of) where refund_of is not null;

-- Idempotency keys expire; the oldest are deleted a batch at a time.
create index idempotency_keys_created_idx on idempotency_keys (created_at);
