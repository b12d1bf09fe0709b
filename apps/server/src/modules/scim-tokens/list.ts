import { IDENTITY } from '@console/domain';
import type { Caller } from '../../lib/caller.ts';
import { tokenOrganization, tokensQuery, toScimToken, type ScimTokensDeps } from './queries.ts';

/** What the Identity page shows: the tokens (live first, newest first) and the last provisioning calls. */
export function createScimTokenReads({ db }: Pick<ScimTokensDeps, 'db'>) {
  async function list(caller: Caller, organizationId: string) {
    const org = await tokenOrganization(caller, organizationId, db, false);
    const rows = await tokensQuery(db, org.id)
      .orderBy((eb) => eb('t.revoked_at', 'is', null), 'desc')
      .orderBy('t.created_at', 'desc')
      .orderBy('t.id', 'desc')
      .execute();
    return { items: rows.map(toScimToken) };
  }

  /** The organization's last IDENTITY.callsShown calls, newest first, each with the token that made it. */
  async function calls(caller: Caller, organizationId: string) {
    const org = await tokenOrganization(caller, organizationId, db, false);
    const rows = await db
      .selectFrom('scim_calls as c')
      .leftJoin('scim_tokens as t', 't.id', 'c.token_id')
      .select([
        'c.id',
        'c.method',
        'c.path',
        'c.status',
        'c.outcome',
        'c.created_at',
        't.id as token_id',
        't.name as token_name',
        't.prefix',
      ])
      .where('c.organization_id', '=', org.id)
      .orderBy('c.id', 'desc')
      .limit(IDENTITY.callsShown)
      .execute();
    return {
      items: rows.map((row) => ({
        id: String(row.id),
        method: row.method,
        path: row.path,
        status: row.status,
        outcome: row.outcome,
        token: row.token_id ? { id: row.token_id, name: row.token_name ?? '', prefix: row.prefix ?? '' } : null,
        created_at: row.created_at,
      })),
    };
  }

  return { list, calls };
}
