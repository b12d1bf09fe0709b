import { sql } from 'kysely';
import { MESSAGES, roleRank, rolesForOrgType, type OrgType } from '@console/domain';
import type { Executor } from '../../db/schema.ts';
import { ScimError } from './errors.ts';
import type { OrgIdentity } from './org-facts.ts';
import { isAdminRole, requireAnotherActiveAdmin } from './user-write.ts';

export interface RoleChange {
  user_id: string;
  email: string;
  before: string;
  after: string;
}

/** Of these people, those in at least one group that gives a role (read before a change, to know who leaves every one). */
export async function inRoleGroups(trx: Executor, organizationId: string, userIds: readonly string[]): Promise<Set<string>> {
  if (userIds.length === 0) return new Set();
  const rows = await trx
    .selectFrom('scim_group_members as gm')
    .innerJoin('scim_groups as g', 'g.id', 'gm.group_id')
    .select('gm.user_id')
    .distinct()
    .where('g.organization_id', '=', organizationId)
    .where('g.role', 'is not', null)
    .where('gm.user_id', 'in', [...userIds])
    .execute();
  return new Set(rows.map((r) => r.user_id));
}

/** The highest-ranked of the roles; between equal ranks (user, support), the one the organization's roles list first. */
function highest(roles: string[], orgType: OrgType): string | null {
  const order = rolesForOrgType(orgType) as string[];
  return [...roles].sort((a, b) => roleRank(b) - roleRank(a) || order.indexOf(a) - order.indexOf(b))[0] ?? null;
}

/**
 * After a change of groups, each affected person of the organization holds the highest role
 * among their role groups; one who was in a role group and is now in none goes back to the
 * default role; one never in a role group keeps the role the console gave them. Only people
 * of the token's organization are read or written. The break-glass admin is never demoted,
 * nor the last active admin (400 `mutability`, the whole change refused).
 */
export async function applyGroupRoles(
  trx: Executor,
  org: { id: string; org_type: OrgType },
  facts: OrgIdentity,
  userIds: readonly string[],
  wereInRoleGroups: Set<string>,
): Promise<RoleChange[]> {
  if (userIds.length === 0) return [];
  const people = await trx
    .selectFrom('users')
    .select(['id', 'email', 'role', 'status'])
    .where('organization_id', '=', org.id)
    .where('deleted_at', 'is', null)
    .where('id', 'in', [...userIds])
    .orderBy('id')
    .forUpdate()
    .execute();
  const memberships = await trx
    .selectFrom('scim_group_members as gm')
    .innerJoin('scim_groups as g', 'g.id', 'gm.group_id')
    .select(['gm.user_id', 'g.role'])
    .where('g.organization_id', '=', org.id)
    .where('g.role', 'is not', null)
    .where('gm.user_id', 'in', [...userIds])
    .execute();
  const rolesOf = new Map<string, string[]>();
  for (const r of memberships) rolesOf.set(r.user_id, [...(rolesOf.get(r.user_id) ?? []), r.role!]);
  const changes: RoleChange[] = [];
  for (const person of people) {
    const roles = rolesOf.get(person.id) ?? [];
    const role = highest(roles, org.org_type) ?? (wereInRoleGroups.has(person.id) ? facts.defaultRole : person.role);
    if (role !== person.role) changes.push({ user_id: person.id, email: person.email, before: person.role, after: role });
  }
  const demoted = changes.filter((c) => isAdminRole(c.before) && !isAdminRole(c.after));
  if (demoted.some((c) => c.user_id === facts.breakGlassId)) throw new ScimError(400, MESSAGES.identity.scimBreakGlassRole, 'mutability');
  for (const change of changes) {
    const promoted = !isAdminRole(change.before) && isAdminRole(change.after);
    await trx
      .updateTable('users')
      .set({ role: change.after, updated_at: sql`now()`, ...(promoted && { admin_since: sql`now()` }) })
      .where('id', '=', change.user_id)
      .where('organization_id', '=', org.id)
      .execute();
  }
  // Checked once every role is written, so a promotion in the same change counts.
  const active = new Set(people.filter((p) => p.status === 'active').map((p) => p.id));
  if (demoted.some((c) => active.has(c.user_id))) await requireAnotherActiveAdmin(trx, org.id, []);
  return changes;
}
