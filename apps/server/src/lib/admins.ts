import { ALL_ROLES, roleLevel } from '@console/domain';
import type { Executor } from '../db/schema.ts';

/** Roles of the admin level: the people an organization's alerts and notices go to. */
export const ADMIN_ROLES = ALL_ROLES.filter((role) => roleLevel(role) === 'admin');

/** The active admins of these organizations, by e-mail. */
export function activeAdmins(
  executor: Executor,
  organizationIds: readonly string[],
): Promise<{ organization_id: string; email: string }[]> {
  if (organizationIds.length === 0) return Promise.resolve([]);
  return executor
    .selectFrom('users')
    .select(['organization_id', 'email'])
    .where('organization_id', 'in', organizationIds)
    .where('role', 'in', ADMIN_ROLES)
    .where('status', '=', 'active')
    .where('deleted_at', 'is', null)
    .orderBy('email')
    .execute();
}

/**
 * The ids of an organization's active admins, their rows locked until the transaction ends, so
 * two changes that each take an admin away (a demotion, a deactivation) cannot both think
 * another one remains.
 */
export async function lockActiveAdminIds(executor: Executor, organizationId: string): Promise<string[]> {
  const admins = await executor
    .selectFrom('users')
    .select('id')
    .where('organization_id', '=', organizationId)
    .where('status', '=', 'active')
    .where('role', 'like', '%\\_admin')
    .where('deleted_at', 'is', null)
    .orderBy('id')
    .forUpdate()
    .execute();
  return admins.map((admin) => admin.id);
}
