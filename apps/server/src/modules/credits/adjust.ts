import { sql } from 'kysely';
import { GRANT_MESSAGES, hasGrantTerms, isOwnOrganization, mayAdjustBalance, type GrantTerms, type LedgerRow } from '@console/domain';
import { preparedStatement } from '../../db/connection.ts';
import type { Caller } from '../../lib/caller.ts';
import { ForbiddenError, RuleError } from '../../lib/errors.ts';
import type { ClientInfo } from '../../lib/request-info.ts';
import { requireStepUpAbove } from '../../lib/step-up.ts';
import { storedTerms, type StoredTerms } from '../../lib/grant-terms.ts';
import { c, negate, refusalError, refusalOf, toEntry, type CreditsDeps, type EntryRow } from './queries.ts';

interface AdjustmentCall {
  user: string;
  org: string;
  amount: string;
  magnitude: string;
  reason: string;
  ip: string | null;
  requestId: string | null;
  terms: StoredTerms | null;
}

/** The adjustment's one statement (db/rules/functions); its text never changes, only the values. */
const adjustment = (a: AdjustmentCall) => sql<EntryRow>`
  select * from credits_adjust(${a.user}::uuid, ${a.org}::uuid, ${a.amount}::text, ${a.magnitude}::text,
    ${a.reason}::text, ${a.ip}::text, ${a.requestId}::text, ${a.terms === null ? null : JSON.stringify(a.terms)}::jsonb)`;

export function createAdjust({ db, organizations }: Pick<CreditsDeps, 'db' | 'organizations'>) {
  // Every adjustment sends the same text: on PostgreSQL each connection parses it once.
  preparedStatement(
    adjustment({ user: '', org: '', amount: '', magnitude: '', reason: '', ip: null, requestId: null, terms: null }).compile(db).sql,
  );

  /** Credits enter or leave the system here: house admins, on their own house, with a reason. */
  async function adjust(
    caller: Caller,
    input: { organization_id?: string; direction: 'increase' | 'decrease'; amount: string; reason: string; terms?: GrantTerms | null },
    info: ClientInfo,
  ): Promise<LedgerRow> {
    const target = input.organization_id ?? caller.organization.id;
    if (!mayAdjustBalance(caller, { id: target })) {
      // Another organization outside the caller's subtree answers 404, like everywhere else.
      if (!isOwnOrganization(caller, { id: target })) await organizations.visible(caller, target);
      throw new ForbiddenError(c.adjustOnlyHouse);
    }
    if (input.direction === 'decrease' && hasGrantTerms(input.terms)) throw new RuleError(GRANT_MESSAGES.termsOnDecrease);
    const terms = await storedTerms(db, input.terms);
    // An adjustment above the house's threshold asks for a step-up, once the caller may adjust at all.
    await requireStepUpAbove(db, caller, input.amount);
    // One call of `credits_adjust` (db/rules/functions), a single statement: the lock, the
    // checks under it, the balance, the entry and the audit row in one round trip.
    const amount = input.direction === 'increase' ? input.amount : negate(input.amount);
    try {
      const { rows } = await adjustment({
        user: caller.userId,
        org: target,
        amount,
        magnitude: input.amount,
        reason: input.reason,
        ip: info.ip,
        requestId: info.requestId,
        terms,
      }).execute(db);
      return toEntry(rows[0]!);
    } catch (error) {
      const reason = refusalOf(error);
      throw reason && reason !== 'not_own_source' ? refusalError(reason, error) : error;
    }
  }

  return { adjust };
}
