import { sql, type Kysely, type Transaction } from 'kysely';
import { SESSION, type Session } from '@console/domain';
import type { DB, Executor, SessionMethod } from '../../db/schema.ts';
import { hashToken, randomToken } from '../../lib/secrets.ts';
import type { Mailer } from '../../lib/mail.ts';
import type { Passkeys } from '../../lib/passkeys.ts';
import type { SecondFactors } from '../../lib/second-factor.ts';
import type { TokenService } from '../../lib/tokens.ts';
import type { ClientInfo } from '../../lib/request-info.ts';
import type { UsersService } from '../users/users.service.ts';
import type { GuessThrottle } from './guesses.ts';

/** A session for the response body plus the refresh token for the httpOnly cookie. */
export interface IssuedSession {
  session: Session;
  refreshToken: string;
}

/** What the service, and each of its use cases, is built from. */
export interface AuthDeps {
  db: Kysely<DB>;
  tokens: TokenService;
  users: UsersService;
  mailer: Mailer;
  appUrl: string;
  /** Wrong passwords for one account from every address together. */
  guesses: GuessThrottle;
  /** Authenticator apps and recovery codes, and the allowance of wrong codes. */
  factors: SecondFactors;
  /** Passkeys: a second factor, and a sign-in on their own. */
  passkeys: Passkeys;
}

const refreshExpiry = () => new Date(Date.now() + SESSION.refreshTokenTtlSeconds * 1000);

/**
 * For this long after a refresh token was rotated it may be presented again and gets a new
 * token of the same session: two tabs refreshing with one cookie at once both stay signed
 * in. Presented later, it counts as stolen and the whole session ends.
 */
export const REFRESH_REUSE_GRACE_SECONDS = 10;

/** Sessions: a new one for a user who proved who they are, and the tokens each refresh issues. */
export function createSessionIssuer({ tokens, users }: Pick<AuthDeps, 'tokens' | 'users'>) {
  /** The tokens of a session; `method` is how it began (a session begun at the provider is asked no second factor here). */
  async function issue(executor: Executor, userId: string, sessionId: string, method: SessionMethod): Promise<IssuedSession> {
    const refreshToken = randomToken();
    await executor
      .insertInto('refresh_tokens')
      .values({ token_hash: hashToken(refreshToken), session_id: sessionId })
      .execute();
    const user = await users.getProfile(userId, executor, method);
    const { token, expiresAt } = await tokens.sign({
      userId,
      email: user.email,
      sessionId,
      role: user.role,
      orgId: user.organization.id,
      orgType: user.organization.org_type,
      orgName: user.organization.name,
    });
    return {
      refreshToken,
      session: {
        access_token: token,
        token_type: 'bearer',
        expires_in: SESSION.accessTokenTtlSeconds,
        expires_at: expiresAt,
        user,
      },
    };
  }

  /**
   * A new session (refresh-token family) for a user who just proved who they are, and how:
   * enforcing single sign-on ends the sessions that did not begin at the provider.
   */
  async function startSession(
    trx: Transaction<DB>,
    userId: string,
    client: ClientInfo,
    method: SessionMethod = 'password',
  ): Promise<IssuedSession> {
    await users.stampLastLogin(trx, userId);
    const session = await trx
      .insertInto('refresh_sessions')
      .values({
        user_id: userId,
        expires_at: refreshExpiry(),
        ip: client.ip,
        user_agent: client.userAgent?.slice(0, 300) ?? null,
        method,
        // The person just proved who they are (with their second factor when they have one): a step-up at this moment.
        stepped_up_at: sql`now()`,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return issue(trx, userId, session.id, method);
  }

  return { issue, startSession };
}

export type SessionIssuer = ReturnType<typeof createSessionIssuer>;
