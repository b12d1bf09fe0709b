-- A seller's new book price, a price for one of its children, or a new catalog price is a
-- webhook event of every organization whose own price it moves, and of every seller it puts
-- below its own price (price_move_events): a seller whose parent raises its price hears of it
-- without opening its pricing page. Written in the change's own transaction, from the row.
create or replace function webhook_events_from_prices() returns trigger language plpgsql as $$
begin
  if tg_table_name = 'organization_prices' then
    -- The seller's book moves what its children (and below them) pay, never its own price.
    perform price_move_events(o.path, o.id, new.agent_type_id, new.effective_from, o.id)
    from organizations o where o.id = new.organization_id;
  elsif tg_table_name = 'organization_child_prices' then
    perform price_move_events(c.path, null, new.agent_type_id, new.effective_from, new.organization_id)
    from organizations c where c.id = new.child_id;
  else
    -- The catalog: what the house's children pay, and through them everyone's floor. A new
    -- type's first price moves no one's price, so it reads no organization.
    if exists (select 1 from agent_prices p where p.agent_type_id = new.agent_type_id and p.effective_from < new.effective_from) then
      perform price_move_events('/', null, new.agent_type_id, new.effective_from, null);
    end if;
  end if;
  return null;
end;
$$;

create or replace trigger webhook_events_from_prices_trg after insert on organization_prices
  for each row execute function webhook_events_from_prices();
create or replace trigger webhook_events_from_prices_trg after insert on organization_child_prices
  for each row execute function webhook_events_from_prices();
create or replace trigger webhook_events_from_prices_trg after insert on agent_prices
  for each row execute function webhook_events_from_prices();
