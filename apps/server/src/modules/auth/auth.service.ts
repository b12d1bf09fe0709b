import { sql, type Kysely, type Transaction } from 'kysely';
import { MESSAGES, SESSION, type Session } from '@console/domain';
import type { DB, Executor } from '../../db/schema.ts';
import { writeAudit } from '../../lib/audit.ts';
import { BadRequestError, UnauthorizedError } from '../../lib/errors.ts';
import type { Mailer } from '../../lib/mail.ts';
import { hashPassword, hashToken, randomToken, verifyPassword } from '../../lib/secrets.ts';
import type { TokenService } from '../../lib/tokens.ts';
import type { Caller } from '../../lib/caller.ts';
import type { ClientInfo } from '../../lib/request-info.ts';
import type { UsersService } from '../users/users.service.ts';

/** A session for the response body plus the refresh token for the httpOnly cookie. */
export interface IssuedSession {
  session: Session;
  refreshToken: string;
}

interface Deps {
  db: Kysely<DB>;
  tokens: TokenService;
  users: UsersService;
  mailer: Mailer;
  appUrl: string;
}

const refreshExpiry = () => new Date(Date.now() + SESSION.refreshTokenTtlSeconds * 1000);

/**
 * For this long after a refresh token was rotated it may be presented again and gets a new
 * token of the same session: two tabs refreshing with one cookie at once both stay signed
 * in. Presented later, it counts as stolen and the whole session ends.
 */
export const REFRESH_REUSE_GRACE_SECONDS = 10;

/** How long closing the app waits for recovery mail still being sent. */
const BACKGROUND_SETTLE_MS = 5_000;

/** Where background work reports a failure (the request's logger). */
export interface FailureLog {
  error(details: object, message: string): void;
}

/** A failure described for the log: its kind and message, with the secret it might quote blanked. */
function describeFailure(error: unknown, secret: string | null) {
  const blank = (text: string) => (secret ? text.replaceAll(secret, '[redacted]') : text);
  if (!(error instanceof Error)) return { message: blank(String(error)) };
  const code = (error as NodeJS.ErrnoException).code;
  return { name: error.name, ...(typeof code === 'string' && { code }), message: blank(error.message) };
}

