import { sql } from 'kysely';
import { MESSAGES, type WebhookDelivery, type WebhookDeliveryState, type WebhookEndpoint } from '@console/domain';
import type { Executor } from '../../db/schema.ts';
import { NotFoundError } from '../../lib/errors.ts';

const w = MESSAGES.webhooks;

/** The endpoint columns every answer reads, with its waiting and recently failed deliveries counted. */
export function endpointsQuery(executor: Executor, organizationId: string) {
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
export const toEndpoint = (row: EndpointRow): WebhookEndpoint => ({
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
export function deliveriesQuery(endpointId: string, options: { state?: WebhookDeliveryState; after?: string; id?: string; limit: number }) {
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

export const toDelivery = (row: DeliveryRow): WebhookDelivery => ({
  id: row.id,
  event: { id: row.event_id, type: row.type, created_at: row.event_created_at, organization: { id: row.org_id, name: row.org_name } },
  state: row.state,
  attempts: row.attempts,
  next_attempt_at: row.next_attempt_at,
  delivered_at: row.delivered_at,
  created_at: row.created_at,
  recent_attempts: row.recent_attempts ?? [],
});

/** One endpoint of the organization, as answers show it. */
export const oneEndpoint = async (executor: Executor, organizationId: string, endpointId: string) =>
  toEndpoint(await endpointsQuery(executor, organizationId).where('ep.id', '=', endpointId).executeTakeFirstOrThrow());

/** One delivery of the endpoint, as the log shows it. */
export async function oneDelivery(executor: Executor, endpointId: string, deliveryId: string) {
  const { rows } = await deliveriesQuery(endpointId, { id: deliveryId, limit: 1 }).execute(executor);
  if (!rows[0]) throw new NotFoundError(w.deliveryNotFound);
  return toDelivery(rows[0]);
}
