-- The organizations whose balance is below their low-balance threshold: the few rows the
-- organization list's "low balance" filter starts from, so a subtree of any size is
-- filtered without reading every balance. The balance is indexed already (the balance
-- sort), so a charge was never an in-place (HOT) update; this index holds an entry only
-- for a row below its threshold.
create index billing_low_balance_idx on organization_billing_settings (organization_id) where credit_balance < low_balance_threshold;
