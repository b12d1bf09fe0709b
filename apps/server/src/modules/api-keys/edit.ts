import type { ApiKey } from '@console/domain';
import { auditAction } from '../../lib/audit.ts';
import type { Caller } from '../../lib/caller.ts';
import type { ClientInfo } from '../../lib/request-info.ts';
import { checkExpiry, checkRateLimit, lockedKey, oneKey, ownOrganization, requireLive, type ApiKeysDeps } from './queries.ts';

/** What an edit may change on a key; a field left out stays as it is. */
type KeyEdit = {
  name?: string;
  expires_at?: string | null;
  rate_limit_per_minute?: number | null;
  monthly_cap?: string | null;
  weekly_cap?: string | null;
  daily_cap?: string | null;
};

export function createEdit({ db, organizations, limits }: ApiKeysDeps) {
  /** Renames a live key, sets or clears its end date and its rate limit; what is left out stays. */
  async function update(
    caller: Caller,
    organizationId: string,
    keyId: string,
    input: KeyEdit,
    info: ClientInfo,
  ): Promise<{ api_key: ApiKey }> {
    return db.transaction().execute(async (trx) => {
      const org = await ownOrganization(organizations, caller, organizationId, trx, true);
      const key = await lockedKey(trx, org.id, keyId);
      requireLive(key);
      const before: Record<string, unknown> = {};
      const after: Record<string, unknown> = {};
      const set: KeyEdit = {};
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
  }

  return { update };
}
