import type { EndedSessions } from '@console/domain';
import { revokeSessions } from '../../lib/access.ts';
import { auditAction } from '../../lib/audit.ts';
import type { Caller } from '../../lib/caller.ts';
import type { ClientInfo } from '../../lib/request-info.ts';
import { requireEndAccess, type UserReads, type UsersDeps } from './queries.ts';

/**
 * An admin ends every session of a person within reach (a lost laptop, a shared account),
 * under the domain's `mayEndAccessOf` (the one rule the console shows the action by): an admin
 * of the person's organization or of any above it, never oneself (one's own other sessions are
 * ended from one's account), never a higher rank.
 * The person's access tokens stop at once; they sign in again.
 */
export function createEndSessions({ db, reads: { visibleUser } }: Pick<UsersDeps, 'db'> & { reads: UserReads }) {
  async function endSessions(caller: Caller, id: string, info: ClientInfo): Promise<EndedSessions> {
    return db.transaction().execute(async (trx) => {
      const target = await visibleUser(caller, id, trx);
      requireEndAccess(caller, target);
      const ended = await revokeSessions(trx, target.id, 'ended by an admin');
      await auditAction(trx, caller, info, {
        organizationId: target.organization_id,
        action: 'auth.sessions_ended',
        targetType: 'user',
        targetId: target.id,
        details: { count: ended, by: 'admin' },
      });
      return { ended };
    });
  }

  return { endSessions };
}
