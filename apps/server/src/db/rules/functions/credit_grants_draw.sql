-- credit_grants_draw: the one rule of what a debit of p_need draws from an organization's
-- credits, given its held grants in draw order (credit_grants_held: remaining, expiry, agent
-- types as text, before_open) and its open credits. It draws from the grants that apply to the
-- agent type p_agent (a debit without one: only grants for every agent) and have not expired
-- at p_at, in their order, taking the open credits where they stand in it (after the grants
-- marked before_open). Answers the grants' remainders after the draw, the open credits after
-- it, and what could not be covered (0 when all was). With o_short > 0 nothing should be
-- applied: the caller refuses, and what was covered (p_need - o_short) is everything the
-- debit could spend. Pure, so the usage engine's decision and ledger_post draw alike.
create or replace function credit_grants_draw(
  p_rem numeric[],
  p_exp timestamptz[],
  p_agents text[],
  p_first boolean[],
  p_open numeric,
  p_need numeric,
  p_agent uuid,
  p_at timestamptz,
  out o_rem numeric[],
  out o_open numeric,
  out o_short numeric
)
language plpgsql immutable as $$
declare
  j integer;
  v_take numeric;
  v_open_taken boolean := false;
begin
  o_rem := p_rem;
  o_open := p_open;
  o_short := p_need;
  for j in 1 .. coalesce(cardinality(p_rem), 0) loop
    exit when o_short = 0;
    if not p_first[j] and not v_open_taken then
      v_take := least(greatest(o_open, 0), o_short);
      o_open := o_open - v_take;
      o_short := o_short - v_take;
      v_open_taken := true;
      exit when o_short = 0;
    end if;
    if o_rem[j] > 0 and (p_agents[j] is null or (p_agent is not null and strpos(p_agents[j], p_agent::text) > 0))
       and (p_exp[j] is null or p_exp[j] > p_at) then
      v_take := least(o_rem[j], o_short);
      o_rem[j] := o_rem[j] - v_take;
      o_short := o_short - v_take;
    end if;
  end loop;
  if not v_open_taken and o_short > 0 then
    v_take := least(greatest(o_open, 0), o_short);
    o_open := o_open - v_take;
    o_short := o_short - v_take;
  end if;
end;
$$;
