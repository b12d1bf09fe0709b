import { sql } from 'kysely';
import type { ApiKey } from '@console/domain';
import { auditAction } from '../../lib/audit.ts';
import type { Caller } from '../../lib/caller.ts';
import type { ClientInfo } from '../../lib/request-info.ts';
import { lockedKey, oneKey, ownOrganization, type ApiKeysDeps } from './queries.ts';

export function createRevoke({ db, organizations }: Pick<ApiKeysDeps, 'db' | 'organizations'>) {
  /** A revoked key stops at once, with both its secrets; revoking it again changes nothing. */
  async function revoke(caller: Caller, organizationId: string, keyId: string, info: ClientInfo): Promise<{ api_key: ApiKey }> {
    return db.transaction().execute(async (trx) => {
      const org = await ownOrganization(organizations, caller, organizationId, trx, true);
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
  }

  return { revoke };
}
