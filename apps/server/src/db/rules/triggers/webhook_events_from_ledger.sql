-- Credits that reach an organization from its parent (by a person or an automatic top-up)
-- and the house's adjustments are events of the organization they change, from the ledger
-- entry itself, as is an allocation given back (the child's reversal_sent: its balance goes
-- down, so a receiver keeping balances from events stays right). Usage entries do not fire it.
create or replace function webhook_events_from_ledger() returns trigger language plpgsql as $$
declare
  m jsonb := coalesce(new.metadata, '{}'::jsonb);
begin
  if new.entry_type = 'allocation_received' then
    insert into webhook_events (type, organization_id, data)
    values ('credits.allocated', new.organization_id,
      jsonb_build_object('amount', new.amount::numeric(16, 2)::text, 'balance_after', new.balance_after::numeric(16, 2)::text,
        'from_organization', case when m ? 'from_org_id' then jsonb_build_object('id', m ->> 'from_org_id', 'name', m ->> 'from_org_name') end,
        'automatic', coalesce((m ->> 'automatic')::boolean, false), 'notes', m ->> 'notes'));
  elsif new.entry_type = 'reversal_sent' then
    insert into webhook_events (type, organization_id, data)
    values ('credits.reversed', new.organization_id,
      jsonb_build_object('amount', new.amount::numeric(16, 2)::text, 'balance_after', new.balance_after::numeric(16, 2)::text,
        'to_organization', jsonb_build_object('id', m ->> 'to_org_id', 'name', m ->> 'to_org_name'),
        'reverses_transaction_id', m ->> 'reverses_transaction_id', 'reason', m ->> 'reason'));
  else
    insert into webhook_events (type, organization_id, data)
    values ('credits.adjusted', new.organization_id,
      jsonb_build_object('amount', new.amount::numeric(16, 2)::text, 'balance_after', new.balance_after::numeric(16, 2)::text,
        'notes', coalesce(m ->> 'notes', m ->> 'reason')));
  end if;
  return null;
end;
$$;

create or replace trigger webhook_events_from_ledger_trg after insert on credit_ledger_entries
  for each row
  when (new.entry_type in ('allocation_received', 'adjustment_increase', 'adjustment_decrease', 'reversal_sent'))
  execute function webhook_events_from_ledger();
