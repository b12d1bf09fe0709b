import { MESSAGES } from '@console/domain';
import { writeAudit } from '../../lib/audit.ts';
import type { Caller } from '../../lib/caller.ts';
import { BadRequestError } from '../../lib/errors.ts';
import { hashPassword, verifyPassword } from '../../lib/secrets.ts';
import type { ClientInfo } from '../../lib/request-info.ts';
import { revokeSessions, voidResetLinks } from '../../lib/access.ts';
import type { AuthDeps } from './queries.ts';

export function createChangePassword({ db, users }: Pick<AuthDeps, 'db' | 'users'>) {
  /**
   * A signed-in user changes their password, proving they know the current one (a stolen
   * access token alone does not take the account over); their other sessions and every
   * unused reset link end.
   */
  async function changePassword(caller: Caller, currentPassword: string, password: string, client: ClientInfo): Promise<void> {
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
  }

  return { changePassword };
}
