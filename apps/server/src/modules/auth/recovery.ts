import { sql } from 'kysely';
import { MESSAGES, SESSION } from '@console/domain';
import { writeAudit } from '../../lib/audit.ts';
import { BadRequestError } from '../../lib/errors.ts';
import { hashPassword, hashToken, randomToken } from '../../lib/secrets.ts';
import type { ClientInfo } from '../../lib/request-info.ts';
import { revokeSessions, voidResetLinks } from '../../lib/access.ts';
import { ssoEnforcedFor } from '../../lib/sso-enforcement.ts';
import type { AuthDeps } from './queries.ts';

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

/** A forgotten password: a reset link mailed in the background, then a new password set with it. */
export function createRecovery({ db, users, mailer, appUrl, guesses }: Pick<AuthDeps, 'db' | 'users' | 'mailer' | 'appUrl' | 'guesses'>) {
  /** Work started after its request was answered, awaited (for a while) when the app closes. */
  const background = new Set<Promise<void>>();

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
      // Their organization signs them in through its provider: a password would not let them in.
      if (await ssoEnforcedFor(db, account.id)) return;
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

  /**
   * Starts mailing a reset link in the background and returns at once: the caller's
   * answer is the same, and takes the same time, whether or not the account exists and
   * whether or not the mail can be sent. Call it once the answer has been sent.
   */
  function requestRecovery(email: string, client: ClientInfo, log: FailureLog): void {
    const work = sendRecoveryLink(email, client, log);
    background.add(work);
    void work.finally(() => background.delete(work));
  }

  /** Waits for background work still running (at most a few seconds), before the database closes. */
  async function settle(): Promise<void> {
    if (background.size === 0) return;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, BACKGROUND_SETTLE_MS);
      timer.unref();
    });
    await Promise.race([Promise.allSettled([...background]), timeout]);
    clearTimeout(timer);
  }

  /** Sets a new password with a reset token; every session and every other reset link of the user ends. */
  async function resetPassword(token: string, password: string, client: ClientInfo): Promise<void> {
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
      // A link mailed before single sign-on was enforced sets no password after it.
      if (await ssoEnforcedFor(trx, row.user_id)) throw new BadRequestError(MESSAGES.identity.resetDisabled);
      await users.setPasswordHash(trx, row.user_id, passwordHash);
      await voidResetLinks(trx, row.user_id);
      await revokeSessions(trx, row.user_id, 'password reset');
      const person = await trx
        .selectFrom('users')
        .select(['organization_id', 'email'])
        .where('id', '=', row.user_id)
        .executeTakeFirstOrThrow();
      // Whoever holds the mailbox may sign in again at once, from anywhere.
      await guesses.ended(person.email, trx);
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
  }

  return { requestRecovery, settle, resetPassword };
}
