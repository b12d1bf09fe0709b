import { sql, type Kysely } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import { MESSAGES } from '@console/domain';
import type { DB } from '../../db/schema.ts';
import { activeAdmins } from '../../lib/admins.ts';
import type { Mailer } from '../../lib/mail.ts';

const w = MESSAGES.webhooks;

/**
 * Disables the endpoints that answered 410 (`goneDeliveries` are the deliveries so answered)
 * or failed without a success for `disableAfterMs`, fails what they wait to deliver, and
 * mails their admins, each in its own transaction; answers the endpoints it disabled.
 */
export async function disableFailing(
  { db, mailer, logger, disableAfterMs }: { db: Kysely<DB>; mailer: Mailer; logger: FastifyBaseLogger; disableAfterMs: number },
  goneDeliveries: string[],
): Promise<Set<string>> {
  const disabled = new Set<string>();
  const candidates = await sql<{ id: string; reason: 'failing' | 'gone' }>`
    select ep.id, case when exists (select 1 from webhook_deliveries d where d.endpoint_id = ep.id and d.id = any(${goneDeliveries}::uuid[])) then 'gone' else 'failing' end as reason
    from webhook_endpoints ep
    where ep.enabled and (ep.failing_since < now() - ${`${disableAfterMs} milliseconds`}::interval
      or ep.id in (select d.endpoint_id from webhook_deliveries d where d.id = any(${goneDeliveries}::uuid[])))`.execute(db);
  for (const candidate of candidates.rows) {
    await db.transaction().execute(async (trx) => {
      const { rows } = await sql<{ url: string; organization_id: string; name: string }>`
        update webhook_endpoints ep set enabled = false, disabled_reason = ${candidate.reason}, disabled_at = now()
        from organizations o
        where ep.id = ${candidate.id} and ep.enabled and o.id = ep.organization_id
        returning ep.url, ep.organization_id, o.name`.execute(trx);
      const endpoint = rows[0];
      if (!endpoint) return;
      disabled.add(candidate.id);
      await sql`update webhook_deliveries set state = 'failed', next_attempt_at = null, lease_until = null
        where endpoint_id = ${candidate.id} and state = 'pending'`.execute(trx);
      const text =
        candidate.reason === 'gone'
          ? w.disabledGone(endpoint.name, endpoint.url)
          : w.disabledFailing(endpoint.name, endpoint.url, Math.round(disableAfterMs / 3_600_000));
      for (const admin of await activeAdmins(trx, [endpoint.organization_id]))
        await mailer.send({ to: admin.email, subject: w.disabledSubject(endpoint.url), text }, trx);
      logger.warn({ endpoint: candidate.id, reason: candidate.reason }, 'webhook endpoint disabled');
    });
  }
  return disabled;
}
