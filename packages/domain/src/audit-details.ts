import { z } from 'zod';
import type { ActivityAction } from './activity-actions.ts';
import { AUTH_AUDIT_DETAILS, IDENTITY_AUDIT_DETAILS } from './audit-details-access.ts';
import { MONEY_AUDIT_DETAILS } from './audit-details-money.ts';
import { ORG_STATUSES, ORG_TYPES } from './hierarchy.ts';
import { ACTIVATION_STATUSES, AGENT_KINDS } from './schemas/agents.ts';
import { API_SCOPES, AUDITED_API_KEY_REFUSALS } from './schemas/api-keys.ts';

/**
 * The `details` of an audit row, one schema per action: what the writer stores and what the
 * activity log's sentence, the webhook trigger (`webhook_events_from_audit`) and the mail may
 * read. The server's `writeAudit` takes `AuditDetails<A>` for its action, so the compiler
 * checks each writer; writers in SQL are checked by parsing the rows the tests produce.
 * Strict objects: a key no schema names is an error; optional keys are those some writers omit.
 * A new action fails to compile until its schema is here.
 */

const none = z.strictObject({});
/** The fields of a person as an edit sent them (the request's own keys). */
const userChanges = z.strictObject({
  first_name: z.string().optional(),
  last_name: z.string().optional(),
  preferred_locale: z.string().optional(),
  status: z.enum(['active', 'inactive']).optional(),
});
/** The fields of an organization an edit changed, each before and after. */
const orgFields = z.strictObject({
  name: z.string().optional(),
  description: z.string().nullable().optional(),
  status: z.enum(ORG_STATUSES).optional(),
  disable_parent_invites: z.boolean().optional(),
});
/** The fields of an agent type an edit changed, each before and after. */
const agentTypeFields = z.strictObject({
  name: z.string().optional(),
  description: z.string().nullable().optional(),
  kind: z.enum(AGENT_KINDS).optional(),
  unit: z.string().optional(),
  /** Credits a unit, a decimal string. */
  price: z.string().optional(),
});
/** The fields of an API key an edit changed, each before and after. */
const apiKeyFields = z.strictObject({
  name: z.string().optional(),
  expires_at: z.string().nullable().optional(),
  rate_limit_per_minute: z.number().int().nullable().optional(),
  monthly_cap: z.string().nullable().optional(),
  weekly_cap: z.string().nullable().optional(),
  daily_cap: z.string().nullable().optional(),
});
/** A cap before and after, a decimal string or null for no cap. */
const capChange = z.strictObject({ before: z.string().nullable(), after: z.string().nullable() });
/** A second-factor policy as `mfa_policy.changed` records it before and after. */
const mfaPolicy = z.strictObject({
  require_own: z.boolean(),
  require_subtree: z.boolean(),
  require_admins: z.boolean(),
  grace_days: z.number().int(),
});
const url = { url: z.string() };

const PEOPLE_AUDIT_DETAILS = {
  'user.update': z.strictObject({ changes: userChanges }),
  'user.role_change': z.strictObject({ before: z.string(), after: z.string() }),
  'user.deactivate': z.strictObject({ changes: userChanges }),
  'invitation.create': z.strictObject({ email: z.string(), role: z.string() }),
  'invitation.resend': none,
  'invitation.link': none,
  'invitation.revoke': z.strictObject({ email: z.string() }),
  'invitation.accept': z.strictObject({
    role: z.string(),
    /** The organization and role the person had before joining by this invitation. */
    from_organization_id: z.string(),
    from_role: z.string(),
    /** The ids of the address's other pending invitations, revoked as superseded by this one. */
    superseded: z.array(z.string()),
  }),
  'invitation.register': z.strictObject({ role: z.string(), superseded: z.array(z.string()) }),
  'organization.create': z.strictObject({ name: z.string(), org_type: z.enum(ORG_TYPES), parent_org_id: z.string() }),
  'organization.update': z.strictObject({ before: orgFields, after: orgFields }),
  'organization.delete': z.strictObject({
    name: z.string(),
    revoked_invitations: z.number().int(),
    deactivated_agents: z.number().int(),
    revoked_api_keys: z.number().int(),
  }),
  'bootstrap.first_house_admin': none,
  'settings.update': z.strictObject({
    documentation_url: z.string().nullable(),
    billing_portal_url: z.string().nullable(),
    community_1_name: z.string().nullable(),
    community_1_url: z.string().nullable(),
    community_2_name: z.string().nullable(),
    community_2_url: z.string().nullable(),
    /** Only when the request set it. */
    api_key_rate_limit_ceiling: z.number().int().nullable().optional(),
    /** Credits, a decimal string; only when the request set it. */
    step_up_threshold: z.string().optional(),
  }),
  'mfa_policy.changed': z.strictObject({ before: mfaPolicy, after: mfaPolicy }),
} satisfies Record<string, z.ZodType>;

