import { SCIM_SCHEMA, type ScimGroup } from '@console/domain';
import type { Executor } from '../../db/schema.ts';

export function groupsOf(executor: Executor, organizationId: string) {
  return executor
    .selectFrom('scim_groups as g')
    .select(['g.id', 'g.display_name', 'g.external_id', 'g.role', 'g.version', 'g.created_at', 'g.updated_at'])
    .where('g.organization_id', '=', organizationId);
}

export type GroupRow = Awaited<ReturnType<ReturnType<typeof groupsOf>['executeTakeFirstOrThrow']>>;

export interface MemberRef {
  id: string;
  email: string;
  name: string | null;
}

/** The live members of each group, by e-mail, so answers are stable. */
export async function membersOfGroups(executor: Executor, organizationId: string, groupIds: string[]): Promise<Map<string, MemberRef[]>> {
  const byGroup = new Map<string, MemberRef[]>();
  if (groupIds.length === 0) return byGroup;
  const rows = await executor
    .selectFrom('scim_group_members as gm')
    .innerJoin('users as u', 'u.id', 'gm.user_id')
    .select(['gm.group_id', 'u.id', 'u.email', 'u.first_name', 'u.last_name'])
    .where('gm.group_id', 'in', groupIds)
    .where('u.organization_id', '=', organizationId)
    .where('u.deleted_at', 'is', null)
    .orderBy('u.email')
    .execute();
  for (const row of rows) {
    const name = [row.first_name, row.last_name].filter(Boolean).join(' ') || null;
    byGroup.set(row.group_id, [...(byGroup.get(row.group_id) ?? []), { id: row.id, email: row.email, name }]);
  }
  return byGroup;
}

/** The group's entity tag: its version, counted up by every change of its name, id or members. */
export const groupVersion = (row: Pick<GroupRow, 'version'>) => `W/"${row.version}"`;

/** A group as SCIM answers it; `members` null leaves them out (`excludedAttributes=members`). */
export function toScimGroup(row: GroupRow, members: MemberRef[] | null, baseUrl: string): ScimGroup {
  return {
    schemas: [SCIM_SCHEMA.group],
    id: row.id,
    ...(row.external_id !== null && { externalId: row.external_id }),
    displayName: row.display_name,
    ...(members && { members: members.map((p) => ({ value: p.id, display: p.name ?? p.email, $ref: `${baseUrl}/Users/${p.id}` })) }),
    meta: {
      resourceType: 'Group',
      created: row.created_at,
      lastModified: row.updated_at,
      location: `${baseUrl}/Groups/${row.id}`,
      version: groupVersion(row),
    },
  };
}

export async function readGroup(executor: Executor, organizationId: string, id: string, baseUrl: string, withMembers = true) {
  const row = await groupsOf(executor, organizationId).where('g.id', '=', id).executeTakeFirst();
  if (!row) return null;
  const members = withMembers ? ((await membersOfGroups(executor, organizationId, [row.id])).get(row.id) ?? []) : null;
  return toScimGroup(row, members, baseUrl);
}
