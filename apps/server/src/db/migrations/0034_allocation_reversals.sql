-- Allocation reversals: within a day of an allocation, the sender's admins may give it back
-- while the child's balance covers it. A reversal is a new pair of entries, never an edit:
-- reversal_sent takes the amount from the child, reversal_received gives it back to the
-- parent. Both name the allocation in metadata->>'reverses_transaction_id'.
alter table credit_ledger_entries drop constraint credit_ledger_entries_entry_type_check;
alter table credit_ledger_entries add constraint credit_ledger_entries_entry_type_check check (entry_type in (
  'initial_balance', 'allocation_sent', 'allocation_received', 'consumption', 'refund',
  'adjustment_increase', 'adjustment_decrease', 'earning', 'reversal_sent', 'reversal_received'
));
alter table credit_ledger_entries drop constraint credit_ledger_entries_check;
alter table credit_ledger_entries add constraint credit_ledger_entries_check check (
  (entry_type in ('allocation_sent', 'consumption', 'adjustment_decrease', 'reversal_sent') and amount < 0)
  or (entry_type in ('initial_balance', 'allocation_received', 'refund', 'adjustment_increase', 'earning', 'reversal_received') and amount > 0)
);
-- An allocation is reversed at most once, whatever races; the ledger's page finds an
-- allocation's reversal through it.
create unique index ledger_reversal_once_idx on credit_ledger_entries ((metadata->>'reverses_transaction_id'))
  where entry_type = 'reversal_sent';
