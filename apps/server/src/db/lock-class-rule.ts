import { fileURLToPath } from 'node:url';
import { LOCK_CLASSES } from '../lib/locks.ts';

/**
 * The SQL rules' view of the lock classes: `rules/functions/lock_class.sql`, written from
 * `LOCK_CLASSES` (`lib/locks.ts`) by `npm run db:generate-lock-class` and committed, so the
 * rule is a file like every other rule, reviewed in its diff and applied by `migrate()` when
 * its text changes. `locks.test.ts` fails while the file differs from this text.
 */
export const LOCK_CLASS_RULE_FILE = fileURLToPath(new URL('./rules/functions/lock_class.sql', import.meta.url));

/** The rule file's text, from the registry. */
export function lockClassRuleText(): string {
  const cases = Object.entries(LOCK_CLASSES).map(([name, number]) => `    when '${name}' then return ${number};`);
  return [
    '-- lock_class: the number of an advisory lock class, by its name, for the rules that take a',
    "-- keyed lock: pg_advisory_xact_lock(lock_class('book'), hashtext(key)).",
    '-- Generated from LOCK_CLASSES in apps/server/src/lib/locks.ts by `npm run db:generate-lock-class`:',
    '-- change the registry, not this file. An unknown name raises (case_not_found) rather than',
    '-- locking nothing. Immutable, so a call with a constant name is folded into the plan.',
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
