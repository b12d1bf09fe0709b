import { SCIM_SCHEMA, type ScimUser } from '@console/domain';
import type { Executor } from '../../db/schema.ts';
import { versionOf } from './etag.ts';

/** The people of an organization as SCIM sees them: not deleted (a deleted person is 404). */
export function usersOf(executor: Executor, organizationId: string) {
  return executor
    .selectFrom('users as u')
    .select(['u.id', 'u.email', 'u.first_name', 'u.last_name', 'u.status', 'u.role', 'u.scim_external_id', 'u.created_at', 'u.updated_at'])
    .where('u.organization_id', '=', organizationId)
    .where('u.deleted_at', 'is', null);
}

export type UserRow = Awaited<ReturnType<ReturnType<typeof usersOf>['executeTakeFirstOrThrow']>>;

export interface GroupRef {
  id: string;
  display_name: string;
}

/** The groups each of these people is a member of, by person. */
export async function groupsOfUsers(executor: Executor, organizationId: string, userIds: string[]): Promise<Map<string, GroupRef[]>> {
  const byUser = new Map<string, GroupRef[]>();
  if (userIds.length === 0) return byUser;
  const rows = await executor
    .selectFrom('scim_group_members as gm')
    .innerJoin('scim_groups as g', 'g.id', 'gm.group_id')
    .select(['gm.user_id', 'g.id', 'g.display_name'])
    .where('g.organization_id', '=', organizationId)
    .where('gm.user_id', 'in', userIds)
    .orderBy('g.display_name')
    .execute();
  for (const row of rows) byUser.set(row.user_id, [...(byUser.get(row.user_id) ?? []), { id: row.id, display_name: row.display_name }]);
  return byUser;
}

const fullName = (row: Pick<UserRow, 'first_name' | 'last_name'>) => [row.first_name, row.last_name].filter(Boolean).join(' ');

export function toScimUser(row: UserRow, groups: GroupRef[], baseUrl: string): ScimUser {
  const formatted = fullName(row);
  const resource = {
    schemas: [SCIM_SCHEMA.user],
    id: row.id,
    ...(row.scim_external_id !== null && { externalId: row.scim_external_id }),
    userName: row.email,
    name: {
      ...(row.first_name && { givenName: row.first_name }),
      ...(row.last_name && { familyName: row.last_name }),
      ...(formatted && { formatted }),
    },
    displayName: formatted || row.email,
    emails: [{ value: row.email, type: 'work', primary: true }],
    active: row.status === 'active',
    groups: groups.map((g) => ({ value: g.id, display: g.display_name, $ref: `${baseUrl}/Groups/${g.id}` })),
    meta: { resourceType: 'User' as const, created: row.created_at, lastModified: row.updated_at, location: `${baseUrl}/Users/${row.id}` },
  };
  return { ...resource, meta: { ...resource.meta, version: versionOf(resource) } };
}

/** One person of the organization as a SCIM User, or null (absent, deleted, or another organization's). */
export async function readUser(executor: Executor, organizationId: string, id: string, baseUrl: string): Promise<ScimUser | null> {
  const row = await usersOf(executor, organizationId).where('u.id', '=', id).executeTakeFirst();
  if (!row) return null;
  const groups = await groupsOfUsers(executor, organizationId, [row.id]);
  return toScimUser(row, groups.get(row.id) ?? [], baseUrl);
}
