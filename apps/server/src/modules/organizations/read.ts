import { sql, type SelectQueryBuilder } from 'kysely';
import {
  TREE_CHILDREN_LIMIT,
  TREE_DESCENDANT_COUNT_CAP,
  mayReadOrganization,
  type OrganizationDetail,
  type OrganizationTree,
} from '@console/domain';
import type { DB } from '../../db/schema.ts';
import type { Caller } from '../../lib/caller.ts';
import { ForbiddenError } from '../../lib/errors.ts';
import { likeEscape } from '../../lib/sql.ts';
import type { OrganizationsDeps } from './queries.ts';

/** One organization's detail, and one level of the Hierarchy view. */
export function createOrganizationRead({ db, reads: { visible, detail } }: OrganizationsDeps) {
  /** One level of the Hierarchy view, with counts so the console knows what can expand. */
  async function tree(caller: Caller, organizationId: string | undefined): Promise<OrganizationTree> {
    const node = await visible(caller, organizationId ?? caller.organization.id);
    const childCount = (parent: string) =>
      sql<number>`(select count(*)::int from organizations c where c.parent_org_id = ${sql.ref(parent)} and c.deleted_at is null)`;
    const count = (query: SelectQueryBuilder<DB, 'organizations', object>) =>
      query.select(sql<number>`count(*)::int`.as('n')).where('deleted_at', 'is', null).executeTakeFirstOrThrow();
    const [children, descendants, directCount] = await Promise.all([
      db
        .selectFrom('organizations as o')
        .select(['o.id', 'o.name', 'o.org_type', 'o.status', 'o.parent_org_id', childCount('o.id').as('child_count')])
        .where('o.parent_org_id', '=', node.id)
        .where('o.deleted_at', 'is', null)
        .orderBy('o.name')
        .orderBy('o.id')
        .limit(TREE_CHILDREN_LIMIT)
        .execute(),
      // Bounded: counting the whole subtree of a house with a million organizations costs
      // a full scan; the Hierarchy view only needs "more than the cap".
      db
        .selectFrom((eb) =>
          eb
            .selectFrom('organizations')
            .select('id')
            .where('path', 'like', `${likeEscape(node.path)}%`)
            .where('id', '<>', node.id)
            .where('deleted_at', 'is', null)
            .limit(TREE_DESCENDANT_COUNT_CAP + 1)
            .as('d'),
        )
        .select(sql<number>`count(*)::int`.as('n'))
        .executeTakeFirstOrThrow(),
      count(db.selectFrom('organizations').where('parent_org_id', '=', node.id)),
    ]);
    return {
      node: {
        id: node.id,
        name: node.name,
        org_type: node.org_type,
        status: node.status,
        parent_org_id: node.parent_org_id,
        child_count: directCount.n,
        descendant_count: descendants.n,
      },
      children,
    };
  }

  /** Everyone reads their own organization; another one of the subtree takes organizations.get (403 before reading). */
  async function get(caller: Caller, id: string): Promise<OrganizationDetail> {
    if (!mayReadOrganization(caller, { id })) throw new ForbiddenError();
    return detail(caller, await visible(caller, id));
  }

  return { tree, get };
}
