import { MESSAGES, scimPatchOpSchema, scimUserInputSchema, type ScimUser } from '@console/domain';
import type { Executor } from '../../db/schema.ts';
import { lockOrganizationScim } from '../../lib/scim-lock.ts';
import { requireScimWritable } from './auth.ts';
import type { ScimActor, ScimDeps } from './context.ts';
import { requireMatch } from './etag.ts';
import { ScimError, parseBody } from './errors.ts';
import { isUuid, orgIdentity } from './org-facts.ts';
import { groupsOfUsers, readUser, toScimUser, usersOf, type UserRow } from './user-resource.ts';
import { patchUser, textOf } from './user-patch-ops.ts';
import { changeUser, emailOf, stateOf, type UserState } from './user-write.ts';

/** The person, locked for the change, and their current representation (for If-Match); 404 outside the organization. */
export async function lockedUser(trx: Executor, organizationId: string, id: string, baseUrl: string) {
  const row = isUuid(id) ? await usersOf(trx, organizationId).where('u.id', '=', id).forUpdate().executeTakeFirst() : undefined;
  if (!row) throw new ScimError(404, MESSAGES.identity.scimUserNotFound);
  const groups = await groupsOfUsers(trx, organizationId, [row.id]);
  return { row, resource: toScimUser(row, groups.get(row.id) ?? [], baseUrl) };
}

/**
 * PUT and PATCH /Users/:id. PUT replaces what it names; an attribute it leaves out is not
 * asserted and stays (RFC 7644 lets a server read it so), which keeps a provider that omits
 * `active` or `externalId` from undoing them. `If-Match` must still match, else 412.
 */
export function createUserUpdate({ db, baseUrl }: ScimDeps) {
  async function change(actor: ScimActor, id: string, ifMatch: string | string[] | undefined, next: (row: UserRow) => UserState) {
    requireScimWritable(actor);
    const org = actor.token.organization;
    return db.transaction().execute(async (trx): Promise<{ user: ScimUser; outcome: string }> => {
      await lockOrganizationScim(trx, org.id);
      const { row, resource } = await lockedUser(trx, org.id, id, baseUrl);
      requireMatch(ifMatch, resource.meta.version);
      const changed = await changeUser(trx, actor, await orgIdentity(trx, org), row, next(row));
      const user = changed ? ((await readUser(trx, org.id, row.id, baseUrl)) ?? resource) : resource;
      return { user, outcome: `${changed ?? 'unchanged'} ${user.userName}` };
    });
  }

  async function replace(actor: ScimActor, id: string, body: unknown, ifMatch: string | string[] | undefined) {
    const input = parseBody(scimUserInputSchema, body);
    const email = emailOf(input.userName);
    return change(actor, id, ifMatch, (row) => {
      const current = stateOf(row);
      return {
        email,
        givenName: input.name ? textOf('name.givenName', input.name.givenName, 100) : current.givenName,
        familyName: input.name ? textOf('name.familyName', input.name.familyName, 100) : current.familyName,
        externalId: input.externalId !== undefined ? textOf('externalId', input.externalId, 500) : current.externalId,
        active: input.active ?? current.active,
      };
    });
  }

  async function patch(actor: ScimActor, id: string, body: unknown, ifMatch: string | string[] | undefined) {
    const input = parseBody(scimPatchOpSchema, body);
    return change(actor, id, ifMatch, (row) => patchUser(stateOf(row), input.Operations, row.id));
  }

  return { replace, patch };
}
