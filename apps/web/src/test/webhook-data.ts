import type { WebhookAttempt, WebhookDelivery, WebhookEndpoint } from '@console/domain';
import { OWN_ORG_ID } from './helpers';

export const ENDPOINT_ID = '00000000-0000-4000-8000-0000000000e1';
export const DELIVERY_ID = '00000000-0000-4000-8000-0000000000f1';
const EVENT_ID = '00000000-0000-4000-8000-0000000000f9';

/** The requests of the webhooks pages, as mockApi names them. */
export const WEBHOOKS_BASE = `/api/organizations/${OWN_ORG_ID}/webhooks`;
export const LIST = `GET ${WEBHOOKS_BASE}`;
export const CREATE = `POST ${WEBHOOKS_BASE}`;
export const endpointPath = (id = ENDPOINT_ID) => `${WEBHOOKS_BASE}/${id}`;
export const DELIVERIES = `GET ${endpointPath()}/deliveries`;

/** An endpoint as the list gives it: enabled, delivering, subscribed to the balance events. */
export function endpointOf(overrides: Partial<WebhookEndpoint> = {}): WebhookEndpoint {
  return {
    id: ENDPOINT_ID,
    organization_id: OWN_ORG_ID,
    url: 'https://hooks.example.com/console',
    description: 'Billing alerts',
    event_types: ['balance.low', 'balance.recovered'],
    include_subtree: false,
    enabled: true,
    disabled_reason: null,
    disabled_at: null,
    failing_since: null,
    last_success_at: '2025-03-02T09:30:00.000Z',
    secret_created_at: '2025-03-01T10:00:00.000Z',
    previous_secret_expires_at: null,
    created_at: '2025-03-01T10:00:00.000Z',
    pending: 0,
    failed_recently: 0,
    ...overrides,
  };
}

export function attemptOf(overrides: Partial<WebhookAttempt> = {}): WebhookAttempt {
  return {
    attempted_at: '2025-03-02T09:30:00.000Z',
    status_code: 200,
    response_ms: 120,
    error: null,
    response_body: 'ok',
    ...overrides,
  };
}

/** A delivery as the log gives it: a low balance of the own organization, delivered at the first attempt. */
export function deliveryOf(overrides: Partial<WebhookDelivery> = {}): WebhookDelivery {
  return {
    id: DELIVERY_ID,
    event: {
      id: EVENT_ID,
      type: 'balance.low',
      created_at: '2025-03-02T09:29:58.000Z',
      organization: { id: OWN_ORG_ID, name: 'Acme Corporation' },
    },
    state: 'delivered',
    attempts: 1,
    next_attempt_at: null,
    delivered_at: '2025-03-02T09:30:00.000Z',
    created_at: '2025-03-02T09:29:58.000Z',
    recent_attempts: [attemptOf()],
    ...overrides,
  };
}
