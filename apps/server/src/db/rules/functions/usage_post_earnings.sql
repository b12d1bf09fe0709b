-- usage_post_earnings: the margins of a batch's accepted events, for usage_post. Each seller
-- above a group's organization (the accepted events of one organization, agent type and chain
-- of prices) earns, per unit, the price of its child on the path minus its own price (the
-- house's part is consumed). A seller's exact earnings are added to its carry for the agent
-- type and the whole cents credited, nearest seller first, never more in all than the group's
-- consumption took (what is held back stays in the carry). So over all events each seller's
-- earnings credited plus its carry equal units × its margin, and no batch credits more than it
-- charged. It writes the carries that changed (in key order) and answers what each seller
-- earned on each group, for usage_post to sum into one earning entry per seller, child it came
-- through, agent type and margin.
create or replace function usage_post_earnings(p_accepted usage_accepted[])
returns table (seller uuid, child uuid, agent uuid, code text, margin numeric, units numeric, events integer, credit numeric)
language plpgsql as $$
declare
  g record;
  -- What each seller earned on each group, appended in place (a batch over many organizations
  -- has as many groups), and the earning carries read so far.
  er_seller uuid[] := '{}';
  er_child uuid[] := '{}';
  er_agent uuid[] := '{}';
  er_code text[] := '{}';
  er_margin numeric[] := '{}';
  er_units numeric[] := '{}';
  er_events integer[] := '{}';
  er_credit numeric[] := '{}';
  ec_key text[] := '{}';
  ec_carry numeric[] := '{}';
  ec_stored boolean[] := '{}';
  v_margins numeric[];
  v_left numeric;
  v_exact numeric;
  v_credit numeric;
  j integer;
  q integer;
  k integer;
begin
  for g in
    select a.org, a.agent_id, a.agent, a.chain, a.sellers, sum(a.charged) as charge, sum(a.units) as units, count(*)::integer as events
    from unnest(p_accepted) with ordinality a
    where a.chain is not null
    group by a.org, a.agent_id, a.agent, a.chain, a.sellers
    order by a.org, min(a.ordinality)
  loop
    -- Each seller's margin per unit, from the parent upward.
    v_margins := array(select g.chain[s.n + 1] - g.chain[s.n] from generate_series(cardinality(g.sellers), 1, -1) as s(n));
    continue when not (0 < any(v_margins));
    v_left := g.charge;
    for j in 1 .. cardinality(v_margins) loop
      continue when v_margins[j] = 0;
      q := cardinality(g.sellers) + 1 - j;
      k := array_position(ec_key, g.sellers[q]::text || ':' || g.agent_id::text);
      if k is null then
        k := cardinality(ec_key) + 1;
        ec_key[k] := g.sellers[q]::text || ':' || g.agent_id::text;
        select c.carry into v_exact from earning_carry c where c.organization_id = g.sellers[q] and c.agent_type_id = g.agent_id;
        ec_stored[k] := found;
        ec_carry[k] := coalesce(v_exact, 0);
      end if;
      v_exact := ec_carry[k] + g.units * v_margins[j];
      v_credit := least(trunc(v_exact, 2), v_left);
      ec_carry[k] := v_exact - v_credit;
      v_left := v_left - v_credit;
      er_seller := er_seller || g.sellers[q];
      er_child := er_child || case when q = cardinality(g.sellers) then g.org else g.sellers[q + 1] end;
      er_agent := er_agent || g.agent_id;
      er_code := er_code || g.agent;
      er_margin := er_margin || v_margins[j];
      er_units := er_units || g.units;
      er_events := er_events || g.events;
      er_credit := er_credit || v_credit;
    end loop;
  end loop;


  insert into earning_carry as c (organization_id, agent_type_id, carry)
  select split_part(x.key, ':', 1)::uuid, split_part(x.key, ':', 2)::uuid, x.carry
  from unnest(ec_key, ec_carry, ec_stored) as x(key, carry, stored)
  where x.stored or x.carry <> 0
  order by 1, 2
  on conflict (organization_id, agent_type_id) do update set carry = excluded.carry where c.carry <> excluded.carry;

  return query select * from unnest(er_seller, er_child, er_agent, er_code, er_margin, er_units, er_events, er_credit);
end;
$$;
