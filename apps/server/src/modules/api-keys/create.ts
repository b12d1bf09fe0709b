import type { ApiKey, ApiScope } from '@console/domain';
import { auditAction } from '../../lib/audit.ts';
import type { Caller } from '../../lib/caller.ts';
import type { ClientInfo } from '../../lib/request-info.ts';
import { checkExpiry, checkRateLimit, freshKey, oneKey, ownOrganization, withFreshPrefix, type ApiKeysDeps } from './queries.ts';

export function createCreate({ db, organizations, limits }: ApiKeysDeps) {
  /** A new key of the organization, its secret answered once (only its hash is stored). */
  async function create(
    caller: Caller,
    organizationId: string,
    input: { name: string; scopes: ApiScope[]; expires_at?: string | null; rate_limit_per_minute?: number | null },
    info: ClientInfo,
  ): Promise<{ api_key: ApiKey; secret: string }> {
    const org = await ownOrganization(organizations, caller, organizationId, db, true);
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
  }

  return { create };
}
