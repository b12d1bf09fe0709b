// `npm run db:generate-audit-actions`: writes db/rules/functions/audit_action_known.sql from the
// domain's ACTIVITY_ACTIONS (see db/audit-action-rule.ts).
import { writeFileSync } from 'node:fs';
import { AUDIT_ACTION_RULE_FILE, auditActionRuleText } from '../db/audit-action-rule.ts';

writeFileSync(AUDIT_ACTION_RULE_FILE, auditActionRuleText());
console.log(`wrote ${AUDIT_ACTION_RULE_FILE}`);
