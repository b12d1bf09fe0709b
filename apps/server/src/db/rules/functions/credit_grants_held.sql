-- credit_grants_held: the grants these organizations hold (remaining > 0), by organization and
-- then in the order consumption draws them: highest priority first, then soonest expiry
-- (none last), then oldest. `before_open` marks the grants drawn before the organization's
-- open credits, which stand as a grant of priority 0 without expiry older than every grant:
-- those of a higher priority, or of priority 0 with an expiry. Callers hold the balance
-- locks (credit_balances_lock), under which alone a grant changes.
create or replace function credit_grants_held(p_orgs uuid[])
returns table (id uuid, organization_id uuid, remaining numeric, expires_at timestamptz, agents text, before_open boolean)
language sql stable as $$
  select g.id, g.organization_id, g.remaining, g.expires_at, g.agent_type_ids::text, g.priority > 0 or g.expires_at is not null
  from credit_grants g
  where g.organization_id = any(p_orgs) and g.remaining > 0
  order by g.organization_id, g.priority desc, g.expires_at nulls last, g.created_at, g.id
$$;
