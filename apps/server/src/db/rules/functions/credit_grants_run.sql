-- credit_grants_run: where one organization's grants stand among the held grants of several
-- (credit_grants_held's order: by organization, then draw order), and its open credits. The
-- callers walk their organizations in the same order, so each search starts where the last
-- one ended (p_from) and a whole batch reads the arrays once. Answers the range [o_lo, o_hi]
-- (empty, o_hi < o_lo, when it holds none) and the open credits: the balance less what those
-- grants hold. The usage engine's decision and ledger_post find an organization's grants alike.
-- Called with the callers' array variables, which PL/pgSQL passes without copying them.
create or replace function credit_grants_run(
  p_org uuid,
  p_orgs uuid[],
  p_rem numeric[],
  p_from integer,
  p_balance numeric,
  out o_lo integer,
  out o_hi integer,
  out o_open numeric
)
language plpgsql immutable as $$
declare
  j integer;
begin
  o_lo := p_from;
  while o_lo <= cardinality(p_orgs) and p_orgs[o_lo] < p_org loop
    o_lo := o_lo + 1;
  end loop;
  o_hi := o_lo - 1;
  while o_hi < cardinality(p_orgs) and p_orgs[o_hi + 1] = p_org loop
    o_hi := o_hi + 1;
  end loop;
  o_open := p_balance;
  for j in o_lo .. o_hi loop
    o_open := o_open - p_rem[j];
  end loop;
end
$$;
