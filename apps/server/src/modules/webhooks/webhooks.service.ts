import { sql, type Kysely } from 'kysely';
import {
  ERROR_CODES,
  MESSAGES,
  waitOf,
  WEBHOOKS,
  WEBHOOK_TEST_EVENT,
  isOwnOrganization,
  mayManageWebhooksOf,
  type WebhookDelivery,
  type WebhookDeliveryState,
  type WebhookEndpoint,
  type WebhookEventType,
  type CreateWebhookEndpointInput,
  type UpdateWebhookEndpointInput,
} from '@console/domain';
import type { DB, Executor } from '../../db/schema.ts';
import { auditAction } from '../../lib/audit.ts';
import type { Caller } from '../../lib/caller.ts';
import { AppError, BadRequestError, ForbiddenError, NotFoundError, RuleError } from '../../lib/errors.ts';
import { countOrRefuse } from '../../lib/rate-limit.ts';
import type { ClientInfo } from '../../lib/request-info.ts';
import type { RateLimitSettings } from '../../context.ts';
import type { OrganizationsService } from '../organizations/organizations.service.ts';
import { urlProblem, type AllowedHosts } from './address.ts';
import { makeSigningSecret, type SecretSealer } from './signing.ts';

const w = MESSAGES.webhooks;

/** The endpoint columns every answer reads, with its waiting and recently failed deliveries counted. */
function endpointsQuery(executor: Executor, organizationId: string) {
  return executor
    .selectFrom('webhook_endpoints as ep')
    .select([
      'ep.id',
      'ep.organization_id',
      'ep.url',
      'ep.description',
      'ep.event_types',
      'ep.include_subtree',
      'ep.enabled',
      'ep.disabled_reason',
      'ep.disabled_at',
      'ep.failing_since',
      'ep.last_success_at',
      'ep.secret_created_at',
      sql<string | null>`case when ep.previous_secret_expires_at > now() then ep.previous_secret_expires_at end`.as(
        'previous_secret_expires_at',
      ),
      'ep.created_at',
      sql<number>`(select count(*)::integer from webhook_deliveries d where d.endpoint_id = ep.id and d.state = 'pending')`.as('pending'),
      sql<number>`(select count(*)::integer from webhook_deliveries d where d.endpoint_id = ep.id and d.state = 'failed'
        and d.created_at > now() - interval '24 hours')`.as('failed_recently'),
    ])
    .where('ep.organization_id', '=', organizationId);
}

type EndpointRow = Awaited<ReturnType<ReturnType<typeof endpointsQuery>['executeTakeFirstOrThrow']>>;
const toEndpoint = (row: EndpointRow): WebhookEndpoint => ({
  ...row,
  pending: Number(row.pending),
  failed_recently: Number(row.failed_recently),
});

interface DeliveryRow {
  id: string;
  event_id: string;
  type: WebhookDelivery['event']['type'];
  event_created_at: string;
  org_id: string;
  org_name: string;
  state: WebhookDeliveryState;
  attempts: number;
  next_attempt_at: string | null;
  delivered_at: string | null;
  created_at: string;
  recent_attempts: WebhookDelivery['recent_attempts'] | null;
}

/** The delivery log's rows of an endpoint, newest first; served by webhook_deliveries_log_idx. */
function deliveriesQuery(endpointId: string, options: { state?: WebhookDeliveryState; after?: string; id?: string; limit: number }) {
  return sql<DeliveryRow>`
    select d.id, e.id as event_id, e.type, e.created_at as event_created_at, o.id as org_id, o.name as org_name,
           d.state, d.attempts, d.next_attempt_at, d.delivered_at, d.created_at,
           (select jsonb_agg(jsonb_build_object('attempted_at', to_char(a.attempted_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                     'status_code', a.status_code, 'response_ms', a.response_ms, 'error', a.error, 'response_body', a.response_body) order by a.id desc)
            from (select * from webhook_attempts a where a.delivery_id = d.id order by a.id desc limit 10) a) as recent_attempts
    from webhook_deliveries d
    join webhook_events e on e.id = d.event_id
    join organizations o on o.id = e.organization_id
    where d.endpoint_id = ${endpointId}
      and (${options.id ?? null}::uuid is null or d.id = ${options.id ?? null}::uuid)
      and (${options.state ?? null}::text is null or d.state = ${options.state ?? null}::text)
      and (${options.after ?? null}::uuid is null or (d.created_at, d.id) < (select c.created_at, c.id from webhook_deliveries c
            where c.id = ${options.after ?? null}::uuid and c.endpoint_id = ${endpointId}))
    order by d.created_at desc, d.id desc
    limit ${options.limit}`;
}