export function createAuthService({ db, tokens, users, mailer, appUrl }: Deps) {
  /** Work started after its request was answered, awaited (for a while) when the app closes. */
  const background = new Set<Promise<void>>();
  async function issue(executor: Executor, userId: string, sessionId: string): Promise<IssuedSession> {
    const refreshToken = randomToken();
    await executor
      .insertInto('refresh_tokens')
      .values({ token_hash: hashToken(refreshToken), session_id: sessionId })
      .execute();
    const user = await users.getProfile(userId, executor);
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

  /** A new session (refresh-token family) for a user who just proved who they are. */
  async function startSession(trx: Transaction<DB>, userId: string, client: ClientInfo): Promise<IssuedSession> {
    await users.stampLastLogin(trx, userId);
    const session = await trx
      .insertInto('refresh_sessions')
      .values({
        user_id: userId,
        expires_at: refreshExpiry(),
        ip: client.ip,
        user_agent: client.userAgent?.slice(0, 300) ?? null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return issue(trx, userId, session.id);
  }

  async function revokeSessions(
    executor: Executor,
    userId: string,
    reason: string,
    exceptSessionId?: string,
  ) {
    let query = executor
      .updateTable('refresh_sessions')
      .set({ revoked_at: sql`now()`, revoked_reason: reason })
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null);
    if (exceptSessionId) query = query.where('id', '<>', exceptSessionId);
    await query.execute();
  }

  /** A new password voids every reset link of the account that is still unused. */
  async function voidResetLinks(executor: Executor, userId: string) {
    await executor
      .updateTable('one_time_tokens')
      .set({ used_at: sql`now()` })
      .where('user_id', '=', userId)
      .where('purpose', '=', 'password_reset')
      .where('used_at', 'is', null)
      .execute();
  }

  /**
   * Mails a reset link to an active account, at the address stored for it (not as typed).
   * Runs after the answer was sent; a failure is logged without the link and never reaches
   * the caller, who was told the same thing whether or not the account exists.
   */
  async function sendRecoveryLink(email: string, client: ClientInfo, log: FailureLog): Promise<void> {
    let token: string | null = null;
    try {
      const account = await users.findCredentials(email);
      if (!account || account.status !== 'active' || account.deleted_at || account.org_deleted_at) return;
      token = randomToken();
      await db
        .insertInto('one_time_tokens')
        .values({
          token_hash: hashToken(token),
          purpose: 'password_reset',
          user_id: account.id,
          expires_at: new Date(Date.now() + SESSION.resetTokenTtlSeconds * 1000),
        })
        .execute();
      await writeAudit(db, {
        actorUserId: account.id,
        organizationId: account.organization_id,
        action: 'auth.recovery_requested',
        targetType: 'user',
        targetId: account.id,
        ip: client.ip,
        requestId: client.requestId,
      });
      const link = `${appUrl}/update-password#access_token=${token}&type=recovery`;
      await mailer.send({
        to: account.email,
        subject: 'Reset your password',
        text:
          'Someone asked to reset the password of your account.\n\n' +
          `Open this link within one hour to choose a new password:\n${link}\n\n` +
          'If it was not you, ignore this message: your password stays as it is.',
        link,
      });
    } catch (error) {
      log.error({ requestId: client.requestId, error: describeFailure(error, token) }, 'password recovery mail failed');
    }
  }

  return {
    /** Unknown e-mail and wrong password take the same path and give the same answer. */
    async signIn(email: string, password: string, client: ClientInfo): Promise<IssuedSession> {
      const account = await users.findCredentials(email);
      const valid = await verifyPassword(account?.password_hash ?? null, password);
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
    },

    startSession,

    /**
     * Rotates a refresh token. A token presented again within the grace period after its
     * rotation (two tabs refreshing at once) gets a new token of the same session; later,
     * it means the token leaked or was replayed, and the whole session is revoked, so the
     * thief's copy dies too.
     */
    async refresh(refreshToken: string | undefined): Promise<IssuedSession> {
      if (!refreshToken) throw new UnauthorizedError(MESSAGES.auth.sessionExpired, 'no_refresh_token');
      const result = await db.transaction().execute(async (trx) => {
        const row = await trx
          .selectFrom('refresh_tokens as t')
          .innerJoin('refresh_sessions as s', 's.id', 't.session_id')
          .innerJoin('users as u', 'u.id', 's.user_id')
          .innerJoin('organizations as o', 'o.id', 'u.organization_id')
          .select([
            't.used_at',
            sql<boolean>`t.used_at > now() - ${REFRESH_REUSE_GRACE_SECONDS} * interval '1 second'`.as('within_grace'),
            's.id as session_id',
            's.user_id',
            's.revoked_at',
            's.expires_at',
            'u.status',
            'u.deleted_at',
            'o.deleted_at as org_deleted_at',
          ])
          .where('t.token_hash', '=', hashToken(refreshToken))
          .forUpdate('t')
          .executeTakeFirst();
        if (!row) return null;
        if (row.used_at && !row.within_grace) {
          await trx
            .updateTable('refresh_sessions')
            .set({ revoked_at: sql`now()`, revoked_reason: 'refresh token reused' })
            .where('id', '=', row.session_id)
            .where('revoked_at', 'is', null)
            .execute();
          return 'reused' as const;
        }
        if (row.revoked_at || new Date(row.expires_at) < new Date()) return null;
        if (row.status !== 'active' || row.deleted_at || row.org_deleted_at) return null;
        // Within the grace period the token keeps its first use time, so the period never grows.
        if (!row.used_at) {
          await trx
            .updateTable('refresh_tokens')
            .set({ used_at: sql`now()` })
            .where('token_hash', '=', hashToken(refreshToken))
            .execute();
        }
        await trx
          .updateTable('refresh_sessions')
          .set({ last_used_at: sql`now()` })
          .where('id', '=', row.session_id)
          .execute();
        return issue(trx, row.user_id, row.session_id);
      });
      if (result === null || result === 'reused') {
        throw new UnauthorizedError(MESSAGES.auth.sessionExpired, 'invalid_refresh_token');
      }
      return result;
    },

    /** Ends the session named by the refresh cookie, or by the access token. */
    async signOut(refreshToken: string | undefined, caller: Caller | null): Promise<void> {
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
    },

    /**
     * Starts mailing a reset link in the background and returns at once: the caller's
     * answer is the same, and takes the same time, whether or not the account exists and
     * whether or not the mail can be sent. Call it once the answer has been sent.
     */
    requestRecovery(email: string, client: ClientInfo, log: FailureLog): void {
      const work = sendRecoveryLink(email, client, log);
      background.add(work);
      void work.finally(() => background.delete(work));
    },

    /** Waits for background work still running (at most a few seconds), before the database closes. */
    async settle(): Promise<void> {
      if (background.size === 0) return;
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, BACKGROUND_SETTLE_MS);
        timer.unref();
      });
      await Promise.race([Promise.allSettled([...background]), timeout]);
      clearTimeout(timer);
    },

    /** Sets a new password with a reset token; every session and every other reset link of the user ends. */
    async resetPassword(token: string, password: string, client: ClientInfo): Promise<void> {
      const passwordHash = await hashPassword(password);
      await db.transaction().execute(async (trx) => {
        const row = await trx
          .updateTable('one_time_tokens')
          .set({ used_at: sql`now()` })
          .where('token_hash', '=', hashToken(token))
          .where('purpose', '=', 'password_reset')
          .where('used_at', 'is', null)
          .where('expires_at', '>', sql<string>`now()`)
          .returning('user_id')
          .executeTakeFirst();
        if (!row) throw new BadRequestError(MESSAGES.auth.invalidResetLink);
        await users.setPasswordHash(trx, row.user_id, passwordHash);
        await voidResetLinks(trx, row.user_id);
        await revokeSessions(trx, row.user_id, 'password reset');
        const person = await trx.selectFrom('users').select('organization_id').where('id', '=', row.user_id).executeTakeFirstOrThrow();
        await writeAudit(trx, {
          actorUserId: row.user_id,
          organizationId: person.organization_id,
          action: 'auth.password_reset',
          targetType: 'user',
          targetId: row.user_id,
          ip: client.ip,
          requestId: client.requestId,
        });
      });
    },

    /**
     * A signed-in user changes their password, proving they know the current one (a stolen
     * access token alone does not take the account over); their other sessions and every
     * unused reset link end.
     */
    async changePassword(caller: Caller, currentPassword: string, password: string, client: ClientInfo): Promise<void> {
      if (!(await verifyPassword(await users.passwordHashOf(caller.userId), currentPassword))) {
        throw new BadRequestError(MESSAGES.auth.currentPasswordWrong, { current_password: MESSAGES.auth.currentPasswordWrong });
      }
      const passwordHash = await hashPassword(password);
      await db.transaction().execute(async (trx) => {
        await users.setPasswordHash(trx, caller.userId, passwordHash);
        await voidResetLinks(trx, caller.userId);
        await revokeSessions(trx, caller.userId, 'password changed', caller.sessionId);
        await writeAudit(trx, {
          actorUserId: caller.userId,
          organizationId: caller.organization.id,
          action: 'auth.password_changed',
          targetType: 'user',
          targetId: caller.userId,
          ip: client.ip,
          requestId: client.requestId,
        });
      });
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
