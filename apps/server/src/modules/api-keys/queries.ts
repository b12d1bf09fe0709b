import { sql, type SqlBool } from 'kysely';
import { API_KEY_LIFECYCLE, type ApiKey, type ApiKeyFilter, type ApiKeyState } from '@console/domain';
import type { Executor } from '../../db/schema.ts';
import { capUsage, windowCapUsage } from '../../lib/spend-caps.ts';

const L = API_KEY_LIFECYCLE;

/** A key is live while it is neither revoked nor past its end date (on the database's clock). */
const LIVE = sql<SqlBool>`(k.revoked_at is null and (k.expires_at is null or k.expires_at > now()))`;
const DEAD = sql<SqlBool>`(k.revoked_at is not null or k.expires_at <= now())`;
/** Live, and ending within the week, or its previous secret still in its grace period. */
const EXPIRING = sql<SqlBool>`(${LIVE} and (k.expires_at <= now() + make_interval(days => ${L.expiringWithinDays}) or k.previous_expires_at > now()))`;
/** The previous secret still works: the key is live and the grace period not over. */
const PREVIOUS_WORKS = sql<SqlBool>`(${LIVE} and k.previous_expires_at > now())`;

export function keysQuery(executor: Executor, organizationId: string) {
  return executor
    .selectFrom('api_keys as k')
    .leftJoin('users as u', 'u.id', 'k.created_by')
    .select([
      'k.id',
      'k.organization_id',
      'k.name',
      'k.prefix',
      'k.scopes',
      'k.created_at',
      'k.last_used_at',
      'k.use_count',
      'k.revoked_at',
      'k.expires_at',
      'k.rolled_at',
      'k.rate_limit_per_minute',
      capUsage('key', sql.ref('k.id'), sql.ref('k.monthly_cap')).as('monthly_cap'),
      windowCapUsage('key', 'day', sql.ref('k.id'), sql.ref('k.daily_cap')).as('daily_cap'),
      windowCapUsage('key', 'week', sql.ref('k.id'), sql.ref('k.weekly_cap')).as('weekly_cap'),
      sql<ApiKeyState>`case when k.revoked_at is not null then 'revoked' when k.expires_at <= now() then 'expired'
        when ${EXPIRING} then 'expiring' else 'live' end`.as('state'),
      sql<string | null>`case when ${PREVIOUS_WORKS} then k.previous_prefix end`.as('previous_prefix'),
      sql<string | null>`case when ${PREVIOUS_WORKS} then k.previous_expires_at end`.as('previous_expires_at'),
      'u.id as creator_id',
      sql<string | null>`u.first_name || ' ' || u.last_name`.as('creator_name'),
      'u.email as creator_email',
    ])
    .where('k.organization_id', '=', organizationId);
}

/** The two parts of the list, read one after the other: live keys, then revoked and expired ones. */
export type Part = 'live' | 'dead';
export const PART_CODES: Record<Part, string> = { live: 'l', dead: 'd' };
/** A cursor names the part and the key the last page ended on: `l:<id>` or `d:<id>`. */
export const CURSOR = /^([ld]):([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

export function partsOf(filter: ApiKeyFilter | undefined): Part[] {
  return filter === 'revoked' ? ['dead'] : filter ? ['live'] : ['live', 'dead'];
}

/**
 * One part of an organization's key list, newest first with the id breaking ties, after the
 * key `after` (of this part), `limit` rows at most; served by api_keys_org_list_idx
 * (organization_id, created_at desc, id desc). Exported so a test can EXPLAIN it.
 */
export function keyListQuery(
  executor: Executor,
  organizationId: string,
  part: Part,
  options: { filter?: ApiKeyFilter; after?: string; limit: number },
) {
  let query = keysQuery(executor, organizationId).where(part === 'live' ? (options.filter === 'expiring' ? EXPIRING : LIVE) : DEAD);
  if (options.after)
    query = query.where(
      sql<SqlBool>`(k.created_at, k.id) < (select c.created_at, c.id from api_keys c where c.id = ${options.after} and c.organization_id = ${organizationId})`,
    );
  return query.orderBy('k.created_at', 'desc').orderBy('k.id', 'desc').limit(options.limit);
}

export type KeyRow = Awaited<ReturnType<ReturnType<typeof keysQuery>['executeTakeFirstOrThrow']>>;

export function toApiKey(row: KeyRow): ApiKey {
  return {
    id: row.id,
    organization_id: row.organization_id,
    name: row.name,
    prefix: row.prefix,
    scopes: row.scopes,
    created_by: row.creator_id ? { id: row.creator_id, name: row.creator_name ?? '', email: row.creator_email ?? '' } : null,
    created_at: row.created_at,
    last_used_at: row.last_used_at,
    use_count: Number(row.use_count),
    revoked_at: row.revoked_at,
    state: row.state,
    expires_at: row.expires_at,
    previous_prefix: row.previous_prefix,
    previous_expires_at: row.previous_expires_at,
    rolled_at: row.rolled_at,
    rate_limit_per_minute: row.rate_limit_per_minute,
    monthly_cap: row.monthly_cap,
    daily_cap: row.daily_cap,
    weekly_cap: row.weekly_cap,
  };
}
