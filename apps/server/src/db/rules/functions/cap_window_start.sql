-- A cap's window holding an instant: a UTC day, an ISO week (Monday to Sunday, UTC) or a UTC
-- calendar month, named by its first day. The product has no time zones, so every window is
-- UTC's and every cap on one kind of window counts the same days.
create or replace function cap_window_start(p_kind text, p_at timestamptz) returns date
language sql immutable parallel safe as $$
  select case p_kind
    when 'day' then (p_at at time zone 'UTC')::date
    when 'week' then date_trunc('week', p_at at time zone 'UTC')::date
    else date_trunc('month', p_at at time zone 'UTC')::date
  end
$$;

-- The day after a window starting on p_start ends: a refusal at its cap may pass again then.
create or replace function cap_window_end(p_kind text, p_start date) returns date
language sql immutable parallel safe as $$
  select case p_kind
    when 'day' then p_start + 1
    when 'week' then p_start + 7
    else (p_start + interval '1 month')::date
  end
$$;
