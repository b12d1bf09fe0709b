import { sql } from 'kysely';
import { isRoleValidForOrgType, mayGrantRole, type UserProfile } from '@console/domain';
import { writeAudit } from '../../lib/audit.ts';
import type { Caller } from '../../lib/caller.ts';
import { ForbiddenError, RuleError } from '../../lib/errors.ts';
import type { ClientInfo } from '../../lib/request-info.ts';
import {
  isActiveAdmin,
  isAdminRole,
  m,
  requireAnotherAdmin,
  requireManageable,
  requireRankWithin,
  type UserReads,
  type UsersDeps,
} from './queries.ts';

export function createChangeRole({ db, reads: { visibleUser, getProfile } }: Pick<UsersDeps, 'db'> & { reads: UserReads }) {
  /** A role of the user's organization type, never one's own, never the last admin's. */
  async function changeRole(caller: Caller, id: string, role: string, info: ClientInfo): Promise<UserProfile> {
    return db.transaction().execute(async (trx) => {
      const target = await visibleUser(caller, id, trx);
      if (target.id === caller.userId) throw new ForbiddenError(m.cannotChangeOwnRole);
      requireManageable(caller, target);
      requireRankWithin(caller, target);
      if (!isRoleValidForOrgType(role, target.org_type)) throw new RuleError(m.roleNotForOrgType(role, target.org_type));
      if (!mayGrantRole(caller, role)) throw new ForbiddenError(m.roleAboveOwn);
      if (isActiveAdmin(target) && !isAdminRole(role)) await requireAnotherAdmin(trx, target.organization_id, target.id);
      await trx.updateTable('users').set({ role, updated_at: sql`now()` }).where('id', '=', target.id).execute();
      await writeAudit(trx, {
        actorUserId: caller.userId,
        organizationId: target.organization_id,
        action: 'user.role_change',
        targetType: 'user',
        targetId: target.id,
        details: { before: target.role, after: role },
        ...info,
      });
      return getProfile(target.id, trx);
    });
  }

  return { changeRole };
}
