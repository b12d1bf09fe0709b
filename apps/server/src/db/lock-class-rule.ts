import { LOCK_CLASSES } from '../lib/locks.ts';

/**
 * The SQL rules' view of the lock classes: the rule `functions/lock_class`, whose text
 * `migrate()` writes from `LOCK_CLASSES` (`lib/locks.ts`; see `listRules`) and applies like a
 * rule file, again whenever the registry changes. No file holds the numbers a second time.
 */
export const LOCK_CLASS_RULE = 'functions/lock_class';

/** The rule's text, from the registry. */
export function lockClassRuleText(): string {
  const cases = Object.entries(LOCK_CLASSES).map(([name, number]) => `    when '${name}' then return ${number};`);
  return [
    '-- lock_class: the number of an advisory lock class, by its name, for the rules that take a',
    "-- keyed lock: pg_advisory_xact_lock(lock_class('book'), hashtext(key)).",
    '-- Written by the migrator from LOCK_CLASSES in apps/server/src/lib/locks.ts. An unknown name',
    '-- raises (case_not_found) rather than locking nothing. Immutable, so a call with a constant',
    '-- name is folded into the plan.',
    'create or replace function lock_class(p_name text) returns integer',
    'language plpgsql immutable parallel safe as $$',
    'begin',
    '  case p_name',
    ...cases,
    '  end case;',
    'end;',
    '$$;',
    '',
  ].join('\n');
}
