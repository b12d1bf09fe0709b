-- credit_spendable: what an organization could spend now on one agent type (p_agent; null:
-- a debit of no agent, which draws only on grants for every agent): its open credits (the
-- balance beyond its grants' remainders) and the remainders of its grants that apply and have
-- not expired at p_at. The entitlement check and the balance's parts read it; the usage
-- engine draws by credit_grants_draw, which spends in the same bounds.
create or replace function credit_spendable(p_org uuid, p_agent uuid, p_at timestamptz) returns numeric
language sql stable as $$
  select greatest(b.credit_balance - coalesce(sum(g.remaining), 0), 0)
         + coalesce(sum(g.remaining) filter (
             where (g.expires_at is null or g.expires_at > p_at)
               and (g.agent_type_ids is null or (p_agent is not null and p_agent = any(g.agent_type_ids)))), 0)
  from organization_billing_settings b
  left join credit_grants g on g.organization_id = b.organization_id and g.remaining > 0
  where b.organization_id = p_org
  group by b.credit_balance
$$;
