import { sql } from 'kysely';
import type { ApiKey } from '@console/domain';
import { auditAction } from '../../lib/audit.ts';
import type { Caller } from '../../lib/caller.ts';
import type { ClientInfo } from '../../lib/request-info.ts';
import { freshKey, lockedKey, oneKey, ownOrganization, requireLive, withFreshPrefix, type ApiKeysDeps } from './queries.ts';

export function createRoll({ db, organizations, limits }: ApiKeysDeps) {
  /**
   * A new secret (with a new prefix) for a live key, answered once; the secret in use becomes
   * the previous one, accepted for `grace_seconds` more (0: it ends now). A previous secret
   * from an earlier roll, in its grace period or not, ends: a key has one previous secret.
   */
  async function roll(
    caller: Caller,
    organizationId: string,
    keyId: string,
    input: { grace_seconds: number },
    info: ClientInfo,
  ): Promise<{ api_key: ApiKey; secret: string }> {
    return withFreshPrefix(() =>
      db.transaction().execute(async (trx) => {
        const org = await ownOrganization(organizations, caller, organizationId, trx, true);
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
  }

  return { roll };
}
