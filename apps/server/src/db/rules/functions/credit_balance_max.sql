-- The most a balance may hold: the largest value of the balance column's type, numeric(16, 2),
-- so 99,999,999,999,999.99. Read from the column itself, so the bound is stated once, by the
-- schema, and a migration that widens the column widens it.
create or replace function credit_balance_max() returns numeric language sql stable as $$
  select (10::numeric ^ (((a.atttypmod - 4) >> 16) - ((a.atttypmod - 4) & 65535))
          - 10::numeric ^ (-((a.atttypmod - 4) & 65535)))::numeric(16, 2)
  from pg_attribute a
  where a.attrelid = 'organization_billing_settings'::regclass and a.attname = 'credit_balance'
$$;