const toDelivery = (row: DeliveryRow): WebhookDelivery => ({
  id: row.id,
  event: { id: row.event_id, type: row.type, created_at: row.event_created_at, organization: { id: row.org_id, name: row.org_name } },
  state: row.state,
  attempts: row.attempts,
  next_attempt_at: row.next_attempt_at,
  delivered_at: row.delivered_at,
  created_at: row.created_at,
  recent_attempts: row.recent_attempts ?? [],
});

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

const PAGE = 50;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export interface WebhooksServiceOptions {
  db: Kysely<DB>;
  organizations: OrganizationsService;
  sealer: SecretSealer;
  allowed: AllowedHosts;
  limits: RateLimitSettings;
  /** Asks the sender for a look now: a test event or a redelivery is sent within a moment. */
  wake: () => void;
}

/**
 * Webhook endpoints of an organization, managed by its own admins: registered with a URL
 * (https, to a public address; http and private addresses only where the server allows
 * them), the events it receives, and whether its subtree's events come too. The signing
 * secret is answered once, when made or rotated, and stored sealed. Every change is audited
 * without the secret, and counted against the organization's allowance of webhook actions.
 */
export function createWebhooksService({ db, organizations, sealer, allowed, limits, wake }: WebhooksServiceOptions) {
  /** The organization whose endpoints the caller reads (its own) or changes (its own, as an admin of a live organization). */
  async function ownOrganization(caller: Caller, organizationId: string, executor: Executor, writing: boolean) {
    const target = await organizations.visible(caller, organizationId, executor);
    const allowedTo = writing ? mayManageWebhooksOf(caller, target) : isOwnOrganization(caller, target);
    if (!allowedTo) throw new ForbiddenError(w.onlyOwnAdmins);
    return target;
  }

  async function count(trx: Executor, organizationId: string) {
    await countOrRefuse(trx, [
      {
        key: `webhooks:${organizationId}`,
        max: limits.webhookActionsPerOrganization,
        windowSeconds: limits.webhookActionsWindowSeconds,
        message: (wait) => w.tooMany429(waitOf(wait)),
      },
    ]);
  }

  async function checkUrl(url: string) {
    const problem = await urlProblem(url, allowed);
    if (!problem) return;
    const message = problem.kind === 'https_only' ? w.httpsOnly : w.privateAddress(problem.host);
    throw new AppError(422, ERROR_CODES.rule, message, { url: message });
  }

  async function lockedEndpoint(trx: Executor, organizationId: string, endpointId: string) {
    const row = await trx
      .selectFrom('webhook_endpoints')
      .select(['id', 'url', 'description', 'event_types', 'enabled', 'include_subtree', 'secret_encrypted'])
      .where('id', '=', endpointId)
      .where('organization_id', '=', organizationId)
      .forUpdate()
      .executeTakeFirst();
    if (!row) throw new NotFoundError(w.notFound);
    return row;
  }

  const one = async (executor: Executor, organizationId: string, endpointId: string) =>
    toEndpoint(await endpointsQuery(executor, organizationId).where('ep.id', '=', endpointId).executeTakeFirstOrThrow());

  async function oneDelivery(executor: Executor, endpointId: string, deliveryId: string) {
    const { rows } = await deliveriesQuery(endpointId, { id: deliveryId, limit: 1 }).execute(executor);
    if (!rows[0]) throw new NotFoundError(w.deliveryNotFound);
    return toDelivery(rows[0]);
  }

  return {
    async list(caller: Caller, organizationId: string) {
      const org = await ownOrganization(caller, organizationId, db, false);
      const rows = await endpointsQuery(db, org.id)
        .orderBy('ep.created_at', 'desc')
        .orderBy('ep.id', 'desc')
        .limit(WEBHOOKS.maxEndpointsPerOrganization)
        .execute();
      return { endpoints: rows.map(toEndpoint) };
    },

    async create(caller: Caller, organizationId: string, input: ReturnType<typeof normalizeCreate>, info: ClientInfo) {
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
    },

    async update(caller: Caller, organizationId: string, endpointId: string, input: UpdateWebhookEndpointInput, info: ClientInfo) {
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
            ...(enabling && { enabled: true, disabled_reason: null, disabled_at: null, failing_since: null }),
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
    },

    async remove(caller: Caller, organizationId: string, endpointId: string, info: ClientInfo) {
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
    },

    async rotate(caller: Caller, organizationId: string, endpointId: string, graceHours: number, info: ClientInfo) {
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
    },

    /** A webhook.test event of the organization, delivered to this endpoint only (whatever it subscribes to). */
    async test(caller: Caller, organizationId: string, endpointId: string, info: ClientInfo) {
      const delivery = await db.transaction().execute(async (trx) => {
        const org = await ownOrganization(caller, organizationId, trx, true);
        const current = await lockedEndpoint(trx, org.id, endpointId);
        if (!current.enabled) throw new RuleError(w.endpointDisabled);
        await count(trx, org.id);
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
        await auditAction(trx, caller, info, {
          organizationId: org.id,
          action: 'webhook.redeliver',
          targetType: 'webhook_endpoint',
          targetId: current.id,
          details: { url: current.url, test: true, count: 1 },
        });
        return oneDelivery(trx, current.id, made.id);
      });
      wake();
      return { delivery };
    },

    async deliveries(caller: Caller, organizationId: string, endpointId: string, query: { state?: WebhookDeliveryState; cursor?: string }) {
      const org = await ownOrganization(caller, organizationId, db, false);
      const endpoint = await db
        .selectFrom('webhook_endpoints')
        .select('id')
        .where('id', '=', endpointId)
        .where('organization_id', '=', org.id)
        .executeTakeFirst();
      if (!endpoint) throw new NotFoundError(w.notFound);
      if (query.cursor !== undefined && !UUID.test(query.cursor))
        throw new BadRequestError(MESSAGES.apiKeys.invalidCursor, { cursor: MESSAGES.apiKeys.invalidCursor });
      const { rows } = await deliveriesQuery(endpoint.id, { state: query.state, after: query.cursor, limit: PAGE + 1 }).execute(db);
      const page = rows.slice(0, PAGE);
      return { deliveries: page.map(toDelivery), next_cursor: rows.length > PAGE ? page[page.length - 1]!.id : null };
    },

    /** Sends one delivery again now, with the same webhook-id; a pending one is moved to now. */
    async redeliver(caller: Caller, organizationId: string, endpointId: string, deliveryId: string, info: ClientInfo) {
      const delivery = await db.transaction().execute(async (trx) => {
        const org = await ownOrganization(caller, organizationId, trx, true);
        const current = await lockedEndpoint(trx, org.id, endpointId);
        if (!current.enabled) throw new RuleError(w.endpointDisabled);
        await count(trx, org.id);
        const changed = await trx
          .updateTable('webhook_deliveries')
          .set({ state: 'pending', next_attempt_at: sql<string>`now()`, delivered_at: null })
          .where('id', '=', deliveryId)
          .where('endpoint_id', '=', current.id)
          .returning('id')
          .executeTakeFirst();
        if (!changed) throw new NotFoundError(w.deliveryNotFound);
        await auditAction(trx, caller, info, {
          organizationId: org.id,
          action: 'webhook.redeliver',
          targetType: 'webhook_endpoint',
          targetId: current.id,
          details: { url: current.url, count: 1, delivery_id: deliveryId },
        });
        return oneDelivery(trx, current.id, changed.id);
      });
      wake();
      return { delivery };
    },

    /** Sends again every failed delivery whose event came since `since` (at most WEBHOOKS.maxRedeliveries). */
    async redeliverFailed(caller: Caller, organizationId: string, endpointId: string, since: string, info: ClientInfo) {
      const redelivered = await db.transaction().execute(async (trx) => {
        const org = await ownOrganization(caller, organizationId, trx, true);
        const current = await lockedEndpoint(trx, org.id, endpointId);
        if (!current.enabled) throw new RuleError(w.endpointDisabled);
        await count(trx, org.id);
        const { rows } = await sql<{ id: string }>`
          update webhook_deliveries d set state = 'pending', next_attempt_at = now()
          where d.id in (
            select f.id from webhook_deliveries f join webhook_events e on e.id = f.event_id
            where f.endpoint_id = ${current.id} and f.state = 'failed' and e.created_at >= ${since}::timestamptz
            order by e.created_at limit ${WEBHOOKS.maxRedeliveries}
          )
          returning d.id`.execute(trx);
        await auditAction(trx, caller, info, {
          organizationId: org.id,
          action: 'webhook.redeliver',
          targetType: 'webhook_endpoint',
          targetId: current.id,
          details: { url: current.url, count: rows.length, since },
        });
        return rows.length;
      });
      if (redelivered > 0) wake();
      return { redelivered };
    },
  };
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
export type WebhooksService = ReturnType<typeof createWebhooksService>;
