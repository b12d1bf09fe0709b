-- Locks the balance rows of these organizations in id order. Every writer of balances takes
-- its rows through here before reading them (movements, usage batches, agent-limit changes),
-- so no two transactions wait on each other in a cycle, and what is read after it is settled.
create or replace function credit_balances_lock(p_orgs uuid[]) returns void language plpgsql as $$
begin
  perform 1 from organization_billing_settings b
  where b.organization_id = any(p_orgs)
  order by b.organization_id
  for update of b;
end;
$$;
