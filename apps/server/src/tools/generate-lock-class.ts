// `npm run db:generate-lock-class`: writes db/rules/functions/lock_class.sql from the lock
// classes of lib/locks.ts (see db/lock-class-rule.ts).
import { writeFileSync } from 'node:fs';
import { LOCK_CLASS_RULE_FILE, lockClassRuleText } from '../db/lock-class-rule.ts';

writeFileSync(LOCK_CLASS_RULE_FILE, lockClassRuleText());
console.log(`wrote ${LOCK_CLASS_RULE_FILE}`);
