import { sql } from 'kysely';
import { MESSAGES, scimGroupInputSchema, scimGroupRole, scimPatchOpSchema, type ScimGroup } from '@console/domain';
import type { Executor } from '../../db/schema.ts';
import { lockOrganizationScim } from '../../lib/scim-lock.ts';
import { requireScimWritable } from './auth.ts';
import type { ScimActor, ScimDeps } from './context.ts';
import { requireMatch } from './etag.ts';
import { ScimError, parseBody } from './errors.ts';
import { groupVersion, groupsOf, readGroup, type GroupRow } from './group-resource.ts';
import { displayNameOf, patchGroup, type GroupState } from './group-patch-ops.ts';
import { applyGroupRoles, inRoleGroups } from './group-roles.ts';
import { isUuid, orgIdentity, scimAudit } from './org-facts.ts';
import { textOf } from './user-patch-ops.ts';

const m = MESSAGES.identity;
/** The audit row names at most this many of the members added or removed (the counts are whole). */
const NAMED_MEMBERS = 50;

/** The role a group name gives in the token's organization; a role of another level is refused (403). */
export function roleOfName(displayName: string, actor: ScimActor): string | null {
  const role = scimGroupRole(displayName, actor.token.organization.org_type);
  if (role === 'above') throw new ScimError(403, m.scimRoleAbove);
  return role;
}

/** The group, locked for the change, with its member ids; 404 outside the organization. */
export async function lockedGroup(trx: Executor, organizationId: string, id: string): Promise<{ row: GroupRow; members: string[] }> {
  const row = isUuid(id) ? await groupsOf(trx, organizationId).where('g.id', '=', id).forUpdate().executeTakeFirst() : undefined;
  if (!row) throw new ScimError(404, m.scimGroupNotFound);
  const members = await trx.selectFrom('scim_group_members').select('user_id').where('group_id', '=', row.id).orderBy('user_id').execute();
  return { row, members: members.map((r) => r.user_id) };
}

/** Every id must be a live person of the organization: another organization's person is as unknown as nobody (400). */
async function requireMembers(trx: Executor, organizationId: string, ids: string[]) {
  if (ids.length === 0) return;
  const bad = ids.find((id) => !isUuid(id));
  if (bad) throw new ScimError(400, m.scimMemberUnknown(bad), 'invalidValue');
  const found = await trx
    .selectFrom('users')
    .select('id')
    .where('organization_id', '=', organizationId)
    .where('deleted_at', 'is', null)
    .where('id', 'in', ids)
    .execute();
  const known = new Set(found.map((r) => r.id));
  const unknown = ids.find((id) => !known.has(id));
  if (unknown) throw new ScimError(400, m.scimMemberUnknown(unknown), 'invalidValue');
}

async function requireFreeName(trx: Executor, organizationId: string, displayName: string, exceptId: string | null) {
  let query = trx
    .selectFrom('scim_groups')
    .select('id')
    .where('organization_id', '=', organizationId)
    .where('display_name', '=', displayName);
  if (exceptId) query = query.where('id', '<>', exceptId);
  if (await query.executeTakeFirst()) throw new ScimError(409, m.scimGroupExists, 'uniqueness');
}

const emailsOf = async (trx: Executor, ids: string[]) =>
  ids.length === 0
    ? []
    : (await trx.selectFrom('users').select('email').where('id', 'in', ids.slice(0, NAMED_MEMBERS)).orderBy('email').execute()).map(
        (r) => r.email,
      );

/**
 * Writes a group's new state (created when `before` is null) and the roles it gives: those
 * whose membership of a role group changed, or all its members when the group's role did,
 * get their role again from their groups. One audit row says what changed, roles included.
 */
