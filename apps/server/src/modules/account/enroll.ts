import { sql } from 'kysely';
import QRCode from 'qrcode';
import { MESSAGES, MFA, type RecoveryCodes, type TotpEnrollment } from '@console/domain';
import { auditAction } from '../../lib/audit.ts';
import type { Caller } from '../../lib/caller.ts';
import { BadRequestError, ConflictError, RuleError } from '../../lib/errors.ts';
import type { ClientInfo } from '../../lib/request-info.ts';
import { totpUri } from '../../lib/second-factor.ts';
import { verifyPassword } from '../../lib/secrets.ts';
import { createFactorLifecycle } from './factor-lifecycle.ts';
import type { AccountDeps } from './queries.ts';

/** Setting up an authenticator app: a secret shown once, then a first code confirms it. */
export function createEnrollment({ db, factors, passkeys }: AccountDeps) {
  const lifecycle = createFactorLifecycle({ factors, passkeys });
  /**
   * Starts (or starts again) the setup, the password given again: a stolen access token alone
   * adds no factor. A pending setup is replaced by the new one; a confirmed app is never
   * replaced (409: it must be removed first). The secret is shown here only, sealed at rest.
   */
  async function startTotp(caller: Caller, currentPassword: string): Promise<TotpEnrollment> {
    const person = await db
      .selectFrom('users')
      .select(['email', 'password_hash'])
      .where('id', '=', caller.userId)
      .executeTakeFirstOrThrow();
    if (!(await verifyPassword(person.password_hash, currentPassword))) {
      throw new BadRequestError(MESSAGES.auth.currentPasswordWrong, { current_password: MESSAGES.auth.currentPasswordWrong });
    }
    const { secret, sealed } = factors.newTotpSecret();
    const started = await db
      .insertInto('totp_factors')
      .values({ user_id: caller.userId, secret_sealed: sealed })
      .onConflict((oc) =>
        oc
          .column('user_id')
          .doUpdateSet({ secret_sealed: sealed, created_at: sql`now()`, last_step: null })
          .where('totp_factors.confirmed_at', 'is', null),
      )
      .returning('created_at')
      .executeTakeFirst();
    if (!started) throw new ConflictError(MESSAGES.auth.totpAlreadyEnrolled);
    const uri = totpUri(secret, person.email);
    return {
      secret,
      otpauth_uri: uri,
      qr_svg: await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 }),
      expires_at: new Date(new Date(started.created_at).getTime() + MFA.enrollmentTtlSeconds * 1000).toISOString(),
    };
  }

  /**
   * Confirms the pending app with a code from it (within `MFA.enrollmentTtlSeconds` of the
   * start). A first factor also gives `MFA.recoveryCodeCount` recovery codes, answered here only;
   * the person's other sessions end, since whoever held them did not show this factor. A wrong
   * code counts against the person's allowance of wrong codes.
   */
  async function confirmTotp(caller: Caller, code: string, client: ClientInfo): Promise<RecoveryCodes> {
    const codes = await db.transaction().execute(async (trx) => {
      const row = await trx
        .selectFrom('totp_factors')
        .select(['confirmed_at', sql<boolean>`created_at > now() - ${MFA.enrollmentTtlSeconds} * interval '1 second'`.as('live')])
        .where('user_id', '=', caller.userId)
        .forUpdate()
        .executeTakeFirst();
      if (row?.confirmed_at) throw new ConflictError(MESSAGES.auth.totpAlreadyEnrolled);
      if (!row?.live) throw new ConflictError(MESSAGES.auth.totpNotStarted);
      await factors.admit(trx, caller.userId);
      if (!(await factors.checkTotp(trx, caller.userId, code, true))) {
        await factors.countWrong(trx, caller.userId);
        return null;
      }
      await trx.updateTable('totp_factors').set({ confirmed_at: sql`now()` }).where('user_id', '=', caller.userId).execute();
      const made = await lifecycle.added(trx, caller);
      await auditAction(trx, caller, client, {
        organizationId: caller.organization.id,
        action: 'auth.mfa_enrolled',
        targetType: 'user',
        targetId: caller.userId,
      });
      return made;
    });
    if (codes === null) throw new RuleError(MESSAGES.auth.codeWrong, 'code_wrong');
    return { recovery_codes: codes };
  }

  return { startTotp, confirmTotp };
}
