import { sql, type Kysely } from 'kysely';
import { MESSAGES, isOwnOrganization, mayManageApiKeysOf, type ApiKey, type ApiScope } from '@console/domain';
import type { DB, Executor } from '../../db/schema.ts';
import { generateKey } from '../../lib/api-key.ts';
import { auditAction } from '../../lib/audit.ts';
import type { Caller } from '../../lib/caller.ts';
import { ForbiddenError, NotFoundError } from '../../lib/errors.ts';
import type { ClientInfo } from '../../lib/request-info.ts';
import type { OrganizationsService } from '../organizations/organizations.service.ts';

const k = MESSAGES.apiKeys;

/** The list shows an organization's newest keys, this many at most. */
export const API_KEYS_LIST_MAX = 500;

/** Attempts at a prefix nobody holds (8 hex characters: a collision is rare, never repeated thrice). */
const PREFIX_ATTEMPTS = 3;

function keysQuery(executor: Executor, organizationId: string) {
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
      'u.id as creator_id',
      sql<string | null>`u.first_name || ' ' || u.last_name`.as('creator_name'),
      'u.email as creator_email',
    ])
    .where('k.organization_id', '=', organizationId);
}

/** An organization's newest keys (exported so a test can EXPLAIN it). */
export function keyListQuery(executor: Executor, organizationId: string) {
  return keysQuery(executor, organizationId).orderBy('k.created_at', 'desc').orderBy('k.id', 'desc').limit(API_KEYS_LIST_MAX);
}

type KeyRow = Awaited<ReturnType<ReturnType<typeof keysQuery>['executeTakeFirstOrThrow']>>;

function toApiKey(row: KeyRow): ApiKey {
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
  };
}

const isUniqueViolation = (error: unknown) => (error as { code?: unknown }).code === '23505';

/**
 * API keys act for their organization on the machine routes, so only its own admins make,
 * list and revoke them. The secret is answered once, when the key is made; only its SHA-256
 * is stored, and neither it nor its hash reaches the audit log.
 */
export function createApiKeysService({ db, organizations }: { db: Kysely<DB>; organizations: OrganizationsService }) {
  /** The organization, in the caller's read scope, whose keys the caller manages (403 for another one in scope). */
  async function ownOrganization(caller: Caller, organizationId: string, executor: Executor, writing: boolean) {
    const target = await organizations.visible(caller, organizationId, executor);
    const allowed = writing ? mayManageApiKeysOf(caller, target) : isOwnOrganization(caller, target);
    if (!allowed) throw new ForbiddenError(k.onlyOwnAdmins);
    return target;
  }

  return {
    /** The newest keys first, revoked ones too (served by the index of keys by organization and time). */
    async list(caller: Caller, organizationId: string): Promise<{ api_keys: ApiKey[] }> {
      const org = await ownOrganization(caller, organizationId, db, false);
      const rows = await keyListQuery(db, org.id).execute();
      return { api_keys: rows.map(toApiKey) };
    },

    async create(
      caller: Caller,
      organizationId: string,
      input: { name: string; scopes: ApiScope[] },
      info: ClientInfo,
    ): Promise<{ api_key: ApiKey; secret: string }> {
      const org = await ownOrganization(caller, organizationId, db, true);
      const scopes = [...new Set(input.scopes)];
      for (let attempt = 1; ; attempt++) {
        const made = generateKey();
        try {
          return await db.transaction().execute(async (trx) => {
            const created = await trx
              .insertInto('api_keys')
              .values({
                organization_id: org.id,
                name: input.name,
                prefix: made.prefix,
                secret_hash: made.hash,
                scopes,
                created_by: caller.userId,
              })
              .returning('id')
              .executeTakeFirstOrThrow();
            await auditAction(trx, caller, info, {
              organizationId: org.id,
              action: 'api_key.create',
              targetType: 'api_key',
              targetId: created.id,
              details: { name: input.name, prefix: made.prefix, scopes },
            });
            const row = await keysQuery(trx, org.id).where('k.id', '=', created.id).executeTakeFirstOrThrow();
            return { api_key: toApiKey(row), secret: made.key };
          });
        } catch (error) {
          // The only unique value of a key is its prefix: draw another.
          if (!isUniqueViolation(error) || attempt >= PREFIX_ATTEMPTS) throw error;
        }
      }
    },

    /** A revoked key stops at once; revoking it again changes nothing. */
    async revoke(caller: Caller, organizationId: string, keyId: string, info: ClientInfo): Promise<{ api_key: ApiKey }> {
      return db.transaction().execute(async (trx) => {
        const org = await ownOrganization(caller, organizationId, trx, true);
        const key = await trx
          .selectFrom('api_keys')
          .select(['id', 'prefix', 'revoked_at'])
          .where('id', '=', keyId)
          .where('organization_id', '=', org.id)
          .forUpdate()
          .executeTakeFirst();
        if (!key) throw new NotFoundError(k.notFound);
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
        return { api_key: toApiKey(await keysQuery(trx, org.id).where('k.id', '=', key.id).executeTakeFirstOrThrow()) };
      });
    },
  };
}

export type ApiKeysService = ReturnType<typeof createApiKeysService>;
