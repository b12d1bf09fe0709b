-- The entries a seller bills a child for (credits received, an initial balance, credits given
-- back) are a few among the child's many consumption entries. Drafts, issuing and the monthly
-- issuer read them per child: this index holds only those, so they are found without reading
-- a busy tenant's usage.
create index credit_ledger_billable_idx on credit_ledger_entries (organization_id, seq)
  where entry_type in ('allocation_received', 'initial_balance', 'reversal_sent');
