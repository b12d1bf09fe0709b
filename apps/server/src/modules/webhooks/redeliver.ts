import { sql, type Kysely } from 'kysely';
import { MESSAGES, WEBHOOKS, WEBHOOK_TEST_EVENT, waitOf } from '@console/domain';
import type { DB, Executor } from '../../db/schema.ts';
import { auditAction } from '../../lib/audit.ts';
import type { Caller } from '../../lib/caller.ts';
import { NotFoundError, RateLimitedError, RuleError } from '../../lib/errors.ts';
import { countHit, windowCount } from '../../lib/rate-limit.ts';
import type { ClientInfo } from '../../lib/request-info.ts';
import type { RateLimitSettings } from '../../lib/rate-limit-settings.ts';
import type { WebhookAccess } from './access.ts';
import { oneDelivery } from './queries.ts';

const w = MESSAGES.webhooks;

/**
 * What makes the sender post again for the caller: a test event, one delivery's redelivery,
 * and the redelivery of every failed one since a time. Each is a webhook action, and the
 * deliveries each queues count against the organization's allowance of redelivered
 * deliveries (RATE_LIMITS.webhookRedeliveriesPerOrganization a window), so a bulk
 * redelivery weighs what it queues, not one action.
 */
export function createRedeliveries({
  db,
  access,
  limits,
  wake,
}: {
  db: Kysely<DB>;
  access: WebhookAccess;
  limits: RateLimitSettings;
  /** Asks the sender for a look now: what is queued is sent within a moment. */
  wake: () => void;
}) {
  const { ownOrganization, count, lockedEndpoint } = access;
  const budgetKey = (organizationId: string) => `webhook-redeliveries:${organizationId}`;
  const windowMs = limits.webhookActionsWindowSeconds * 1000;

  /**
   * How many deliveries the organization may still queue in this window (at least one, or a
   * 429 that changes nothing). Read after `count`, whose lock on the organization's action
   * counter makes its webhook actions take turns, so two cannot both spend what is left.
   */
  async function budgetLeft(trx: Executor, organizationId: string) {
    const { count: used, ttl } = await windowCount(trx, budgetKey(organizationId));
    const left = limits.webhookRedeliveriesPerOrganization - used;
    if (left <= 0) {
      const wait = Math.max(1, Math.ceil(ttl / 1000));
      throw new RateLimitedError(wait, w.tooManyRedeliveries429(limits.webhookRedeliveriesPerOrganization, waitOf(wait)));
    }
    return left;
  }

  const spend = (trx: Executor, organizationId: string, queued: number) =>
    queued > 0 ? countHit(trx, budgetKey(organizationId), windowMs, queued) : Promise.resolve();

  /** The endpoint the caller sends to again: locked, enabled, counted, and out of its pause (the caller asks for a try now). */
  async function sendable(trx: Executor, caller: Caller, organizationId: string, endpointId: string) {
    const org = await ownOrganization(caller, organizationId, trx, true);
    const current = await lockedEndpoint(trx, org.id, endpointId);
    if (!current.enabled) throw new RuleError(w.endpointDisabled);
    await count(trx, org.id);
    const left = await budgetLeft(trx, org.id);
    await trx.updateTable('webhook_endpoints').set({ paused_until: null }).where('id', '=', current.id).execute();
    return { org, current, left };
  }

  /** What a send-again queued: spent from the allowance, and audited as one webhook.redeliver. */
  async function spendAudited(
    trx: Executor,
    caller: Caller,
    info: ClientInfo,
    organizationId: string,
    endpoint: { id: string; url: string },
    details: { count: number; test?: true; delivery_id?: string; since?: string },
  ) {
    await spend(trx, organizationId, details.count);
    await auditAction(trx, caller, info, {
      organizationId,
      action: 'webhook.redeliver',
      targetType: 'webhook_endpoint',
      targetId: endpoint.id,
      details: { url: endpoint.url, ...details },
    });
  }

  return {
    /** A webhook.test event of the organization, delivered to this endpoint only (whatever it subscribes to). */
    async test(caller: Caller, organizationId: string, endpointId: string, info: ClientInfo) {
      const delivery = await db.transaction().execute(async (trx) => {
        const { org, current } = await sendable(trx, caller, organizationId, endpointId);
        const event = await trx
          .insertInto('webhook_events')
          .values({ type: WEBHOOK_TEST_EVENT, organization_id: org.id, data: JSON.stringify({ message: w.testMessage }) })
          .returning('id')
          .executeTakeFirstOrThrow();
        const made = await trx
          .insertInto('webhook_deliveries')
          .values({ event_id: event.id, endpoint_id: current.id, next_attempt_at: sql<string>`now()` })
          .returning('id')
          .executeTakeFirstOrThrow();
        await spendAudited(trx, caller, info, org.id, current, { test: true, count: 1 });
        return oneDelivery(trx, current.id, made.id);
      });
      wake();
      return { delivery };
    },

    /** Sends one delivery again now, with the same webhook-id; a pending one is moved to now. */
    async redeliver(caller: Caller, organizationId: string, endpointId: string, deliveryId: string, info: ClientInfo) {
      const delivery = await db.transaction().execute(async (trx) => {
        const { org, current } = await sendable(trx, caller, organizationId, endpointId);
        const changed = await trx
          .updateTable('webhook_deliveries')
          .set({ state: 'pending', next_attempt_at: sql<string>`now()`, delivered_at: null })
          .where('id', '=', deliveryId)
          .where('endpoint_id', '=', current.id)
          .returning('id')
          .executeTakeFirst();
        if (!changed) throw new NotFoundError(w.deliveryNotFound);
        await spendAudited(trx, caller, info, org.id, current, { count: 1, delivery_id: deliveryId });
        return oneDelivery(trx, current.id, changed.id);
      });
      wake();
      return { delivery };
    },

    /**
     * Sends again the failed deliveries whose event came since `since`, oldest first: at most
     * WEBHOOKS.maxRedeliveries, and at most what is left of the organization's allowance.
     */
    async redeliverFailed(caller: Caller, organizationId: string, endpointId: string, since: string, info: ClientInfo) {
      const redelivered = await db.transaction().execute(async (trx) => {
        const { org, current, left } = await sendable(trx, caller, organizationId, endpointId);
        const { rows } = await sql<{ id: string }>`
          update webhook_deliveries d set state = 'pending', next_attempt_at = now()
          where d.id in (
            select f.id from webhook_deliveries f join webhook_events e on e.id = f.event_id
            where f.endpoint_id = ${current.id} and f.state = 'failed' and e.created_at >= ${since}::timestamptz
            order by e.created_at limit ${Math.min(WEBHOOKS.maxRedeliveries, left)}
          )
          returning d.id`.execute(trx);
        await spendAudited(trx, caller, info, org.id, current, { count: rows.length, since });
        return rows.length;
      });
      if (redelivered > 0) wake();
      return { redelivered };
    },
  };
}
