import { sql } from 'kysely';
import { mayViewPerson, type ListUsersParams, type UserList, type UserProfile } from '@console/domain';
import type { Caller } from '../../lib/caller.ts';
import { ForbiddenError } from '../../lib/errors.ts';
import { likeEscape, organizationInSubtree } from '../../lib/sql.ts';
import { profileQuery, toProfile, type UserReads, type UsersDeps } from './queries.ts';

/** The people of an organization in scope, and one person. */
export function createUserRead({
  db,
  organizations,
  reads: { visibleUser },
}: Pick<UsersDeps, 'db' | 'organizations'> & { reads: UserReads }) {
  async function list(caller: Caller, query: ListUsersParams): Promise<UserList> {
    const org = await organizations.visible(caller, query.organization_id ?? caller.organization.id);
    // With the subtree: every live organization whose path starts with this one's (its path index).
    let filtered = profileQuery(db)
      .where(
        query.include_subtree
          ? organizationInSubtree('u.organization_id', org.path, { live: true })
          : sql<boolean>`u.organization_id = ${org.id}`,
      )
      .where('u.deleted_at', 'is', null);
    if (query.status) filtered = filtered.where('u.status', '=', query.status);
    if (query.role) filtered = filtered.where('u.role', '=', query.role);
    if (query.search) {
      const pattern = `%${likeEscape(query.search)}%`;
      filtered = filtered.where((eb) =>
        eb.or([eb('u.email', 'ilike', pattern), eb(sql`coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')`, 'ilike', pattern)]),
      );
    }
    const [rows, count] = await Promise.all([
      filtered
        .orderBy(`u.${query.sort_by}`, (ob) => (query.sort_order === 'asc' ? ob.asc() : ob.desc()).nullsLast())
        .orderBy('u.id', query.sort_order)
        .limit(query.page_size)
        .offset((query.page - 1) * query.page_size)
        .execute(),
      filtered.clearSelect().select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
    ]);
    return {
      users: rows.map(toProfile),
      pagination: {
        page: query.page,
        page_size: query.page_size,
        total: count.n,
        total_pages: Math.ceil(count.n / query.page_size),
      },
    };
  }

  async function get(caller: Caller, id: string): Promise<UserProfile> {
    if (!mayViewPerson(caller, { id })) throw new ForbiddenError();
    return toProfile(await visibleUser(caller, id));
  }

  return { list, get };
}
