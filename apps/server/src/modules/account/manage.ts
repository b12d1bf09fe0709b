import { MESSAGES, type MfaMethod, type RecoveryCodes } from '@console/domain';
import type { Transaction } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { auditAction } from '../../lib/audit.ts';
import type { Caller } from '../../lib/caller.ts';
import { ConflictError, RuleError } from '../../lib/errors.ts';
import type { ClientInfo } from '../../lib/request-info.ts';
import { createFactorLifecycle } from './factor-lifecycle.ts';
import type { AccountDeps } from './queries.ts';

/** Removing the authenticator app, and renewing the recovery codes: each takes a current code. */
export function createFactorChanges({ db, factors, passkeys }: AccountDeps) {
  const lifecycle = createFactorLifecycle({ factors, passkeys });
  /**
   * Runs `change` once a current code (from the confirmed app, or an unused recovery code)
   * proves the factor, in one transaction with the app's row locked. Without a confirmed app
   * 409; a wrong code 422, counted against the person's allowance of wrong codes.
   */
  async function withCurrentCode<T>(
    caller: Caller,
    code: string,
    change: (trx: Transaction<DB>, method: MfaMethod) => Promise<T>,
    appRequired = true,
  ): Promise<T> {
    const outcome = await db.transaction().execute(async (trx) => {
      const app = await trx
        .selectFrom('totp_factors')
        .select('confirmed_at')
        .where('user_id', '=', caller.userId)
        .forUpdate()
        .executeTakeFirst();
      // Recovery codes are renewed for a person with any factor (an app or a passkey).
      if (!app?.confirmed_at && (appRequired || !(await passkeys.hasPasskey(trx, caller.userId)))) {
        throw new ConflictError(MESSAGES.auth.totpNotEnrolled);
      }
      await factors.admit(trx, caller.userId);
      const method = await factors.checkCode(trx, caller.userId, code);
      if (!method) {
        await factors.countWrong(trx, caller.userId);
        return { wrong: true } as const;
      }
      return { wrong: false, value: await change(trx, method) } as const;
    });
    if (outcome.wrong) throw new RuleError(MESSAGES.auth.codeWrong, 'code_wrong');
    return outcome.value;
  }

  /**
   * The app goes, and the person's other sessions end. With no passkey left it was the last
   * factor: every recovery code and open sign-in challenge goes too.
   */
  async function removeTotp(caller: Caller, code: string, client: ClientInfo): Promise<void> {
    await withCurrentCode(caller, code, async (trx, method) => {
      await trx.deleteFrom('totp_factors').where('user_id', '=', caller.userId).execute();
      await lifecycle.removed(trx, caller);
      await auditAction(trx, caller, client, {
        organizationId: caller.organization.id,
        action: 'auth.mfa_removed',
        targetType: 'user',
        targetId: caller.userId,
        details: { method },
      });
    });
  }

  /** New recovery codes, answered here only; every old one stops working. */
  async function regenerateRecoveryCodes(caller: Caller, code: string, client: ClientInfo): Promise<RecoveryCodes> {
    const codes = await withCurrentCode(
      caller,
      code,
      async (trx, method) => {
        const made = await factors.replaceRecoveryCodes(trx, caller.userId);
        await auditAction(trx, caller, client, {
          organizationId: caller.organization.id,
          action: 'auth.recovery_codes_regenerated',
          targetType: 'user',
          targetId: caller.userId,
          details: { method },
        });
        return made;
      },
      false,
    );
    return { recovery_codes: codes };
  }

  return { removeTotp, regenerateRecoveryCodes };
}
