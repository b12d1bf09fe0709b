import { sql } from 'kysely';
import { MESSAGES, MFA, type AuthenticationOptions, type AuthenticationResponse } from '@console/domain';
import { writeAudit } from '../../lib/audit.ts';
import { UnauthorizedError } from '../../lib/errors.ts';
import { hashToken } from '../../lib/secrets.ts';
import { SsoRequiredError, ssoEnforcedFor } from '../../lib/sso-enforcement.ts';
import type { ClientInfo } from '../../lib/request-info.ts';
import type { AuthDeps, IssuedSession, SessionIssuer } from './queries.ts';
import { CHALLENGE_EXPIRED, PASSKEY_REFUSED } from './second-factor.ts';

/**
 * Passkeys at the sign-in: the options a browser signs, for a sign-in challenge's second step
 * (bound to that challenge and its person's passkeys) or passwordless (any passkey, which then
 * names its person, with the person verified on the device); and the passwordless sign-in.
 */
export function createPasskeySignIn({
  db,
  factors,
  passkeys,
  sessions: { startSession },
}: Pick<AuthDeps, 'db' | 'factors' | 'passkeys'> & { sessions: SessionIssuer }) {
  /** Options for a live sign-in challenge of a person with a passkey (401 otherwise), or passwordless without a token. */
  async function options(challengeToken: string | undefined): Promise<AuthenticationOptions> {
    if (challengeToken === undefined) return passkeys.authenticationOptions(db, 'passwordless', {});
    const tokenHash = hashToken(challengeToken);
    return db.transaction().execute(async (trx) => {
      const row = await trx
        .selectFrom('sign_in_challenges')
        .select(['user_id'])
        .where('token_hash', '=', tokenHash)
        .where('used_at', 'is', null)
        .where('expires_at', '>', sql<string>`now()`)
        .where('failures', '<', MFA.attemptsPerChallenge)
        .executeTakeFirst();
      if (!row || !(await passkeys.hasPasskey(trx, row.user_id))) {
        throw new UnauthorizedError(MESSAGES.auth.challengeExpired, CHALLENGE_EXPIRED);
      }
      return passkeys.authenticationOptions(trx, 'second_factor', { userId: row.user_id, signInTokenHash: tokenHash });
    });
  }

  /**
   * A passwordless sign-in: the passkey's answer to passwordless options starts a session of its
   * person, who must be active in a live organization. A refused answer is audited against the
   * passkey's person when the passkey is known, and counts against that person's allowance.
   */
  async function signIn(response: AuthenticationResponse, client: ClientInfo): Promise<IssuedSession> {
    const outcome = await db.transaction().execute(async (trx) => {
      const owner = await trx
        .selectFrom('passkeys as p')
        .innerJoin('users as u', 'u.id', 'p.user_id')
        .innerJoin('organizations as o', 'o.id', 'u.organization_id')
        .select(['u.id', 'u.status', 'u.deleted_at', 'u.organization_id', 'o.deleted_at as org_deleted_at'])
        .where('p.credential_id', '=', response.id)
        .executeTakeFirst();
      if (owner) await factors.admit(trx, owner.id);
      const used = await passkeys.verifyAssertion(trx, 'passwordless', {}, response);
      if (!used || !owner) {
        // A passkey nobody has names nobody: there is no one to record it against.
        if (!owner) return { kind: 'refused' } as const;
        await factors.countWrong(trx, owner.id);
        // Whoever holds the device is not known to be the person: nobody is named as the actor.
        await writeAudit(trx, {
          actorUserId: null,
          organizationId: owner.organization_id,
          action: 'auth.mfa_challenge_failed',
          targetType: 'user',
          targetId: owner.id,
          details: { method: 'passkey', passwordless: true },
          ip: client.ip,
          requestId: client.requestId,
        });
        return { kind: 'refused' } as const;
      }
      if (owner.status !== 'active' || owner.deleted_at || owner.org_deleted_at) return { kind: 'inactive' } as const;
      if (await ssoEnforcedFor(trx, owner.id)) return { kind: 'sso' } as const;
      const session = await startSession(trx, owner.id, client, 'passkey');
      await writeAudit(trx, {
        actorUserId: owner.id,
        organizationId: owner.organization_id,
        action: 'auth.mfa_sign_in',
        targetType: 'user',
        targetId: owner.id,
        details: { method: 'passkey', passwordless: true, passkey_id: used.passkeyId },
        ip: client.ip,
        requestId: client.requestId,
      });
      return { kind: 'session', session } as const;
    });
    if (outcome.kind === 'session') return outcome.session;
    if (outcome.kind === 'inactive') throw new UnauthorizedError(MESSAGES.auth.accountInactive, 'account_inactive');
    if (outcome.kind === 'sso') throw new SsoRequiredError();
    throw new UnauthorizedError(MESSAGES.auth.passkeyRefused, PASSKEY_REFUSED);
  }

  return { options, signIn };
}
