import { z } from 'zod';
import { ORG_TYPES } from '../hierarchy.ts';
import { MESSAGES } from '../messages.ts';
import { amountStringSchema } from './amounts.ts';
import { isSingleLineText, isStorableText, UNSTORABLE_TEXT, CONTROL_TEXT } from './common.ts';
import { decimal4StringSchema, USAGE_REJECTIONS } from './agents.ts';

const w = MESSAGES.webhooks;

/**
 * What a webhook endpoint may subscribe to. Each event is written by the change it reports, in
 * that change's transaction, so none is lost and none reports a change that rolled back.
 */
export const WEBHOOK_EVENT_TYPES = [
  'balance.low',
  'balance.recovered',
  'usage.refused',
  'credits.allocated',
  'credits.adjusted',
  // An allocation given back within its reversal window: the child's balance goes down.
  'credits.reversed',
  'agent_limit.warning',
  'agent_limit.critical',
  'agent_limit.changed',
  'agent.activated',
  'agent.deactivated',
  'agent.error',
  'api_key.created',
  'api_key.rolled',
  'api_key.revoked',
  'organization.created',
  'organization.suspended',
  'organization.deleted',
  'invitation.accepted',
  'spend_cap.reached',
  'top_up.succeeded',
  'top_up.failed',
  // Second factors: a person's factors and an organization's policy.
  'member.factor_added',
  'member.factor_removed',
  'member.factors_reset',
  'organization.mfa_policy_changed',
  // Invoices: sent to the seller's and the billed child's endpoints only.
  'invoice.issued',
  'invoice.paid',
  'invoice.overdue',
  // Credit grants: a warning before one expires, and its expiry.
  'credits.expiring',
  'credits.expired',
  // An organization's alert line crossed: its bound and the value that crossed it.
  'alert.crossed',
  // A price change: to each organization whose own price it moves, and to each seller whose
  // book it puts below its own price.
  'price.changed',
  'price.floored',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
/** The event "Send test event" sends to one endpoint, whatever it subscribes to. */
export const WEBHOOK_TEST_EVENT = 'webhook.test';
/** Every type an event row may hold: the subscribable ones and the test. */
export const WEBHOOK_EVENT_ROW_TYPES = [...WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT] as const;
export type WebhookEventRowType = (typeof WEBHOOK_EVENT_ROW_TYPES)[number];

/** Where a delivery stands: waiting for its next attempt, delivered (a 2xx), or given up. */
export const WEBHOOK_DELIVERY_STATES = ['pending', 'delivered', 'failed'] as const;
export type WebhookDeliveryState = (typeof WEBHOOK_DELIVERY_STATES)[number];

/** Why an endpoint is disabled: by its admins, after failing for days, or because it answered 410 Gone. */
export const WEBHOOK_DISABLED_REASONS = ['manual', 'failing', 'gone'] as const;
export type WebhookDisabledReason = (typeof WEBHOOK_DISABLED_REASONS)[number];

export const WEBHOOKS = {
  /** Endpoints an organization may hold: each event is sent to each subscribed one. */
  maxEndpointsPerOrganization: 10,
  urlMaxLength: 2000,
  descriptionMaxLength: 200,
  /** A receiver has this long to answer; anything slower is a failed attempt. */
  timeoutMs: 10_000,
  /**
   * Waits before each retry, in seconds (jittered by up to a fifth either way): the first
   * attempt at once, then about 3 days of retries in all, after which the delivery fails.
   */
  retryScheduleSeconds: [5, 60, 300, 1_800, 7_200, 18_000, 36_000, 54_000, 72_000, 72_000],
  /** An endpoint whose deliveries fail without a success for this long is disabled, and its admins told. */
  disableAfterFailingHours: 72,
  /** The answer's start kept with an attempt, in characters; the rest is never read. */
  responseBodyKeptChars: 500,
  /** The longest grace period of the old secret after a rotation. */
  maxRotationGraceHours: 72,
  defaultRotationGraceHours: 24,
  /** Events and their deliveries are kept this long after the event. */
  retentionDays: 30,
  /** usage.refused: at most one event per organization and reason in each period of this many minutes. */
  usageRefusedPeriodMinutes: 15,
  /** A redelivery of "all failed since" takes at most this many deliveries. */
  maxRedeliveries: 1_000,
  /**
   * Attempts in flight at once (leased and not yet recorded, across every server process) to
   * one endpoint, and to all the endpoints of one organization: a receiver that never answers
   * holds at most these many of the senders for the timeout, and the others keep sending.
   */
  inFlightPerEndpoint: 2,
  inFlightPerOrganization: 4,
  /**
   * An endpoint whose attempts time out is paused (nothing is sent to it) for these many
   * seconds after the 1st, 2nd, ... timeout in a row, the last figure from then on; an answer
   * of any status ends the run and the pause.
   */
  timeoutPauseSeconds: [10, 30, 60, 300, 900],
} as const;

const urlSchema = z
  .string()
  .trim()
  .min(1, w.urlRequired)
  .max(WEBHOOKS.urlMaxLength, w.urlTooLong(WEBHOOKS.urlMaxLength))
  .refine((value) => {
    try {
      const url = new URL(value);
      return url.protocol === 'https:' || url.protocol === 'http:';
    } catch {
      return false;
    }
  }, w.urlInvalid)
  .refine((value) => {
    try {
      const url = new URL(value);
      return !url.username && !url.password;
    } catch {
      return true;
    }
  }, w.urlCredentials);

const descriptionSchema = z
  .string()
  .trim()
  .max(WEBHOOKS.descriptionMaxLength, w.descriptionTooLong(WEBHOOKS.descriptionMaxLength))
  .refine(isStorableText, UNSTORABLE_TEXT)
  .refine(isSingleLineText, CONTROL_TEXT);

const eventTypesSchema = z
  .array(z.enum(WEBHOOK_EVENT_TYPES))
  .min(1, w.chooseEvents)
  .max(WEBHOOK_EVENT_TYPES.length)
  .refine((types) => new Set(types).size === types.length, w.duplicateEvents);

export const webhookEndpointSchema = z.object({
  id: z.uuid(),
  organization_id: z.uuid(),
  url: z.string(),
  description: z.string(),
  event_types: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
  /** Also the events of every organization below this one. */
  include_subtree: z.boolean(),
  enabled: z.boolean(),
  disabled_reason: z.enum(WEBHOOK_DISABLED_REASONS).nullable(),
  disabled_at: z.string().nullable(),
  /** Since when deliveries fail without a success in between; null while the last one succeeded. */
  failing_since: z.string().nullable(),
  last_success_at: z.string().nullable(),
  /** When the secret was last made or rotated. */
  secret_created_at: z.string(),
  /** Until when the secret before the last rotation still signs too; null when it no longer does. */
  previous_secret_expires_at: z.string().nullable(),
  created_at: z.string(),
  /** Deliveries waiting for an attempt, and those that failed in the last 24 hours. */
  pending: z.number().int(),
  failed_recently: z.number().int(),
});
export type WebhookEndpoint = z.infer<typeof webhookEndpointSchema>;

export const webhookEndpointListSchema = z.object({ endpoints: z.array(webhookEndpointSchema) });

export const createWebhookEndpointSchema = z.object({
  url: urlSchema,
  description: descriptionSchema.default(''),
  event_types: eventTypesSchema,
  include_subtree: z.boolean().default(false),
  enabled: z.boolean().default(true),
});
export type CreateWebhookEndpointInput = z.input<typeof createWebhookEndpointSchema>;

/** What an edit changes; each field left out stays. Enabling again clears the reason it was disabled. */
export const updateWebhookEndpointSchema = z.object({
  url: urlSchema.optional(),
  description: descriptionSchema.optional(),
  event_types: eventTypesSchema.optional(),
  include_subtree: z.boolean().optional(),
  enabled: z.boolean().optional(),
});
export type UpdateWebhookEndpointInput = z.input<typeof updateWebhookEndpointSchema>;

/** A rotation: a new secret now; the old one keeps signing beside it for `grace_hours` (0: it ends at once). */
export const rotateWebhookSecretSchema = z.object({
  grace_hours: z.number().int().min(0).max(WEBHOOKS.maxRotationGraceHours).default(WEBHOOKS.defaultRotationGraceHours),
});
export type RotateWebhookSecretInput = z.input<typeof rotateWebhookSecretSchema>;

/** The signing secret (`whsec_…`) is in this answer only: it is stored encrypted and never shown again. */
export const createdWebhookEndpointSchema = z.object({ endpoint: webhookEndpointSchema, secret: z.string() });
export const webhookEndpointResponseSchema = z.object({ endpoint: webhookEndpointSchema });
export const webhookEndpointParamsSchema = z.object({ id: z.uuid(), endpointId: z.uuid() });
export const webhookDeliveryParamsSchema = z.object({ id: z.uuid(), endpointId: z.uuid(), deliveryId: z.uuid() });

export const webhookAttemptSchema = z.object({
  attempted_at: z.string(),
  /** The receiver's status code; null when none came (refused address, timeout, connection error). */
  status_code: z.number().int().nullable(),
  response_ms: z.number().int().nullable(),
  /** Why the attempt failed without an answer, or what was wrong with it (a redirect, 410). */
  error: z.string().nullable(),
  /** The start of the receiver's answer (WEBHOOKS.responseBodyKeptChars). */
  response_body: z.string().nullable(),
});
export type WebhookAttempt = z.infer<typeof webhookAttemptSchema>;

export const webhookDeliverySchema = z.object({
  id: z.uuid(),
  event: z.object({
    id: z.uuid(),
    type: z.enum(WEBHOOK_EVENT_ROW_TYPES),
    created_at: z.string(),
    organization: z.object({ id: z.uuid(), name: z.string() }),
  }),
  state: z.enum(WEBHOOK_DELIVERY_STATES),
  attempts: z.number().int(),
  next_attempt_at: z.string().nullable(),
  delivered_at: z.string().nullable(),
  created_at: z.string(),
  /** The last attempts, newest first (at most ten). */
  recent_attempts: z.array(webhookAttemptSchema),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

export const webhookDeliveryListQuerySchema = z.object({
  state: z.enum(WEBHOOK_DELIVERY_STATES).optional(),
  cursor: z.string().max(200).optional(),
});
export const webhookDeliveryListSchema = z.object({ deliveries: z.array(webhookDeliverySchema), next_cursor: z.string().nullable() });
export const webhookDeliveryResponseSchema = z.object({ delivery: webhookDeliverySchema });

export const redeliverFailedSchema = z.object({
  /** Every failed delivery of the endpoint whose event came at or after this time. */
  since: z.iso.datetime({ offset: true, error: w.sinceInvalid }),
});
export const redeliveredSchema = z.object({ redelivered: z.number().int() });

// What each event carries --------------------------------------------------------------

const orgRef = z.object({ id: z.uuid(), name: z.string() });
const agentRef = z.object({ id: z.uuid(), code: z.string(), name: z.string() });

const invoiceEventData = z.object({
  invoice_id: z.uuid(),
  kind: z.enum(['invoice', 'credit_note']),
  number: z.string(),
  seller: orgRef,
  period: z.string(),
  currency: z.string(),
  total: amountStringSchema,
  outstanding: amountStringSchema,
  due_on: z.string(),
});

/** Each event type's `data`, as the receivers get it. */
export const WEBHOOK_EVENT_DATA = {
  'balance.low': z.object({ balance: amountStringSchema, threshold: amountStringSchema }),
  'balance.recovered': z.object({ balance: amountStringSchema, threshold: amountStringSchema }),
  'usage.refused': z.object({
    reason: z.enum(USAGE_REJECTIONS),
    /** Events refused for this reason in the batch that raised this event. */
    events: z.number().int(),
    /** The period this event stands for: later refusals for the same reason in it raise none. */
    period_start: z.string(),
    period_end: z.string(),
  }),
  'credits.allocated': z.object({
    amount: amountStringSchema,
    balance_after: amountStringSchema,
    from_organization: orgRef.nullable(),
    /** An automatic top-up rather than an allocation by a person. */
    automatic: z.boolean(),
    notes: z.string().nullable(),
  }),
  'credits.adjusted': z.object({ amount: amountStringSchema, balance_after: amountStringSchema, notes: z.string().nullable() }),
  'credits.reversed': z.object({
    /** The change to this organization's balance: the reversed allocation's amount, negative. */
    amount: amountStringSchema,
    balance_after: amountStringSchema,
    /** Where the credits went back: the organization that had allocated them. */
    to_organization: orgRef,
    /** The reversed allocation's transaction id, as the ledger shows it. */
    reverses_transaction_id: z.uuid(),
    reason: z.string(),
  }),
  'agent_limit.warning': z.object({ active: z.number().int(), limit: z.number().int(), percent: z.number().int() }),
  'agent_limit.critical': z.object({ active: z.number().int(), limit: z.number().int(), percent: z.number().int() }),
  'agent_limit.changed': z.object({ before: z.number().int().nullable(), after: z.number().int() }),
  'agent.activated': z.object({ activation_id: z.uuid(), agent: z.string() }),
  'agent.deactivated': z.object({ activation_id: z.uuid(), agent: z.string() }),
  'agent.error': z.object({
    activation_id: z.uuid(),
    agent: z.string(),
    health: z.number().int().nullable(),
    message: z.string().nullable(),
  }),
  'api_key.created': z.object({ api_key_id: z.uuid(), name: z.string(), prefix: z.string() }),
  'api_key.rolled': z.object({ api_key_id: z.uuid(), prefix: z.string(), previous_prefix: z.string(), grace_seconds: z.number().int() }),
  'api_key.revoked': z.object({ api_key_id: z.uuid(), prefix: z.string() }),
  'organization.created': z.object({ org_type: z.enum(ORG_TYPES), parent: orgRef.nullable() }),
  'organization.suspended': z.object({ status: z.string() }),
  'organization.deleted': z.object({}),
  'invitation.accepted': z.object({ invitation_id: z.uuid(), email: z.string(), role: z.string() }),
  'spend_cap.reached': z.object({
    scope: z.string(),
    name: z.string(),
    cap: amountStringSchema,
    charged: amountStringSchema,
    month: z.string(),
    /** The cap's window (day, ISO week or month, UTC) and its first day, YYYY-MM-DD. */
    window: z.enum(['day', 'week', 'month']),
    window_start: z.string(),
  }),
  'top_up.succeeded': z.object({ amount: amountStringSchema, from_organization: orgRef, balance_before: amountStringSchema }),
  'top_up.failed': z.object({ amount: amountStringSchema, from_organization: orgRef, reason: z.string() }),
  // Second factors: who and which kind of factor, never a secret or a code.
  'member.factor_added': z.object({ user_id: z.uuid(), email: z.string(), method: z.enum(['totp', 'passkey']) }),
  'member.factor_removed': z.object({ user_id: z.uuid(), email: z.string(), method: z.enum(['totp', 'passkey']) }),
  /** An admin removed every factor of the person and ended their sessions. */
  'member.factors_reset': z.object({ user_id: z.uuid(), email: z.string(), reset_by: z.uuid() }),
  /** The organization's require-a-second-factor policy as the change left it, and who changed it. */
  'organization.mfa_policy_changed': z.object({ changed_by: z.uuid().nullable(), policy: z.record(z.string(), z.unknown()) }),
  /** An invoice or credit note issued, paid in full, or past its due date with money owed. */
  'invoice.issued': invoiceEventData,
  'invoice.paid': invoiceEventData,
  'invoice.overdue': invoiceEventData,
  /** A grant with more than a little left expires in `days` (7, then 1): what is left goes back to `granted_by`. */
  'credits.expiring': z.object({
    grant_id: z.uuid(),
    remaining: amountStringSchema,
    expires_at: z.string(),
    days: z.number().int(),
    granted_by: orgRef,
  }),
  /** A grant expired: `amount` left its holder and went back to `granted_by`. */
  'credits.expired': z.object({ grant_id: z.uuid(), amount: amountStringSchema, expires_at: z.string(), granted_by: orgRef }),
  'alert.crossed': z.object({
    line_id: z.uuid(),
    kind: z.enum(['balance', 'cap_percent', 'runway_days']),
    /** Credits, percent of the cap or days, as the line states it. */
    bound: amountStringSchema,
    value: amountStringSchema,
    window: z.enum(['day', 'week', 'month']).nullable(),
  }),
  'price.changed': z.object({
    agent_type: agentRef,
    /** What this organization paid per unit of the type just before, and pays from `effective_from`. */
    before: decimal4StringSchema,
    after: decimal4StringSchema,
    effective_from: z.string(),
    /** The seller whose book or child price moved it; null for the catalog. */
    set_by: orgRef.nullable(),
  }),
  'price.floored': z.object({
    agent_type: agentRef,
    /** This seller's book price, now below what it pays: its children pay `own_price` until it sets another. */
    book: decimal4StringSchema,
    own_price: decimal4StringSchema,
    effective_from: z.string(),
  }),
  'webhook.test': z.object({ message: z.string() }),
} satisfies Record<(typeof WEBHOOK_EVENT_ROW_TYPES)[number], z.ZodType>;

/** The organization an event is about, with the path to it from the receiving endpoint's organization. */
export const webhookEventOrganizationSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  org_type: z.enum(ORG_TYPES),
  /** From the endpoint's organization down to this one, both included. */
  path: z.array(orgRef),
});

/** The body of every delivery: its `webhook-id` header is the event's id, the same on every retry. */
export function webhookPayloadSchema<T extends keyof typeof WEBHOOK_EVENT_DATA>(type: T) {
  return z.object({
    id: z.uuid(),
    type: z.literal(type),
    timestamp: z.string(),
    organization: webhookEventOrganizationSchema,
    data: WEBHOOK_EVENT_DATA[type],
  });
}
