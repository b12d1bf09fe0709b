-- What was charged against a cap in a window (its kind and first day), recounted from the day
-- totals of accepted usage (by UTC day of occurrence): an activation's organization and agent
-- type, or every organization of a subtree. A key's usage has no day totals of its own: its
-- windows are kept from its first event on, so a key with no row for a window charged nothing.
create or replace function spend_cap_recount(p_scope text, p_id uuid, p_kind text, p_start date) returns numeric
language sql stable as $$
  select coalesce(case p_scope
    when 'activation' then (
      select sum(d.charged) from agent_activations v
      join usage_event_days d on d.organization_id = v.organization_id and d.agent_type_id = v.agent_type_id
      where v.id = p_id and d.day >= p_start and d.day < cap_window_end(p_kind, p_start))
    when 'subtree' then (
      select sum(d.charged) from organizations c
      join organizations s on starts_with(s.path, c.path)
      join usage_event_days d on d.organization_id = s.id
      where c.id = p_id and d.day >= p_start and d.day < cap_window_end(p_kind, p_start))
    else 0
  end, 0)
$$;

-- The month's recount, as before windows: a month is the window that starts on its first day.
create or replace function spend_cap_recount(p_scope text, p_id uuid, p_month date) returns numeric
language sql stable as $$
  select spend_cap_recount(p_scope, p_id, 'month', p_month)
$$;

-- What was charged against a cap in a window: its row while one is kept, else recounted.
create or replace function spend_cap_charged(p_scope text, p_id uuid, p_kind text, p_start date) returns numeric
language sql stable as $$
  select coalesce(
    (select m.charged from spend_cap_months m where m.scope = p_scope and m.scope_id = p_id and m.kind = p_kind and m.month = p_start),
    spend_cap_recount(p_scope, p_id, p_kind, p_start))
$$;

-- The month's, as before windows.
create or replace function spend_cap_charged(p_scope text, p_id uuid, p_month date) returns numeric
language sql stable as $$
  select spend_cap_charged(p_scope, p_id, 'month', p_month)
$$;
