import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { auditAction } from '../../lib/audit.ts';
import type { Caller } from '../../lib/caller.ts';
import type { ClientInfo } from '../../lib/request-info.ts';
import type { SecretSealer } from '../../lib/sealer.ts';
import type { WebhookAccess } from './access.ts';
import { oneEndpoint as one } from './queries.ts';
import { makeSigningSecret } from './signing.ts';

export function createRotate({ db, access, sealer }: { db: Kysely<DB>; access: WebhookAccess; sealer: SecretSealer }) {
  const { ownOrganization, count, lockedEndpoint } = access;

  /**
   * A new signing secret for the endpoint, answered once and stored sealed; the old one still
   * signs beside it for `graceHours` (0: it ends now), so a receiver can change over.
   */
  async function rotate(caller: Caller, organizationId: string, endpointId: string, graceHours: number, info: ClientInfo) {
    const secret = makeSigningSecret();
    const endpoint = await db.transaction().execute(async (trx) => {
      const org = await ownOrganization(caller, organizationId, trx, true);
      const current = await lockedEndpoint(trx, org.id, endpointId);
      await count(trx, org.id);
      await trx
        .updateTable('webhook_endpoints')
        .set({
          secret_encrypted: sealer.seal(secret),
          secret_created_at: sql<string>`now()`,
          previous_secret_encrypted: graceHours > 0 ? current.secret_encrypted : null,
          previous_secret_expires_at: graceHours > 0 ? sql<string>`now() + make_interval(hours => ${graceHours})` : null,
        })
        .where('id', '=', current.id)
        .execute();
      await auditAction(trx, caller, info, {
        organizationId: org.id,
        action: 'webhook.rotate',
        targetType: 'webhook_endpoint',
        targetId: current.id,
        details: { url: current.url, grace_hours: graceHours },
      });
      return one(trx, org.id, current.id);
    });
    return { endpoint, secret };
  }

  return { rotate };
}
