import { sql } from 'kysely';
import type { InvitationList, ListInvitationsParams } from '@console/domain';
import type { Caller } from '../../lib/caller.ts';
import { invitationQuery, toInvitation, type InvitationsDeps } from './queries.ts';

export function createInvitationList({ db, organizations }: Pick<InvitationsDeps, 'db' | 'organizations'>) {
  async function list(caller: Caller, query: ListInvitationsParams): Promise<InvitationList> {
    const org = await organizations.visible(caller, query.organization_id ?? caller.organization.id);
    let filtered = invitationQuery(db).where('i.organization_id', '=', org.id);
    if (query.status === 'pending') filtered = filtered.where('i.status', '=', 'pending').where('i.expires_at', '>', sql<string>`now()`);
    else if (query.status === 'expired')
      filtered = filtered.where('i.status', '=', 'pending').where('i.expires_at', '<=', sql<string>`now()`);
    else if (query.status) filtered = filtered.where('i.status', '=', query.status);
    const [rows, count] = await Promise.all([
      filtered
        .orderBy('i.created_at', 'desc')
        .orderBy('i.id', 'desc')
        .limit(query.page_size)
        .offset((query.page - 1) * query.page_size)
        .execute(),
      filtered.clearSelect().select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
    ]);
    return {
      invitations: rows.map(toInvitation),
      pagination: { page: query.page, page_size: query.page_size, total: count.n, total_pages: Math.ceil(count.n / query.page_size) },
    };
  }

  return { list };
}
