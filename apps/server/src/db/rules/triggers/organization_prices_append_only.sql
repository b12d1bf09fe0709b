-- A price book's rows, its child prices' too, are its history: a change is a new row, never an
-- edit or a deletion.
create or replace function organization_prices_append_only() returns trigger language plpgsql as $$
begin
  raise exception 'price book entries are append-only' using errcode = '42501';
end;
$$;

create or replace trigger organization_prices_no_update before update or delete on organization_prices
  for each row execute function organization_prices_append_only();

create or replace trigger organization_child_prices_no_update before update or delete on organization_child_prices
  for each row execute function organization_prices_append_only();
