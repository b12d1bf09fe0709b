-- The path is derived, never written by callers; the parent never changes.
create or replace function organizations_set_path() returns trigger language plpgsql as $$
declare
  parent_path text;
begin
  if tg_op = 'UPDATE' then
    if new.parent_org_id is distinct from old.parent_org_id or new.org_type <> old.org_type then
      raise exception 'an organization''s parent and type never change' using errcode = '23514';
    end if;
    new.path := old.path;
    return new;
  end if;
  if new.parent_org_id is null then
    new.path := '/' || new.id::text || '/';
  else
    select path into parent_path from organizations where id = new.parent_org_id;
    new.path := parent_path || new.id::text || '/';
  end if;
  return new;
end;
$$;

create or replace trigger organizations_path_trg before insert or update on organizations
  for each row execute function organizations_set_path();
