import { sql } from 'kysely';
import { MESSAGES, type ScimUser } from '@console/domain';
import type { ScimActor, ScimDeps } from './context.ts';
import { ScimError } from './errors.ts';
import { parseFilter, textOf, type Condition } from './filter.ts';
import { isUuid } from './org-facts.ts';
import { filterOf, listResponse, pageOf, pageRows, type ListQuery } from './paging.ts';
import { groupsOfUsers, readUser, toScimUser, usersOf } from './user-resource.ts';

/** The attributes a Users filter compares; `emails` alone means its value. */
export const USER_FILTERS = ['username', 'externalid', 'id', 'emails.value', 'emails', 'active'] as const;

type UsersQuery = ReturnType<typeof usersOf>;

/** Narrows the people to those a comparison holds for; a value of the wrong kind matches nobody. */
function narrow(query: UsersQuery, { attr, value }: Condition): UsersQuery {
  const text = textOf(value);
  switch (attr) {
    case 'username':
    case 'emails':
    case 'emails.value':
      // userName and e-mails compare without case, as e-mail addresses do.
      return text === null ? query.where(sql<boolean>`false`) : query.where(sql`lower(u.email)`, '=', text.toLowerCase());
    case 'externalid':
      return text === null ? query.where('u.scim_external_id', 'is', null) : query.where('u.scim_external_id', '=', text);
    case 'id':
      return text !== null && isUuid(text) ? query.where('u.id', '=', text) : query.where(sql<boolean>`false`);
    case 'active':
      if (typeof value !== 'boolean') throw new ScimError(400, 'active compares with true or false.', 'invalidFilter');
      return value ? query.where('u.status', '=', 'active') : query.where('u.status', '<>', 'active');
    default:
      return query.where(sql<boolean>`false`);
  }
}

export function createUserReads({ db, baseUrl }: ScimDeps) {
  async function get(actor: ScimActor, id: string): Promise<ScimUser> {
    const user = isUuid(id) ? await readUser(db, actor.token.organization.id, id, baseUrl) : null;
    if (!user) throw new ScimError(404, MESSAGES.identity.scimUserNotFound);
    return user;
  }

  /** A page of the organization's people, oldest first, narrowed by the filter. */
  async function list(actor: ScimActor, query: ListQuery) {
    const orgId = actor.token.organization.id;
    const filter = filterOf(query);
    const { startIndex, count } = pageOf(query);
    let found = usersOf(db, orgId);
    for (const condition of filter ? parseFilter(filter, USER_FILTERS, 'userName, externalId, id, emails.value, active') : [])
      found = narrow(found, condition);
    const { total, rows } = await pageRows(found, 'u', { startIndex, count });
    const groups = await groupsOfUsers(
      db,
      orgId,
      rows.map((r) => r.id),
    );
    return listResponse(
      rows.map((row) => toScimUser(row, groups.get(row.id) ?? [], baseUrl)),
      total,
      startIndex,
    );
  }

  return { get, list };
}
