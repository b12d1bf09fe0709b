-- usage_decide: the one decision of metered usage, for one event, from its facts
-- (usage_batch_facts) and what stands when its turn comes: the organization's balance and what
-- each cap has charged so far. The machine API's entitlement check asks it about a hypothetical
-- event of one cent, so the check and the recording can never disagree.
--
-- The outcome is the first that applies of:
-- - rejected out_of_reach: no such organization, outside the reporter's reach, or deleted;
-- - duplicate: the organization already recorded this id from this kind of reporter;
-- - rejected invalid: occurred further ahead of p_now than p_ahead or behind it than p_behind
--   ({"rule": "ahead" | "behind"}), or no catalog price in force then ({"rule": "no_price"});
-- - rejected unknown_agent, organization_not_active (it or one above it is suspended or
--   inactive), agent_not_active (no live activation of the agent there);
-- - rejected key_cap_reached, activation_cap_reached, spend_cap_reached: the cap that the
--   whole cents it would take (p_charge) pass, first in the order of p_hits (positions in
--   p_caps: the key's, the activation's, then the organizations' from the top down, each by
--   day, week then month), with its position in p_caps and the detail
--   {"cap", "limit", "window" (day, week, month), "window_start" (its first day), "resets_at"
--   (the instant it ends, UTC), "name" and "organization_id" (the key's, the agent type's or
--   the organization's name, and the organization the cap is on; both null for an
--   organization the reporter may not see), "set_by_id" and "set_by_name" (the organization
--   that set the cap; null where the reporter may not see it)};
-- - rejected insufficient_credits: p_charge exceeds the balance ({"balance", "needed"});
-- - accepted.
-- p_window is the event's month; each cap names its own window.
-- Pure: it reads no table, so it is immutable and its every branch can be tested on its own.
create or replace function usage_decide(
  p_reachable boolean,
  p_duplicate boolean,
  p_occurred timestamptz,
  p_now timestamptz,
  p_ahead interval,
  p_behind interval,
  p_agent_known boolean,
  p_active boolean,
  p_live boolean,
  p_priced boolean,
  p_charge numeric,
  p_balance numeric,
  p_window date,
  p_caps usage_cap[],
  p_hits integer[]
) returns usage_decision
language plpgsql immutable as $$
declare
  h integer;
begin
  if not p_reachable then
    return row('rejected', 'out_of_reach', null, null)::usage_decision;
  elsif p_duplicate then
    return row('duplicate', null, null, null)::usage_decision;
  elsif p_occurred > p_now + p_ahead then
    return row('rejected', 'invalid', '{"rule": "ahead"}', null)::usage_decision;
  elsif p_occurred < p_now - p_behind then
    return row('rejected', 'invalid', '{"rule": "behind"}', null)::usage_decision;
  elsif not p_agent_known then
    return row('rejected', 'unknown_agent', null, null)::usage_decision;
  elsif not p_active then
    return row('rejected', 'organization_not_active', null, null)::usage_decision;
  elsif not p_live then
    return row('rejected', 'agent_not_active', null, null)::usage_decision;
  elsif not p_priced then
    return row('rejected', 'invalid', '{"rule": "no_price"}', null)::usage_decision;
  end if;
  foreach h in array coalesce(p_hits, '{}') loop
    if p_caps[h].charged + p_charge > p_caps[h].cap then
      return row('rejected',
        case p_caps[h].scope when 'key' then 'key_cap_reached' when 'activation' then 'activation_cap_reached' else 'spend_cap_reached' end,
        jsonb_build_object('cap', p_caps[h].scope, 'limit', p_caps[h].cap::numeric(16, 2)::text, 'window', p_caps[h].kind,
          'window_start', to_char(p_caps[h].month, 'YYYY-MM-DD'),
          'resets_at', to_char(cap_window_end(p_caps[h].kind, p_caps[h].month), 'YYYY-MM-DD"T00:00:00.000Z"'),
          'name', case when p_caps[h].visible then p_caps[h].name end,
          'organization_id', case when p_caps[h].visible then p_caps[h].organization_id end,
          'set_by_id', p_caps[h].set_by, 'set_by_name', p_caps[h].set_by_name),
        h)::usage_decision;
    end if;
  end loop;
  if p_charge > p_balance then
    return row('rejected', 'insufficient_credits',
      jsonb_build_object('balance', p_balance::numeric(16, 2)::text, 'needed', trunc(p_charge, 2)::text), null)::usage_decision;
  end if;
  return row('accepted', null, null, null)::usage_decision;
end;
$$;
