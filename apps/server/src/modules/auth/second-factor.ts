import { sql } from 'kysely';
import { MESSAGES, MFA, type MfaChallenge, type MfaMethod, type SecondFactorBody } from '@console/domain';
import { writeAudit } from '../../lib/audit.ts';
import { UnauthorizedError } from '../../lib/errors.ts';
import { hashToken, randomToken } from '../../lib/secrets.ts';
import { SsoRequiredError, ssoEnforcedFor } from '../../lib/sso-enforcement.ts';
import type { ClientInfo } from '../../lib/request-info.ts';
import type { AuthDeps, IssuedSession, SessionIssuer } from './queries.ts';

/** Error codes of a refused answer: the code was wrong (try again), or the challenge is void (sign in again). */
export const CODE_WRONG = 'code_wrong';
export const CHALLENGE_EXPIRED = 'challenge_expired';
export const PASSKEY_REFUSED = 'passkey_refused';

/**
 * The second step of a sign-in for a person with an authenticator app: the right password
 * gives a challenge (no session), and a code from the app or an unused recovery code answers
 * it within `MFA.challengeTtlSeconds`. A challenge takes at most `MFA.attemptsPerChallenge`
 * wrong codes; the person's allowance of wrong codes bounds every challenge together.
 */
export function createSecondFactorSignIn({
  db,
  factors,
  passkeys,
  sessions: { startSession },
}: Pick<AuthDeps, 'db' | 'factors' | 'passkeys'> & { sessions: SessionIssuer }) {
  /** A new challenge for a person who gave the right password; only the token's hash is stored. */
  async function challenge(userId: string): Promise<MfaChallenge> {
    const token = randomToken();
    const expiresAt = Math.floor(Date.now() / 1000) + MFA.challengeTtlSeconds;
    // The challenge offers the person's own factors; recovery codes always.
    const methods: MfaMethod[] = [];
    if (await factors.hasConfirmedTotp(db, userId)) methods.push('totp');
    methods.push('recovery_code');
    if (await passkeys.hasPasskey(db, userId)) methods.push('passkey');
    await db.transaction().execute(async (trx) => {
      // The person's spent challenges are of no more use: each new one clears them.
      await trx
        .deleteFrom('sign_in_challenges')
        .where('user_id', '=', userId)
        .where((eb) => eb.or([eb('used_at', 'is not', null), eb('expires_at', '<=', sql<string>`now()`)]))
        .execute();
      await trx
        .insertInto('sign_in_challenges')
        .values({ token_hash: hashToken(token), user_id: userId, expires_at: new Date(expiresAt * 1000) })
        .execute();
    });
    return { mfa_required: true, challenge_token: token, expires_at: expiresAt, methods };
  }

  /**
   * Answers a challenge. The challenge row is locked, so concurrent answers take turns: one
   * right code starts one session. A wrong code is counted on the challenge and against the
   * person's allowance, and audited; the last one the challenge takes voids it. The session
   * starts here, as a password-only sign-in starts it.
   */
  async function answer(body: SecondFactorBody, client: ClientInfo): Promise<IssuedSession> {
    const tokenHash = hashToken(body.challenge_token);
    const outcome = await db.transaction().execute(async (trx) => {
      const row = await trx
        .selectFrom('sign_in_challenges as c')
        .innerJoin('users as u', 'u.id', 'c.user_id')
        .innerJoin('organizations as o', 'o.id', 'u.organization_id')
        .select([
          'c.user_id',
          'c.failures',
          'c.used_at',
          sql<boolean>`c.expires_at <= now()`.as('expired'),
          'u.status',
          'u.deleted_at',
          'u.organization_id',
          'o.deleted_at as org_deleted_at',
        ])
        .where('c.token_hash', '=', tokenHash)
        .forUpdate('c')
        .executeTakeFirst();
      if (!row || row.used_at || row.expired || row.failures >= MFA.attemptsPerChallenge) return { kind: 'expired' } as const;
      if (row.status !== 'active' || row.deleted_at || row.org_deleted_at) return { kind: 'inactive' } as const;
      // Single sign-on enforced since the password was checked: the challenge no longer leads anywhere.
      if (await ssoEnforcedFor(trx, row.user_id)) return { kind: 'sso' } as const;
      await factors.admit(trx, row.user_id);
      // A passkey answers the passkey options asked for this very challenge, with the person's own passkey.
      const method =
        body.method === 'passkey'
          ? (await passkeys.verifyAssertion(trx, 'second_factor', { userId: row.user_id, signInTokenHash: tokenHash }, body.response))
            ? ('passkey' as const)
            : null
          : await factors.checkCode(trx, row.user_id, body.code, body.method);
      if (!method) {
        const failures = row.failures + 1;
        const voided = failures >= MFA.attemptsPerChallenge;
        await trx
          .updateTable('sign_in_challenges')
          .set({ failures, ...(voided && { used_at: sql`now()` }) })
          .where('token_hash', '=', tokenHash)
          .execute();
        await factors.countWrong(trx, row.user_id);
        // Whoever typed the code is not known to be the person: nobody is named as the actor.
        await writeAudit(trx, {
          actorUserId: null,
          organizationId: row.organization_id,
          action: 'auth.mfa_challenge_failed',
          targetType: 'user',
          targetId: row.user_id,
          details: { method: body.method, failures },
          ip: client.ip,
          requestId: client.requestId,
        });
        return { kind: voided ? 'expired' : body.method === 'passkey' ? 'refused' : 'wrong' } as const;
      }
      await trx.updateTable('sign_in_challenges').set({ used_at: sql`now()` }).where('token_hash', '=', tokenHash).execute();
      const session = await startSession(trx, row.user_id, client);
      await writeAudit(trx, {
        actorUserId: row.user_id,
        organizationId: row.organization_id,
        action: 'auth.mfa_sign_in',
        targetType: 'user',
        targetId: row.user_id,
        details: { method },
        ip: client.ip,
        requestId: client.requestId,
      });
      return { kind: 'session', session } as const;
    });
    switch (outcome.kind) {
      case 'session':
        return outcome.session;
      case 'wrong':
        throw new UnauthorizedError(MESSAGES.auth.codeWrong, CODE_WRONG);
      case 'refused':
        throw new UnauthorizedError(MESSAGES.auth.passkeyRefused, PASSKEY_REFUSED);
      case 'inactive':
        throw new UnauthorizedError(MESSAGES.auth.accountInactive, 'account_inactive');
      case 'sso':
        throw new SsoRequiredError();
      case 'expired':
        throw new UnauthorizedError(MESSAGES.auth.challengeExpired, CHALLENGE_EXPIRED);
    }
  }

  return { challenge, answer };
}