async function commit(
  trx: Executor,
  actor: ScimActor,
  before: { row: GroupRow; state: GroupState } | null,
  after: GroupState,
): Promise<string | null> {
  const org = actor.token.organization;
  const role = roleOfName(after.displayName, actor);
  if (!before || before.state.displayName !== after.displayName)
    await requireFreeName(trx, org.id, after.displayName, before?.row.id ?? null);
  const was = new Set(before?.state.members ?? []);
  const now = new Set(after.members);
  const added = after.members.filter((id) => !was.has(id));
  const removed = [...was].filter((id) => !now.has(id));
  await requireMembers(trx, org.id, added);
  const renamed = before !== null && before.state.displayName !== after.displayName;
  const externalChanged = before !== null && before.state.externalId !== after.externalId;
  if (before && !renamed && !externalChanged && added.length === 0 && removed.length === 0) return null;
  const roleBefore = before?.row.role ?? null;
  const affected = roleBefore === role ? (role === null ? [] : [...added, ...removed]) : [...new Set([...was, ...now])];
  const wereInRoleGroups = await inRoleGroups(trx, org.id, affected);
  let id: string;
  if (before) {
    id = before.row.id;
    await trx
      .updateTable('scim_groups')
      .set({ display_name: after.displayName, external_id: after.externalId, role, version: sql`version + 1`, updated_at: sql`now()` })
      .where('id', '=', id)
      .where('organization_id', '=', org.id)
      .execute();
  } else {
    id = (
      await trx
        .insertInto('scim_groups')
        .values({ organization_id: org.id, display_name: after.displayName, external_id: after.externalId, role })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  }
  if (removed.length > 0) await trx.deleteFrom('scim_group_members').where('group_id', '=', id).where('user_id', 'in', removed).execute();
  if (added.length > 0)
    await trx
      .insertInto('scim_group_members')
      .values(added.map((user_id) => ({ group_id: id, user_id })))
      .execute();
  const roleChanges = await applyGroupRoles(trx, org, await orgIdentity(trx, org), affected, wereInRoleGroups);
  await scimAudit(trx, actor, {
    action: 'scim.group_changed',
    targetType: 'scim_group',
    targetId: id,
    details: {
      change: before ? 'updated' : 'created',
      group: after.displayName,
      role,
      ...(renamed && { renamed: { before: before.state.displayName, after: after.displayName } }),
      ...(roleBefore !== role && before && { role_before: roleBefore }),
      added: added.length,
      removed: removed.length,
      added_emails: await emailsOf(trx, added),
      removed_emails: await emailsOf(trx, removed),
      role_changes: roleChanges,
    },
  });
  return id;
}

const stateOf = (row: GroupRow, members: string[]): GroupState => ({ displayName: row.display_name, externalId: row.external_id, members });

export function createGroupWrites({ db, baseUrl }: ScimDeps) {
  const answer = async (trx: Executor, actor: ScimActor, id: string): Promise<ScimGroup> => {
    const group = await readGroup(trx, actor.token.organization.id, id, baseUrl);
    if (!group) throw new ScimError(404, m.scimGroupNotFound);
    return group;
  };

  async function create(actor: ScimActor, body: unknown): Promise<ScimGroup> {
    requireScimWritable(actor);
    const input = parseBody(scimGroupInputSchema, body);
    const state: GroupState = {
      displayName: displayNameOf(input.displayName),
      externalId: textOf('externalId', input.externalId, 500),
      members: [...new Set((input.members ?? []).map((member) => member.value))],
    };
    roleOfName(state.displayName, actor);
    return db.transaction().execute(async (trx) => {
      await lockOrganizationScim(trx, actor.token.organization.id);
      const id = await commit(trx, actor, null, state);
      return answer(trx, actor, id!);
    });
  }

  async function change(actor: ScimActor, id: string, ifMatch: string | string[] | undefined, next: (current: GroupState) => GroupState) {
    requireScimWritable(actor);
    return db.transaction().execute(async (trx) => {
      await lockOrganizationScim(trx, actor.token.organization.id);
      const { row, members } = await lockedGroup(trx, actor.token.organization.id, id);
      requireMatch(ifMatch, groupVersion(row));
      const current = stateOf(row, members);
      const changed = await commit(trx, actor, { row, state: current }, next(current));
      return { group: await answer(trx, actor, row.id), changed: changed !== null };
    });
  }

  /** PUT: the name and, when given, the external id and the whole member list (members left out stay). */
  async function replace(actor: ScimActor, id: string, body: unknown, ifMatch: string | string[] | undefined) {
    const input = parseBody(scimGroupInputSchema, body);
    return change(actor, id, ifMatch, (current) => ({
      displayName: displayNameOf(input.displayName),
      externalId: input.externalId !== undefined ? textOf('externalId', input.externalId, 500) : current.externalId,
      members: input.members ? [...new Set(input.members.map((member) => member.value))] : current.members,
    }));
  }

  async function patch(actor: ScimActor, id: string, body: unknown, ifMatch: string | string[] | undefined) {
    const input = parseBody(scimPatchOpSchema, body);
    return change(actor, id, ifMatch, (current) => patchGroup(current, input.Operations, id));
  }

  return { create, replace, patch };
}
