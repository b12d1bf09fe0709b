import { ACTIVITY_ACTIONS } from '@console/domain';

/**
 * The SQL view of the audit log's actions: the rule `functions/audit_action_known`, whose text
 * `migrate()` writes from the domain's `ACTIVITY_ACTIONS` (see `listRules`) and applies like a
 * rule file, again whenever the list changes. No file holds the list a second time: a new
 * action is the domain's change alone. `audit_log.action`'s CHECK calls it, so a writer in SQL
 * or TypeScript can store only an action the activity log knows how to say.
 */
export const AUDIT_ACTION_RULE = 'functions/audit_action_known';

/** The rule's text, from the domain's list. */
export function auditActionRuleText(actions: readonly string[] = ACTIVITY_ACTIONS): string {
  const values = actions.map((action, i) => `    '${action}'${i < actions.length - 1 ? ',' : ''}`);
  return [
    "-- audit_action_known: whether an action is one of the audit log's, for the CHECK on",
    '-- audit_log.action: a row names an action the activity log knows how to say, whoever writes it.',
    "-- Written by the migrator from the domain's ACTIVITY_ACTIONS (@console/domain). An action is",
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
