import { sql, type Kysely, type SqlBool } from 'kysely';
import {
  API_KEY_LIFECYCLE,
  MESSAGES,
  apiKeyExpiryProblem,
  mayManageApiKeysOf,
  mayViewApiKeysOf,
  type ApiKey,
  type ApiKeyFilter,
  type ApiKeyState,
} from '@console/domain';
import type { DB, Executor } from '../../db/schema.ts';
import { generateKey, type GeneratedKey } from '../../lib/api-key.ts';
import type { Caller } from '../../lib/caller.ts';
import { ForbiddenError, NotFoundError, RuleError } from '../../lib/errors.ts';
import { capUsage, windowCapUsage } from '../../lib/spend-caps.ts';
import type { OrganizationsService } from '../organizations/organizations.service.ts';
import type { ApiKeyLimits } from './limits.ts';

export const k = MESSAGES.apiKeys;
const L = API_KEY_LIFECYCLE;

/** What every use case of the API keys is made with. */
export interface ApiKeysDeps {
  db: Kysely<DB>;
  organizations: OrganizationsService;
  limits: ApiKeyLimits;
}

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

/** Attempts at a prefix nobody holds (8 hex characters: a collision is rare, never repeated thrice). */
const PREFIX_ATTEMPTS = 3;

const isUniqueViolation = (error: unknown) => (error as { code?: unknown }).code === '23505';

/** Draws a key whose prefix is neither the current nor the previous prefix of any key. */
export async function freshKey(executor: Executor): Promise<GeneratedKey> {
  for (let attempt = 1; ; attempt++) {
    const made = generateKey();
    const taken = await executor
      .selectFrom('api_keys')
      .select('id')
      .where((eb) => eb.or([eb('prefix', '=', made.prefix), eb('previous_prefix', '=', made.prefix)]))
      .executeTakeFirst();
    if (!taken || attempt >= PREFIX_ATTEMPTS) return made;
  }
}

/** Retries `work` when a concurrent key took the drawn prefix (unique violation), PREFIX_ATTEMPTS times in all. */
export async function withFreshPrefix<T>(work: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (!isUniqueViolation(error) || attempt >= PREFIX_ATTEMPTS) throw error;
    }
  }
}

/**
 * The organization, in the caller's read scope, whose keys the caller manages (`writing`) or
 * sees: only its own admins (403 for another one in scope).
 */
export async function ownOrganization(
  organizations: OrganizationsService,
  caller: Caller,
  organizationId: string,
  executor: Executor,
  writing: boolean,
) {
  const target = await organizations.visible(caller, organizationId, executor);
  const allowed = writing ? mayManageApiKeysOf(caller, target) : mayViewApiKeysOf(caller, target);
  if (!allowed) throw new ForbiddenError(k.onlyOwnAdmins);
  return target;
}

/** An end date is in the future and at most `API_KEY_LIFECYCLE.maxLifetimeDays` ahead (422 otherwise). */
export async function checkExpiry(expiresAt: string | null | undefined) {
  if (expiresAt == null) return;
  const problem = apiKeyExpiryProblem(expiresAt, Date.now());
  if (problem) throw new RuleError(problem);
}

/** A key's own rate limit is at most the house's ceiling (422 above it). */
export async function checkRateLimit(executor: Executor, perMinute: number | null | undefined) {
  if (perMinute == null) return;
  const settings = await executor.selectFrom('global_settings').select('api_key_rate_limit_ceiling').executeTakeFirst();
  const ceiling = settings?.api_key_rate_limit_ceiling ?? L.defaultRateLimitCeiling;
  if (perMinute > ceiling) throw new RuleError(k.aboveCeiling(ceiling));
}

/** The key of the organization, locked for the change; 404 for a key of another organization. */
export async function lockedKey(trx: Executor, organizationId: string, keyId: string) {
  const key = await trx
    .selectFrom('api_keys')
    .select([
      'id',
      'name',
      'prefix',
      'secret_hash',
      'revoked_at',
      'expires_at',
      'rate_limit_per_minute',
      'monthly_cap',
      'weekly_cap',
      'daily_cap',
      sql<boolean>`coalesce(expires_at <= now(), false)`.as('expired'),
    ])
    .where('id', '=', keyId)
    .where('organization_id', '=', organizationId)
    .forUpdate()
    .executeTakeFirst();
  if (!key) throw new NotFoundError(k.notFound);
  return key;
}

/** Only live keys (not revoked, not expired) are edited or rolled (422 otherwise). */
export const requireLive = (key: { revoked_at: string | null; expired: boolean }) => {
  if (key.revoked_at) throw new RuleError(k.notLive('revoked'));
  if (key.expired) throw new RuleError(k.notLive('expired'));
};

export const oneKey = async (executor: Executor, organizationId: string, keyId: string) =>
  toApiKey(await keysQuery(executor, organizationId).where('k.id', '=', keyId).executeTakeFirstOrThrow());