const AGENT_AUDIT_DETAILS = {
  'agent.activate': z.strictObject({
    agent_type_id: z.string(),
    /** The agent type's code. */
    code: z.string(),
    /** Active agents of the organization with this one, and its limit (null: none): the limit webhooks read them. */
    active: z.number().int(),
    limit: z.number().int().nullable(),
  }),
  // The month cap keeps the first shape (before, after); the week and day caps are told beside it.
  'agent.cap': z.strictObject({
    agent_type_id: z.string(),
    before: z.string().nullable(),
    after: z.string().nullable(),
    weekly: capChange,
    daily: capChange,
  }),
  'agent.deactivate': z.strictObject({ agent_type_id: z.string() }),
  'agents.status_reported': z.strictObject({
    /** The agent's code as the runtime reported it. */
    agent: z.string(),
    from: z.enum(ACTIVATION_STATUSES),
    to: z.enum(ACTIVATION_STATUSES),
    health_score: z.number().int().nullable(),
    /** The key that reported. */
    key_name: z.string(),
    key_prefix: z.string(),
    /** This change and those reported since the previous row, which wrote none. */
    changes: z.number().int(),
  }),
  'agent_type.create': z.strictObject({
    code: z.string(),
    name: z.string(),
    kind: z.enum(AGENT_KINDS),
    unit: z.string(),
    price: z.string(),
  }),
  'agent_type.update': z.strictObject({ before: agentTypeFields, after: agentTypeFields }),
  'agent_type.retire': none,
  'api_key.create': z.strictObject({
    name: z.string(),
    /** The key's public prefix, never its secret. */
    prefix: z.string(),
    scopes: z.array(z.enum(API_SCOPES)),
    expires_at: z.string().optional(),
    rate_limit_per_minute: z.number().int().optional(),
  }),
  'api_key.update': z.strictObject({ prefix: z.string(), before: apiKeyFields, after: apiKeyFields }),
  'api_key.rolled': z.strictObject({
    prefix: z.string(),
    previous_prefix: z.string(),
    /** How long the old secret keeps working; 0: it ended at once. */
    grace_seconds: z.number().int(),
  }),
  'api_key.revoke': z.strictObject({ prefix: z.string() }),
  'api_key.refused': z.strictObject({ key_name: z.string(), prefix: z.string(), reason: z.enum(AUDITED_API_KEY_REFUSALS) }),
  'webhook.create': z.strictObject({
    ...url,
    event_types: z.array(z.string()),
    include_subtree: z.boolean(),
    enabled: z.boolean(),
  }),
  'webhook.update': z.strictObject({
    /** The endpoint's address after the edit. */
    ...url,
    /** The names of the fields the edit changed. */
    changes: z.array(z.string()),
    /** Only when the edit enabled or disabled the endpoint. */
    enabled: z.boolean().optional(),
  }),
  'webhook.delete': z.strictObject(url),
  'webhook.rotate': z.strictObject({
    ...url,
    /** How long the old secret keeps signing. */
    grace_hours: z.number(),
  }),
  'webhook.redeliver': z.strictObject({
    ...url,
    /** Events sent again. */
    count: z.number().int(),
    /** A test event rather than a redelivery. */
    test: z.literal(true).optional(),
    /** The one delivery sent again, or the start of the period whose deliveries were. */
    delivery_id: z.string().optional(),
    since: z.string().optional(),
  }),
} satisfies Record<string, z.ZodType>;

export const AUDIT_DETAILS = {
  ...AUTH_AUDIT_DETAILS,
  ...PEOPLE_AUDIT_DETAILS,
  ...MONEY_AUDIT_DETAILS,
  ...AGENT_AUDIT_DETAILS,
  ...IDENTITY_AUDIT_DETAILS,
} satisfies Record<ActivityAction, z.ZodType>;

/** The details a writer gives for action `A`. */
export type AuditDetails<A extends ActivityAction> = z.input<(typeof AUDIT_DETAILS)[A]>;

/** Whether `AUDIT_DETAILS` has a schema for the action (an audit row's action is only a string). */
const hasSchema = (action: string): action is ActivityAction => Object.hasOwn(AUDIT_DETAILS, action);

/**
 * An audit row's details for reading: parsed with its action's schema; a row an older writer
 * stored in another shape, or of an unknown action, is read as it is (readers check each
 * field's type), so the activity log never fails on history.
 */
export function detailsOf(action: string, raw: unknown): Record<string, unknown> {
  const details = raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
  if (!hasSchema(action)) return details;
  const parsed = AUDIT_DETAILS[action].safeParse(details);
  return parsed.success ? (parsed.data as Record<string, unknown>) : details;
}
