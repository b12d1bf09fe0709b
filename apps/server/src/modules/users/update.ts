import { sql } from 'kysely';
import {
  ROLE_RANK,
  isRoleValidForOrgType,
  mayGrantRole,
  roleRank,
  type UpdateMeInput,
  type UpdateUserInput,
  type UserProfile,
} from '@console/domain';
import { auditAction } from '../../lib/audit.ts';
import { requirePermission } from '../../lib/authorize.ts';
import type { Caller } from '../../lib/caller.ts';
import { ForbiddenError, RuleError } from '../../lib/errors.ts';
import type { ClientInfo } from '../../lib/request-info.ts';
import {
  endAccess,
  isActiveAdmin,
  isAdminRole,
  m,
  requireAnotherAdmin,
  requireManageable,
  requireRankWithin,
  type UserReads,
  type UsersDeps,
} from './queries.ts';

/** Edits of a person: one's own profile, someone within reach, a role, a deactivation. */
export function createUserUpdate({ db, reads: { visibleUser, getProfile } }: Pick<UsersDeps, 'db'> & { reads: UserReads }) {
  /**
   * Edits someone: anyone edits themselves; editing another person takes a manager or
   * above, within reach, and never someone of a higher rank; only holders of users.delete
   * change a status, never their own. Leaving active status ends every session.
   */
  async function update(caller: Caller, id: string, input: UpdateUserInput, info: ClientInfo): Promise<UserProfile> {
    return db.transaction().execute(async (trx) => {
      const target = await visibleUser(caller, id, trx);
      const self = target.id === caller.userId;
      if (!self) {
        if (roleRank(caller.role) < ROLE_RANK.manager) throw new ForbiddenError(m.onlySelf);
        requireManageable(caller, target);
        requireRankWithin(caller, target);
      }
      if (input.status !== undefined && input.status !== target.status) {
        if (self) throw new ForbiddenError(m.cannotDeactivateSelf);
        requirePermission(caller, 'users.delete');
        if (input.status === 'inactive' && isActiveAdmin(target)) await requireAnotherAdmin(trx, target.organization_id, target.id);
      }
      await trx
        .updateTable('users')
        .set({ ...input, updated_at: sql`now()` })
        .where('id', '=', target.id)
        .execute();
      if (input.status !== undefined && input.status !== 'active') await endAccess(trx, target.id);
      const action = input.status === 'inactive' && target.status !== 'inactive' ? 'user.deactivate' : 'user.update';
      await auditAction(trx, caller, info, {
        organizationId: target.organization_id,
        action,
        targetType: 'user',
        targetId: target.id,
        details: { changes: input },
      });
      return getProfile(target.id, trx);
    });
  }

  async function updateMe(caller: Caller, input: UpdateMeInput, info: ClientInfo): Promise<UserProfile> {
    return db.transaction().execute(async (trx) => {
      await trx
        .updateTable('users')
        .set({ ...input, updated_at: sql`now()` })
        .where('id', '=', caller.userId)
        .execute();
      await auditAction(trx, caller, info, {
        organizationId: caller.organization.id,
        action: 'user.update',
        targetType: 'user',
        targetId: caller.userId,
        details: { changes: input },
      });
      return getProfile(caller.userId, trx, caller.sessionMethod);
    });
  }

  /** Deactivation: the user can no longer sign in, and every session they held has ended. */
  async function deactivate(caller: Caller, id: string, info: ClientInfo): Promise<UserProfile> {
    if (id === caller.userId) throw new ForbiddenError(m.cannotDeactivateSelf);
    return update(caller, id, { status: 'inactive' }, info);
  }

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
      // Becoming an admin starts the grace of the house's requirement of a factor for every admin anew.
      const promoted = !isAdminRole(target.role) && isAdminRole(role);
      await trx
        .updateTable('users')
        .set({ role, updated_at: sql`now()`, ...(promoted && { admin_since: sql`now()` }) })
        .where('id', '=', target.id)
        .execute();
      await auditAction(trx, caller, info, {
        organizationId: target.organization_id,
        action: 'user.role_change',
        targetType: 'user',
        targetId: target.id,
        details: { before: target.role, after: role },
      });
      return getProfile(target.id, trx);
    });
  }

  return { update, updateMe, deactivate, changeRole };
}
