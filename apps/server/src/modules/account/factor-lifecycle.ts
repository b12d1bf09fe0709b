import { sql, type Transaction } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { revokeSessions } from '../../lib/access.ts';
import type { Caller } from '../../lib/caller.ts';
import { ENDED, type AccountDeps } from './queries.ts';

/**
 * What follows every change of a person's factors, whichever kind (an app or a passkey), in the
 * change's own transaction: the person's other sessions end, since whoever held them did not
 * show this change.
 */
export function createFactorLifecycle({ factors, passkeys }: Pick<AccountDeps, 'factors' | 'passkeys'>) {
  /**
   * A factor was added. The first one also gives `MFA.recoveryCodeCount` recovery codes,
   * answered once by the caller (none while unused ones are left from an earlier factor).
   */
  async function added(trx: Transaction<DB>, caller: Caller): Promise<string[]> {
    const unused = await trx
      .selectFrom('recovery_codes')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('user_id', '=', caller.userId)
      .where('used_at', 'is', null)
      .executeTakeFirstOrThrow();
    const codes = unused.n > 0 ? [] : await factors.replaceRecoveryCodes(trx, caller.userId);
    await revokeSessions(trx, caller.userId, ENDED.factorAdded, caller.sessionId);
    return codes;
  }

  /** A factor was removed. With none left, every recovery code and open sign-in challenge goes too. */
  async function removed(trx: Transaction<DB>, caller: Caller): Promise<void> {
    const left = (await passkeys.hasPasskey(trx, caller.userId)) || (await factors.hasConfirmedTotp(trx, caller.userId));
    if (!left) {
      await trx.deleteFrom('recovery_codes').where('user_id', '=', caller.userId).execute();
      await trx
        .updateTable('sign_in_challenges')
        .set({ used_at: sql`now()` })
        .where('user_id', '=', caller.userId)
        .where('used_at', 'is', null)
        .execute();
    }
    await revokeSessions(trx, caller.userId, ENDED.factorRemoved, caller.sessionId);
  }

  return { added, removed };
}
