import { sql } from 'kysely';
import { MESSAGES, type MfaChallenge } from '@console/domain';
import { writeAudit } from '../../lib/audit.ts';
import { UnauthorizedError } from '../../lib/errors.ts';
import { hashToken, verifyPassword } from '../../lib/secrets.ts';
import { SsoRequiredError, ssoEnforcedFor } from '../../lib/sso-enforcement.ts';
import type { Caller } from '../../lib/caller.ts';
import type { ClientInfo } from '../../lib/request-info.ts';
import type { AuthDeps, IssuedSession, SessionIssuer } from './queries.ts';

export function createSignIn({
  db,
  users,
  guesses,
  factors,
  passkeys,
  sessions: { startSession },
  challenge,
}: Pick<AuthDeps, 'db' | 'users' | 'guesses' | 'factors' | 'passkeys'> & {
  sessions: SessionIssuer;
  /** The challenge a person with a second factor gets instead of a session. */
  challenge: (userId: string) => Promise<MfaChallenge>;
}) {
  /**
   * Unknown e-mail and wrong password take the same path and give the same answer. An e-mail
   * with a run of wrong passwords from anywhere waits first (429), before its password is checked.
   * A person with an authenticator app or a passkey gets a challenge, not a session: the session starts
   * once a second factor answers it.
   */
  async function signIn(email: string, password: string, client: ClientInfo): Promise<IssuedSession | MfaChallenge> {
    const admission = await guesses.admit(email, client.ip);
    const account = await users.findCredentials(email);
    const valid = await verifyPassword(account?.password_hash ?? null, password);
    if (valid) await guesses.ended(email);
    else await guesses.failed(email, admission);
    if (!account || !valid || account.status !== 'active' || account.deleted_at || account.org_deleted_at) {
      // Recorded in the account's organization (none for an unknown e-mail); the person who
      // typed the password is not known, so nobody is named as the actor.
      await writeAudit(db, {
        actorUserId: null,
        organizationId: account?.organization_id ?? null,
        action: 'auth.sign_in_failed',
        targetType: 'user',
        targetId: account?.id ?? null,
        details: { email: account?.email ?? email.slice(0, 320), reason: !account || !valid ? 'invalid_credentials' : 'account_inactive' },
        ip: client.ip,
        requestId: client.requestId,
      });
      if (!account || !valid) throw new UnauthorizedError(MESSAGES.auth.invalidCredentials, 'invalid_credentials');
      throw new UnauthorizedError(MESSAGES.auth.accountInactive, 'account_inactive');
    }
    // Checked once the password is known to be right, so a wrong one answers as any other.
    if (await ssoEnforcedFor(db, account.id)) {
      await writeAudit(db, {
        actorUserId: null,
        organizationId: account.organization_id,
        action: 'auth.sign_in_failed',
        targetType: 'user',
        targetId: account.id,
        details: { email: account.email, reason: 'sso_required' },
        ip: client.ip,
        requestId: client.requestId,
      });
      throw new SsoRequiredError();
    }
    if ((await factors.hasConfirmedTotp(db, account.id)) || (await passkeys.hasPasskey(db, account.id))) return challenge(account.id);
    return db.transaction().execute(async (trx) => {
      const session = await startSession(trx, account.id, client);
      await writeAudit(trx, {
        actorUserId: account.id,
        organizationId: account.organization_id,
        action: 'auth.sign_in',
        targetType: 'user',
        targetId: account.id,
        ip: client.ip,
        requestId: client.requestId,
      });
      return session;
    });
  }

  /** Ends the session named by the refresh cookie, or by the access token. */
  async function signOut(refreshToken: string | undefined, caller: Caller | null): Promise<void> {
    let sessionId = caller?.sessionId ?? null;
    if (!sessionId && refreshToken) {
      const row = await db
        .selectFrom('refresh_tokens')
        .select('session_id')
        .where('token_hash', '=', hashToken(refreshToken))
        .executeTakeFirst();
      sessionId = row?.session_id ?? null;
    }
    if (!sessionId) return;
    await db
      .updateTable('refresh_sessions')
      .set({ revoked_at: sql`now()`, revoked_reason: 'signed out' })
      .where('id', '=', sessionId)
      .where('revoked_at', 'is', null)
      .execute();
  }

  return { signIn, signOut };
}
