-- Credits that reach an organization from its parent (by a person or an automatic top-up)
-- and the house's adjustments are events of the organization they change, from the ledger
-- entry itself. Usage entries do not fire it.
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
  when (new.entry_type in ('allocation_received', 'adjustment_increase', 'adjustment_decrease'))
  execute function webhook_events_from_ledger();
