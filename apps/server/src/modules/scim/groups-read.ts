import { sql } from 'kysely';
import { MESSAGES, type ScimGroup } from '@console/domain';
import type { ScimActor, ScimDeps } from './context.ts';
import { ScimError } from './errors.ts';
import { parseFilter, textOf, type Condition } from './filter.ts';
import { groupsOf, membersOfGroups, readGroup, toScimGroup } from './group-resource.ts';
import { isUuid } from './org-facts.ts';
import { filterOf, listResponse, pageOf, pageRows, withoutMembers, type ListQuery } from './paging.ts';

/** The attributes a Groups filter compares; `members` alone means the member's id. */
export const GROUP_FILTERS = ['displayname', 'externalid', 'id', 'members.value', 'members'] as const;

type GroupsQuery = ReturnType<typeof groupsOf>;

function narrow(query: GroupsQuery, { attr, value }: Condition): GroupsQuery {
  const text = textOf(value);
  if (text === null && attr !== 'externalid') return query.where(sql<boolean>`false`);
  switch (attr) {
    case 'displayname':
      return query.where(sql`lower(g.display_name)`, '=', text!.toLowerCase());
    case 'externalid':
      return text === null ? query.where('g.external_id', 'is', null) : query.where('g.external_id', '=', text);
    case 'id':
      return isUuid(text!) ? query.where('g.id', '=', text!) : query.where(sql<boolean>`false`);
    case 'members':
    case 'members.value':
      return isUuid(text!)
        ? query.where((eb) =>
            eb.exists(
              eb
                .selectFrom('scim_group_members as gm')
                .select('gm.user_id')
                .whereRef('gm.group_id', '=', 'g.id')
                .where('gm.user_id', '=', text!),
            ),
          )
        : query.where(sql<boolean>`false`);
    default:
      return query.where(sql<boolean>`false`);
  }
}

export function createGroupReads({ db, baseUrl }: ScimDeps) {
  async function get(actor: ScimActor, id: string, query: ListQuery): Promise<ScimGroup> {
    const group = isUuid(id) ? await readGroup(db, actor.token.organization.id, id, baseUrl, !withoutMembers(query)) : null;
    if (!group) throw new ScimError(404, MESSAGES.identity.scimGroupNotFound);
    return group;
  }

  async function list(actor: ScimActor, query: ListQuery) {
    const orgId = actor.token.organization.id;
    const filter = filterOf(query);
    const { startIndex, count } = pageOf(query);
    let found = groupsOf(db, orgId);
    for (const condition of filter ? parseFilter(filter, GROUP_FILTERS, 'displayName, externalId, id, members.value') : [])
      found = narrow(found, condition);
    const { total, rows } = await pageRows(found, 'g', { startIndex, count });
    const members = withoutMembers(query)
      ? null
      : await membersOfGroups(
          db,
          orgId,
          rows.map((r) => r.id),
        );
    return listResponse(
      rows.map((row) => toScimGroup(row, members ? (members.get(row.id) ?? []) : null, baseUrl)),
      total,
      startIndex,
    );
  }

  return { get, list };
}
