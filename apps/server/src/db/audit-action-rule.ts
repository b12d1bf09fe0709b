import { fileURLToPath } from 'node:url';
import { ACTIVITY_ACTIONS } from '@console/domain';

/**
 * The SQL view of the audit log's actions: `rules/functions/audit_action_known.sql`, written
 * from the domain's `ACTIVITY_ACTIONS` by `npm run db:generate-audit-actions` and committed, so
 * the rule is a file like every other rule, reviewed in its diff and applied by `migrate()`
 * when its text changes. `audit_log.action`'s CHECK calls it, so a writer in SQL or TypeScript
 * can store only an action the activity log knows how to say. `audit-action-rule.test.ts`
 * fails while the file differs from this text.
 */
export const AUDIT_ACTION_RULE_FILE = fileURLToPath(new URL('./rules/functions/audit_action_known.sql', import.meta.url));

/** The rule file's text, from the domain's list. */
export function auditActionRuleText(actions: readonly string[] = ACTIVITY_ACTIONS): string {
  const values = actions.map((action, i) => `    '${action}'${i < actions.length - 1 ? ',' : ''}`);
  return [
    "-- audit_action_known: whether an action is one of the audit log's, for the CHECK on",
    '-- audit_log.action: a row names an action the activity log knows how to say, whoever writes it.',
    "-- Generated from the domain's ACTIVITY_ACTIONS (@console/domain) by",
    "-- `npm run db:generate-audit-actions`: change the domain's list, not this file. An action is",
    '-- never removed from the list while rows may hold it. Immutable, as a CHECK needs.',
    'create or replace function audit_action_known(p_action text) returns boolean',
    'language sql immutable parallel safe as $$',
    '  select p_action in (',
    ...values,
    '  )',
    '$$;',
    '',
  ].join('\n');
}
