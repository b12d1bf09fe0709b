-- lock_class: the number of an advisory lock class, by its name, for the rules that take a
-- keyed lock: pg_advisory_xact_lock(lock_class('book'), hashtext(key)).
-- Generated from LOCK_CLASSES in apps/server/src/lib/locks.ts by `npm run db:generate-lock-class`:
-- change the registry, not this file. An unknown name raises (case_not_found) rather than
-- locking nothing. Immutable, so a call with a constant name is folded into the plan.
create or replace function lock_class(p_name text) returns integer
language plpgsql immutable parallel safe as $$
begin
  case p_name
    when 'book' then return 7031;
    when 'email' then return 6769;
    when 'scim' then return 23581;
    when 'export_slots' then return -602322046;
  end case;
end;
$$;
