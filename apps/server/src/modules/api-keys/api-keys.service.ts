import { sql, type Kysely } from 'kysely';
import {
  API_KEY_LIFECYCLE,
  MESSAGES,
  apiKeyExpiryProblem,
  mayManageApiKeysOf,
  mayViewApiKeysOf,
  type ApiKey,
  type ApiKeyFilter,
  type ApiKeyPage,
  type ApiScope,
} from '@console/domain';
import type { DB, Executor } from '../../db/schema.ts';
import { generateKey, type GeneratedKey } from '../../lib/api-key.ts';
import { auditAction } from '../../lib/audit.ts';
import type { Caller } from '../../lib/caller.ts';
import { BadRequestError, ForbiddenError, NotFoundError, RuleError } from '../../lib/errors.ts';
import type { ClientInfo } from '../../lib/request-info.ts';
import type { OrganizationsService } from '../organizations/organizations.service.ts';
import type { ApiKeyLimits } from './limits.ts';
import { CURSOR, PART_CODES, keyListQuery, keysQuery, partsOf, toApiKey, type KeyRow, type Part } from './queries.ts';

const k = MESSAGES.apiKeys;
const L = API_KEY_LIFECYCLE;

/** Attempts at a prefix nobody holds (8 hex characters: a collision is rare, never repeated thrice). */
const PREFIX_ATTEMPTS = 3;

const isUniqueViolation = (error: unknown) => (error as { code?: unknown }).code === '23505';

/** Draws a key whose prefix is neither the current nor the previous prefix of any key. */
async function freshKey(executor: Executor): Promise<GeneratedKey> {
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
async function withFreshPrefix<T>(work: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (!isUniqueViolation(error) || attempt >= PREFIX_ATTEMPTS) throw error;
    }
  }
}

/**
 * API keys act for their organization on the machine routes, so only its own admins make,
 * list, edit, roll and revoke them. A secret is answered once, when the key is made or rolled;
 * only its SHA-256 is stored, and neither it nor its hash reaches the audit log.
 *
 * Rules: an end date is in the future and at most `API_KEY_LIFECYCLE.maxLifetimeDays` ahead; a
 * key's own rate limit is at most the house's ceiling (global settings); only live keys (not
 * revoked, not expired) are edited or rolled (422 otherwise); a roll keeps the old secret for
 * 0 to 7 days, and a key keeps one previous secret at most, so a second roll ends the older one.
 * Making, rolling and editing a key count against the organization's and the person's hourly
 * allowance (limits.ts), inside the change's transaction once its checks passed; revoking
 * never waits.
 */
