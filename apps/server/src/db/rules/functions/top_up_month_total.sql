-- What automatic top-ups moved into an organization in the calendar month (UTC) of p_at: its
-- automatic allocations received then, less those its parent has since reversed (a reversed
-- top-up gives its part of the monthly maximum back). The top-up runner holds a top-up to the
-- monthly maximum with it, usage_record queues no refusal-driven request while the month has
-- no room left, and the spend controls show it.
create or replace function top_up_month_total(p_org uuid, p_at timestamptz) returns numeric
language sql stable as $$
  select coalesce(sum(e.amount), 0)
  from credit_ledger_entries e
  where e.organization_id = p_org
    and e.entry_type = 'allocation_received'
    and e.created_at >= date_trunc('month', p_at at time zone 'UTC') at time zone 'UTC'
    and e.created_at < (date_trunc('month', p_at at time zone 'UTC') + interval '1 month') at time zone 'UTC'
    and e.metadata->>'automatic' = 'true'
    and not exists (
      select 1 from credit_ledger_entries r
      where r.entry_type = 'reversal_sent' and r.metadata->>'reverses_transaction_id' = e.transaction_group::text
    )
$$;
