import { sql } from 'kysely';
import { TREE_CHILDREN_LIMIT, mayOpenDebug, type VerifyChildren } from '@console/domain';
import type { Caller } from '../../lib/caller.ts';
import { ForbiddenError } from '../../lib/errors.ts';
import { m, type OrganizationsDeps } from './queries.ts';

export function createVerifyChildren({ db, reads: { visible, getDescendantOrgIdsOrSelf } }: OrganizationsDeps) {
  /** The debug page's cross-check of direct children against the descendant procedure. */
  async function verifyChildren(caller: Caller, id: string): Promise<VerifyChildren> {
    if (!mayOpenDebug(caller)) throw new ForbiddenError(m.debugOnly);
    const parent = await visible(caller, id);
    const [children, ids, direct] = await Promise.all([
      db
        .selectFrom('organizations')
        .select(['id', 'name', 'org_type', 'status'])
        .where('parent_org_id', '=', parent.id)
        .where('deleted_at', 'is', null)
        .orderBy('name')
        .limit(TREE_CHILDREN_LIMIT)
        .execute(),
      getDescendantOrgIdsOrSelf(parent.id),
      db
        .selectFrom('organizations')
        .select(sql<number>`count(*)::int`.as('n'))
        .where('parent_org_id', '=', parent.id)
        .where('deleted_at', 'is', null)
        .executeTakeFirstOrThrow(),
    ]);
    return {
      parentOrganization: { id: parent.id, name: parent.name, org_type: parent.org_type },
      childOrganizations: children,
      summary: { directChildrenCount: direct.n, rpcReturnedIds: ids.length, childOrgsRetrieved: children.length },
    };
  }

  return { verifyChildren };
}