export function createApiKeysService({
  db,
  organizations,
  limits,
}: {
  db: Kysely<DB>;
  organizations: OrganizationsService;
  limits: ApiKeyLimits;
}) {
  /** The organization, in the caller's read scope, whose keys the caller manages (403 for another one in scope). */
  async function ownOrganization(caller: Caller, organizationId: string, executor: Executor, writing: boolean) {
    const target = await organizations.visible(caller, organizationId, executor);
    const allowed = writing ? mayManageApiKeysOf(caller, target) : mayViewApiKeysOf(caller, target);
    if (!allowed) throw new ForbiddenError(k.onlyOwnAdmins);
    return target;
  }

  async function checkExpiry(expiresAt: string | null | undefined) {
    if (expiresAt == null) return;
    const problem = apiKeyExpiryProblem(expiresAt, Date.now());
    if (problem) throw new RuleError(problem);
  }

  /** A key's own rate limit is at most the house's ceiling (422 above it). */
  async function checkRateLimit(executor: Executor, perMinute: number | null | undefined) {
    if (perMinute == null) return;
    const settings = await executor.selectFrom('global_settings').select('api_key_rate_limit_ceiling').executeTakeFirst();
    const ceiling = settings?.api_key_rate_limit_ceiling ?? L.defaultRateLimitCeiling;
    if (perMinute > ceiling) throw new RuleError(k.aboveCeiling(ceiling));
  }

  /** The key of the organization, locked for the change; 404 for a key of another organization. */
  async function lockedKey(trx: Executor, organizationId: string, keyId: string) {
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

  const requireLive = (key: { revoked_at: string | null; expired: boolean }) => {
    if (key.revoked_at) throw new RuleError(k.notLive('revoked'));
    if (key.expired) throw new RuleError(k.notLive('expired'));
  };

  const oneKey = async (executor: Executor, organizationId: string, keyId: string) =>
    toApiKey(await keysQuery(executor, organizationId).where('k.id', '=', keyId).executeTakeFirstOrThrow());

  return {
    /**
     * A page of keys: live ones first, then revoked and expired ones, each part newest first.
     * `state` keeps one part (`expiring`: the live keys ending within the week or with an old
     * secret in its grace period). The cursor names the part and key the last page ended on.
     */
    async list(
      caller: Caller,
      organizationId: string,
      query: { state?: ApiKeyFilter; cursor?: string; limit: number },
    ): Promise<ApiKeyPage> {
      const org = await ownOrganization(caller, organizationId, db, false);
      let parts = partsOf(query.state);
      let after: string | undefined;
      if (query.cursor !== undefined) {
        const match = CURSOR.exec(query.cursor);
        const part = match && (Object.keys(PART_CODES) as Part[]).find((p) => PART_CODES[p] === match[1]);
        if (!match || !part || !parts.includes(part)) throw new BadRequestError(k.invalidCursor);
        parts = parts.slice(parts.indexOf(part));
        after = match[2];
      }
      const rows: { part: Part; row: KeyRow }[] = [];
      for (const [index, part] of parts.entries()) {
        if (rows.length > query.limit) break;
        const found = await keyListQuery(db, org.id, part, {
          filter: query.state,
          after: index === 0 ? after : undefined,
          limit: query.limit + 1 - rows.length,
        }).execute();
        rows.push(...found.map((row) => ({ part, row })));
      }
      const more = rows.length > query.limit;
      const shown = rows.slice(0, query.limit);
      const last = shown.at(-1);
      return {
        api_keys: shown.map(({ row }) => toApiKey(row)),
        next_cursor: more && last ? `${PART_CODES[last.part]}:${last.row.id}` : null,
      };
    },

    async create(
      caller: Caller,
      organizationId: string,
      input: { name: string; scopes: ApiScope[]; expires_at?: string | null; rate_limit_per_minute?: number | null },
      info: ClientInfo,
    ): Promise<{ api_key: ApiKey; secret: string }> {
      const org = await ownOrganization(caller, organizationId, db, true);
      const scopes = [...new Set(input.scopes)];
      await checkExpiry(input.expires_at);
      await checkRateLimit(db, input.rate_limit_per_minute);
      return withFreshPrefix(() =>
        db.transaction().execute(async (trx) => {
          await limits.count(trx, { organizationId: org.id, userId: caller.userId });
          const made = await freshKey(trx);
          const created = await trx
            .insertInto('api_keys')
            .values({
              organization_id: org.id,
              name: input.name,
              prefix: made.prefix,
              secret_hash: made.hash,
              scopes,
              created_by: caller.userId,
              expires_at: input.expires_at ?? null,
              rate_limit_per_minute: input.rate_limit_per_minute ?? null,
            })
            .returning('id')
            .executeTakeFirstOrThrow();
          await auditAction(trx, caller, info, {
            organizationId: org.id,
            action: 'api_key.create',
            targetType: 'api_key',
            targetId: created.id,
            details: {
              name: input.name,
              prefix: made.prefix,
              scopes,
              ...(input.expires_at && { expires_at: new Date(input.expires_at).toISOString() }),
              ...(input.rate_limit_per_minute != null && { rate_limit_per_minute: input.rate_limit_per_minute }),
            },
          });
          return { api_key: await oneKey(trx, org.id, created.id), secret: made.key };
        }),
      );
    },

    /** Renames a live key, sets or clears its end date and its rate limit; what is left out stays. */
    async update(
      caller: Caller,
      organizationId: string,
      keyId: string,
      input: {
        name?: string;
        expires_at?: string | null;
        rate_limit_per_minute?: number | null;
        monthly_cap?: string | null;
        weekly_cap?: string | null;
        daily_cap?: string | null;
      },
      info: ClientInfo,
    ): Promise<{ api_key: ApiKey }> {
      return db.transaction().execute(async (trx) => {
        const org = await ownOrganization(caller, organizationId, trx, true);
        const key = await lockedKey(trx, org.id, keyId);
        requireLive(key);
        const before: Record<string, unknown> = {};
        const after: Record<string, unknown> = {};
        const set: {
          name?: string;
          expires_at?: string | null;
          rate_limit_per_minute?: number | null;
          monthly_cap?: string | null;
          weekly_cap?: string | null;
          daily_cap?: string | null;
        } = {};
        if (input.name !== undefined && input.name !== key.name) {
          before.name = key.name;
          after.name = set.name = input.name;
        }
        if (input.expires_at !== undefined) {
          await checkExpiry(input.expires_at);
          const next = input.expires_at === null ? null : new Date(input.expires_at).toISOString();
          if (next !== key.expires_at) {
            before.expires_at = key.expires_at;
            after.expires_at = set.expires_at = next;
          }
        }
        if (input.rate_limit_per_minute !== undefined) {
          await checkRateLimit(trx, input.rate_limit_per_minute);
          if (input.rate_limit_per_minute !== key.rate_limit_per_minute) {
            before.rate_limit_per_minute = key.rate_limit_per_minute;
            after.rate_limit_per_minute = set.rate_limit_per_minute = input.rate_limit_per_minute;
          }
        }
        // A key's windows (day, week, month) are kept whether or not it has a cap, so a cap set
        // mid-window counts the window so far.
        for (const field of ['monthly_cap', 'weekly_cap', 'daily_cap'] as const) {
          if (input[field] !== undefined && input[field] !== key[field]) {
            before[field] = key[field];
            after[field] = set[field] = input[field];
          }
        }
        if (Object.keys(set).length > 0) {
          await limits.count(trx, { organizationId: org.id, userId: caller.userId });
          await trx.updateTable('api_keys').set(set).where('id', '=', key.id).execute();
          await auditAction(trx, caller, info, {
            organizationId: org.id,
            action: 'api_key.update',
            targetType: 'api_key',
            targetId: key.id,
            details: { prefix: key.prefix, before, after },
          });
        }
        return { api_key: await oneKey(trx, org.id, key.id) };
      });
    },

    /**
     * A new secret (with a new prefix) for a live key, answered once; the secret in use becomes
     * the previous one, accepted for `grace_seconds` more (0: it ends now). A previous secret
     * from an earlier roll, in its grace period or not, ends: a key has one previous secret.
     */
    async roll(
      caller: Caller,
      organizationId: string,
      keyId: string,
      input: { grace_seconds: number },
      info: ClientInfo,
    ): Promise<{ api_key: ApiKey; secret: string }> {
      return withFreshPrefix(() =>
        db.transaction().execute(async (trx) => {
          const org = await ownOrganization(caller, organizationId, trx, true);
          const key = await lockedKey(trx, org.id, keyId);
          requireLive(key);
          await limits.count(trx, { organizationId: org.id, userId: caller.userId });
          const made = await freshKey(trx);
          await trx
            .updateTable('api_keys')
            .set({
              prefix: made.prefix,
              secret_hash: made.hash,
              previous_prefix: key.prefix,
              previous_secret_hash: key.secret_hash,
              previous_expires_at: sql`now() + make_interval(secs => ${input.grace_seconds})`,
              rolled_at: sql`now()`,
            })
            .where('id', '=', key.id)
            .execute();
          await auditAction(trx, caller, info, {
            organizationId: org.id,
            action: 'api_key.rolled',
            targetType: 'api_key',
            targetId: key.id,
            details: { prefix: made.prefix, previous_prefix: key.prefix, grace_seconds: input.grace_seconds },
          });
          return { api_key: await oneKey(trx, org.id, key.id), secret: made.key };
        }),
      );
    },

    /** A revoked key stops at once, with both its secrets; revoking it again changes nothing. */
    async revoke(caller: Caller, organizationId: string, keyId: string, info: ClientInfo): Promise<{ api_key: ApiKey }> {
      return db.transaction().execute(async (trx) => {
        const org = await ownOrganization(caller, organizationId, trx, true);
        const key = await lockedKey(trx, org.id, keyId);
        if (!key.revoked_at) {
          await trx.updateTable('api_keys').set({ revoked_at: sql`now()`, revoked_by: caller.userId }).where('id', '=', key.id).execute();
          await auditAction(trx, caller, info, {
            organizationId: org.id,
            action: 'api_key.revoke',
            targetType: 'api_key',
            targetId: key.id,
            details: { prefix: key.prefix },
          });
        }
        return { api_key: await oneKey(trx, org.id, key.id) };
      });
    },
  };
}

export type ApiKeysService = ReturnType<typeof createApiKeysService>;
