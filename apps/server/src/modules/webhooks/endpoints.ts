import { sql, type Kysely } from 'kysely';
import {
  ERROR_CODES,
  MESSAGES,
  WEBHOOKS,
  type WebhookEventType,
  type CreateWebhookEndpointInput,
  type UpdateWebhookEndpointInput,
} from '@console/domain';
import type { DB } from '../../db/schema.ts';
import { auditAction } from '../../lib/audit.ts';
import type { Caller } from '../../lib/caller.ts';
import { AppError, RuleError } from '../../lib/errors.ts';
import type { ClientInfo } from '../../lib/request-info.ts';
import type { SecretSealer } from '../../lib/sealer.ts';
import type { WebhookAccess } from './access.ts';
import { urlProblem, type AllowedHosts } from './address.ts';
import { endpointsQuery, oneEndpoint as one, toEndpoint } from './queries.ts';
import { makeSigningSecret } from './signing.ts';

const w = MESSAGES.webhooks;

/**
 * The fields an edit changes: those given with a value other than the endpoint's (the event
 * types as a set). An edit that changes none is answered without a write.
 */
function changedFields(
  current: { url: string; description: string; event_types: string[]; include_subtree: boolean; enabled: boolean },
  input: UpdateWebhookEndpointInput,
): (keyof UpdateWebhookEndpointInput)[] {
  const sameSet = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x) => b.includes(x));
  const changed = {
    url: input.url !== undefined && input.url !== current.url,
    description: input.description !== undefined && input.description !== current.description,
    event_types: input.event_types !== undefined && !sameSet(input.event_types, current.event_types),
    include_subtree: input.include_subtree !== undefined && input.include_subtree !== current.include_subtree,
    enabled: input.enabled !== undefined && input.enabled !== current.enabled,
  };
  return (Object.keys(changed) as (keyof typeof changed)[]).filter((key) => changed[key]);
}

/** The create body as the route's schema parsed it (defaults applied). */
export function normalizeCreate(input: CreateWebhookEndpointInput) {
  return {
    url: input.url,
    description: input.description ?? '',
    event_types: input.event_types as WebhookEventType[],
    include_subtree: input.include_subtree ?? false,
    enabled: input.enabled ?? true,
  };
}

/**
 * An organization's endpoints: listed, registered (with a URL the server may post to and a
 * signing secret answered once, stored sealed), edited (a disabled endpoint's waiting
 * deliveries fail) and deleted. Only the subtree's parents may receive their subtree's events.
 */
