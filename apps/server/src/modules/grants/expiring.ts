import { sql } from 'kysely';
import type { ExpiringGrant } from '@console/domain';
import type { Caller } from '../../lib/caller.ts';
import { grantColumns, grantJoins, toGrant, type GrantSqlRow, type GrantsDeps } from './queries.ts';

/**
 * Grants with something left that expire within `days`, held by the caller's organization or
 * any below it, soonest first (the dashboard's Expiring soon list): a seller sees what will
 * come back to it, a tenant what it should spend first.
 */
export function createExpiringGrants({ db }: Pick<GrantsDeps, 'db'>) {
  async function expiring(caller: Caller, days: number): Promise<{ grants: ExpiringGrant[] }> {
    const { rows } = await sql<GrantSqlRow & { organization_name: string }>`
      select ${grantColumns}, o.name as organization_name
      from credit_grants g ${grantJoins}
      join organizations o on o.id = g.organization_id and o.deleted_at is null
      where g.remaining > 0 and g.expired_at is null and g.expires_at > now()
        and g.expires_at <= now() + make_interval(days => ${days})
        and starts_with(o.path, ${caller.organization.path})
      order by g.expires_at, g.id
      limit 50`.execute(db);
    return { grants: rows.map((row) => ({ ...toGrant(row), organization_name: row.organization_name })) };
  }
  return { expiring };
}