export function createEndpoints({
  db,
  access,
  sealer,
  allowed,
}: {
  db: Kysely<DB>;
  access: WebhookAccess;
  sealer: SecretSealer;
  allowed: AllowedHosts;
}) {
  const { ownOrganization, count, lockedEndpoint } = access;

  async function checkUrl(url: string) {
    const problem = await urlProblem(url, allowed);
    if (!problem) return;
    const message = problem.kind === 'https_only' ? w.httpsOnly : w.privateAddress(problem.host);
    throw new AppError(422, ERROR_CODES.rule, message, { url: message });
  }

  async function list(caller: Caller, organizationId: string) {
    const org = await ownOrganization(caller, organizationId, db, false);
    const rows = await endpointsQuery(db, org.id)
      .orderBy('ep.created_at', 'desc')
      .orderBy('ep.id', 'desc')
      .limit(WEBHOOKS.maxEndpointsPerOrganization)
      .execute();
    return { endpoints: rows.map(toEndpoint) };
  }

  async function create(caller: Caller, organizationId: string, input: ReturnType<typeof normalizeCreate>, info: ClientInfo) {
    // Who may, before the URL is looked up (a name may take a moment to resolve); checked again in the transaction.
    await ownOrganization(caller, organizationId, db, true);
    await checkUrl(input.url);
    const secret = makeSigningSecret();
    const endpoint = await db.transaction().execute(async (trx) => {
      const org = await ownOrganization(caller, organizationId, trx, true);
      if (input.include_subtree && org.org_type === 'tenant') throw new RuleError(w.subtreeOnlyParents);
      await count(trx, org.id);
      // The organization's billing row serializes registrations, so two at once cannot pass the maximum together.
      await trx
        .selectFrom('organization_billing_settings')
        .select('organization_id')
        .where('organization_id', '=', org.id)
        .forUpdate()
        .execute();
      const { n } = await trx
        .selectFrom('webhook_endpoints')
        .select(sql<number>`count(*)::integer`.as('n'))
        .where('organization_id', '=', org.id)
        .executeTakeFirstOrThrow();
      if (Number(n) >= WEBHOOKS.maxEndpointsPerOrganization) throw new RuleError(w.tooMany(WEBHOOKS.maxEndpointsPerOrganization));
      const created = await trx
        .insertInto('webhook_endpoints')
        .values({
          organization_id: org.id,
          url: input.url,
          description: input.description,
          event_types: input.event_types,
          include_subtree: input.include_subtree,
          enabled: input.enabled,
          disabled_reason: input.enabled ? null : 'manual',
          disabled_at: input.enabled ? null : sql<string>`now()`,
          secret_encrypted: sealer.seal(secret),
          created_by: caller.userId,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await auditAction(trx, caller, info, {
        organizationId: org.id,
        action: 'webhook.create',
        targetType: 'webhook_endpoint',
        targetId: created.id,
        details: { url: input.url, event_types: input.event_types, include_subtree: input.include_subtree, enabled: input.enabled },
      });
      return one(trx, org.id, created.id);
    });
    return { endpoint, secret };
  }

  async function update(caller: Caller, organizationId: string, endpointId: string, input: UpdateWebhookEndpointInput, info: ClientInfo) {
    if (input.url !== undefined) {
      await ownOrganization(caller, organizationId, db, true);
      await checkUrl(input.url);
    }
    return db.transaction().execute(async (trx) => {
      const org = await ownOrganization(caller, organizationId, trx, true);
      const current = await lockedEndpoint(trx, org.id, endpointId);
      if (input.include_subtree && org.org_type === 'tenant') throw new RuleError(w.subtreeOnlyParents);
      const changes = changedFields(current, input);
      // Nothing to change: the endpoint as it is, with no write, no audit row and nothing counted.
      if (changes.length === 0) return { endpoint: await one(trx, org.id, current.id) };
      await count(trx, org.id);
      const enabling = changes.includes('enabled') && input.enabled === true;
      const disabling = changes.includes('enabled') && input.enabled === false;
      await trx
        .updateTable('webhook_endpoints')
        .set({
          ...(changes.includes('url') && { url: input.url }),
          ...(changes.includes('description') && { description: input.description }),
          ...(changes.includes('event_types') && { event_types: input.event_types as WebhookEventType[] }),
          ...(changes.includes('include_subtree') && { include_subtree: input.include_subtree }),
          ...(enabling && {
            enabled: true,
            disabled_reason: null,
            disabled_at: null,
            failing_since: null,
            timeouts_in_row: 0,
            paused_until: null,
          }),
          ...(disabling && { enabled: false, disabled_reason: 'manual', disabled_at: sql<string>`now()` }),
        })
        .where('id', '=', current.id)
        .execute();
      // What a disabled endpoint waited to receive fails now; it can be redelivered once enabled.
      if (disabling)
        await sql`update webhook_deliveries set state = 'failed', next_attempt_at = null, lease_until = null
          where endpoint_id = ${current.id} and state = 'pending'`.execute(trx);
      await auditAction(trx, caller, info, {
        organizationId: org.id,
        action: 'webhook.update',
        targetType: 'webhook_endpoint',
        targetId: current.id,
        details: {
          url: input.url ?? current.url,
          changes,
          ...(disabling || enabling ? { enabled: input.enabled } : {}),
        },
      });
      return { endpoint: await one(trx, org.id, current.id) };
    });
  }

  async function remove(caller: Caller, organizationId: string, endpointId: string, info: ClientInfo) {
    return db.transaction().execute(async (trx) => {
      const org = await ownOrganization(caller, organizationId, trx, true);
      const current = await lockedEndpoint(trx, org.id, endpointId);
      await count(trx, org.id);
      const endpoint = await one(trx, org.id, current.id);
      await trx.deleteFrom('webhook_endpoints').where('id', '=', current.id).execute();
      await auditAction(trx, caller, info, {
        organizationId: org.id,
        action: 'webhook.delete',
        targetType: 'webhook_endpoint',
        targetId: current.id,
        details: { url: current.url },
      });
      return { endpoint };
    });
  }

  return { list, create, update, remove };
}
