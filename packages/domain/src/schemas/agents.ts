import { z } from 'zod';
import { LIMITS } from '../constants.ts';
import { amountStringSchema } from './amounts.ts';
import { usageCapRefusalSchema } from './cap-refusals.ts';
import { windowCapUsageSchema } from './spend.ts';
import { UNSTORABLE_TEXT, isStorableText } from './common.ts';
import { agentCodeSchema } from './agent-code.ts';

/**
 * The platform the console governs: agent types in a catalog, their activations per
 * organization, and metered usage charged in credits. API keys are in `api-keys.ts`.
 */

export const AGENT_KINDS = ['assistant', 'automation', 'integration', 'analytics', 'other'] as const;
export type AgentKind = (typeof AGENT_KINDS)[number];

export const AGENT_TYPE_STATUSES = ['active', 'retired'] as const;
export type AgentTypeStatus = (typeof AGENT_TYPE_STATUSES)[number];

/** What the runtime last reported of an activation. */
export const ACTIVATION_STATUSES = ['active', 'inactive', 'error'] as const;
export type ActivationStatus = (typeof ACTIVATION_STATUSES)[number];

/** Why a usage event was refused. */
export const USAGE_REJECTIONS = [
  'unknown_agent',
  'agent_not_active',
  'out_of_reach',
  'organization_not_active',
  'insufficient_credits',
  'invalid',
  /** A cap of the reporting key (on a day, a week or a month) would be passed. */
  'key_cap_reached',
  /** A cap of the activation (the organization's agent type) would be passed. */
  'activation_cap_reached',
  /** A spend cap on the organization or one above it (over its subtree) would be passed. */
  'spend_cap_reached',
] as const;
export type UsageRejection = (typeof USAGE_REJECTIONS)[number];

/** A decimal with up to four places as a string: prices ("0.2500") and units ("12.5000"). */
export const decimal4StringSchema = z.string().regex(/^\d+\.\d{4}$/);

/**
 * A non-negative (prices) or positive (units) decimal with at most four places, as a JSON
 * number or a string; it becomes an exact string with four places. Floats never reach
 * arithmetic or storage. `exact`: a string must be the decimal itself, nothing around it.
 */
function decimal4Input({
  positive,
  maxIntegerDigits,
  message,
  exact = false,
}: {
  positive: boolean;
  maxIntegerDigits: number;
  message: string;
  exact?: boolean;
}) {
  return z.union([z.number(), z.string()], { error: message }).transform((value, ctx) => {
    const text = typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : exact ? value : value.trim();
    const match = new RegExp(`^(\\d{1,${maxIntegerDigits}})(?:\\.(\\d{1,4}))?$`).exec(text);
    if (!match) {
      ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    }
    const normalized = `${BigInt(match[1]!)}.${(match[2] ?? '').padEnd(4, '0')}`;
    if (positive && /^0\.0000$/.test(normalized)) {
      ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    }
    return normalized;
  });
}

/**
 * A price (the catalog's, a price book's) is written in one form: digits with up to four
 * places, as a JSON number or a string holding only that (" 1" is refused, not trimmed), so
 * what a seller sent is exactly the price it set.
 */
export const priceInputSchema = decimal4Input({
  positive: false,
  maxIntegerDigits: 9,
  message: 'Enter a price of at least 0 with at most 4 decimal places.',
  exact: true,
});
export const unitsInputSchema = decimal4Input({
  positive: true,
  maxIntegerDigits: 12,
  message: 'Units must be a number above 0 with at most 4 decimal places.',
});

const text = (max: number, message: string) =>
  z.string({ error: message }).trim().min(1, message).max(max).refine(isStorableText, UNSTORABLE_TEXT);

// Catalog ------------------------------------------------------------------------------

export { agentCodeSchema };

export const agentTypeSchema = z.object({
  id: z.uuid(),
  code: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  kind: z.enum(AGENT_KINDS),
  unit: z.string(),
  /** Credits per unit now. */
  price: decimal4StringSchema,
  status: z.enum(AGENT_TYPE_STATUSES),
  created_at: z.string(),
  updated_at: z.string(),
  retired_at: z.string().nullable(),
});
export type AgentType = z.infer<typeof agentTypeSchema>;

export const agentTypeListSchema = z.object({ agent_types: z.array(agentTypeSchema) });
export const agentTypeResponseSchema = z.object({ agent_type: agentTypeSchema });

export const createAgentTypeSchema = z.object({
  code: agentCodeSchema,
  name: text(100, 'Enter a name.'),
  description: z.string().trim().max(LIMITS.orgDescriptionMax).refine(isStorableText, UNSTORABLE_TEXT).optional(),
  kind: z.enum(AGENT_KINDS, { error: 'Choose a kind.' }),
  unit: text(40, 'Enter the unit it is metered in, such as "run" or "1k tokens".'),
  price: priceInputSchema,
});
export type CreateAgentTypeInput = z.input<typeof createAgentTypeSchema>;

/** A price change applies to events that occur after it; earlier events keep their price. */
export const updateAgentTypeSchema = createAgentTypeSchema
  .omit({ code: true })
  .partial()
  .refine((v) => Object.values(v).some((value) => value !== undefined), { message: 'Nothing to update.' });
export type UpdateAgentTypeInput = z.input<typeof updateAgentTypeSchema>;

// Activations --------------------------------------------------------------------------

export const usageTotalsSchema = z.object({
  events: z.number().int(),
  units: decimal4StringSchema,
  credits: amountStringSchema,
});
export type UsageTotals = z.infer<typeof usageTotalsSchema>;

export const activationSchema = z.object({
  id: z.uuid(),
  organization_id: z.uuid(),
  agent_type: agentTypeSchema.pick({ id: true, code: true, name: true, kind: true, unit: true, status: true }).extend({
    /** What the organization pays per unit now; null to a viewer above its seller (the margins rule). */
    price: decimal4StringSchema.nullable(),
  }),
  status: z.enum(ACTIVATION_STATUSES),
  health_score: z.number().int().min(0).max(100).nullable(),
  last_active_at: z.string().nullable(),
  activated_at: z.string(),
  /** Usage of the last 30 days. */
  usage_30d: usageTotalsSchema,
  /** Its monthly cap (null: none) and what this month (UTC) charged against it. */
  monthly_cap: z.object({ cap: amountStringSchema.nullable(), month: z.string(), charged: amountStringSchema }),
  /** Its daily and weekly caps (UTC; null: none) and what today and this week charged against them. */
  daily_cap: windowCapUsageSchema,
  weekly_cap: windowCapUsageSchema,
});
export type Activation = z.infer<typeof activationSchema>;

export const activationListSchema = z.object({
  organization_id: z.uuid(),
  activations: z.array(activationSchema),
  active_agent_count: z.number().int(),
  activated_agent_limit: z.number().int(),
});
export type ActivationList = z.infer<typeof activationListSchema>;

export const activateAgentSchema = z.object({ agent_type_id: z.uuid({ error: 'Choose an agent.' }) });
export const activationResponseSchema = z.object({ activation: activationSchema });
export const activationParamsSchema = z.object({ id: z.uuid(), activationId: z.uuid() });

// Usage --------------------------------------------------------------------------------

/** An agent's code as a runtime reports it: an unknown code is the event's rejection, text the database cannot store a 400. */
const reportedAgentSchema = z.string().trim().min(1).max(40).refine(isStorableText, UNSTORABLE_TEXT);

/**
 * What a usage event may be: at most `futureSeconds` ahead and `pastDays` behind, `batchMax`
 * a batch. A key's event is charged the price in force at the later of its occurrence and
 * its arrival minus `priceGraceSeconds`, so backdating cannot pick an older, lower price.
 * An event's metadata holds at most `metadataKeysMax` keys, one level deep. An event's id
 * answers "duplicate" for `idKeepDays` after the event occurred: the window and a week more;
 * sent again after that, the event is older than the window and refused, never charged twice.
 */
export const USAGE_WINDOW = {
  futureSeconds: 5 * 60,
  pastDays: 31,
  batchMax: 1000,
  priceGraceSeconds: 5 * 60,
  metadataKeysMax: 50,
  idKeepDays: 31 + 7,
} as const;

/** Who reported a usage event: a machine key, or the house's usage import. Each has its own event ids per organization. */
export const USAGE_SOURCES = ['key', 'import'] as const;
export type UsageSource = (typeof USAGE_SOURCES)[number];

export const usageEventInputSchema = z.object({
  /** The client's id of the event: the same id for the same organization is recorded once. */
  id: z.string().trim().min(1).max(200).refine(isStorableText, UNSTORABLE_TEXT),
  organization_id: z.uuid(),
  /** The agent type's code. */
  agent: reportedAgentSchema,
  units: unitsInputSchema,
  /** An ISO date-time with its offset; years outside 1000 to 9998 are refused (the database reads year 0 as no date). */
  occurred_at: z.iso
    .datetime({ offset: true, error: 'Use an ISO date-time with an offset, such as 2026-01-31T12:00:00Z.' })
    .refine(
      (value) => Number(value.slice(0, 4)) >= 1000 && Number(value.slice(0, 4)) <= 9998,
      'Use a date between the years 1000 and 9998.',
    ),
  /** One level of keys (at most `metadataKeysMax`), each a string, number, boolean or null. */
  metadata: z
    .record(
      z.string().max(100).refine(isStorableText, UNSTORABLE_TEXT),
      z.union([z.string().max(500).refine(isStorableText, UNSTORABLE_TEXT), z.number(), z.boolean(), z.null()]),
    )
    .refine(
      (metadata) => Object.keys(metadata).length <= USAGE_WINDOW.metadataKeysMax,
      `At most ${USAGE_WINDOW.metadataKeysMax} metadata keys.`,
    )
    .optional(),
});
export type UsageEventInput = z.input<typeof usageEventInputSchema>;

export const usageBatchSchema = z.object({ events: z.array(usageEventInputSchema).min(1).max(USAGE_WINDOW.batchMax) });
export type UsageBatchInput = z.input<typeof usageBatchSchema>;

export const usageEventResultSchema = z.object({
  id: z.string(),
  status: z.enum(['accepted', 'duplicate', 'rejected']),
  /** What the event took from the balance (accepted, or the first outcome of a duplicate). */
  credits_charged: amountStringSchema.nullable(),
  reason: z.enum(USAGE_REJECTIONS).nullable(),
  message: z.string().nullable(),
  /** For a cap reason: the cap that refused it, its window, when that resets and who set it. */
  cap: usageCapRefusalSchema.nullable(),
});
export type UsageEventResult = z.infer<typeof usageEventResultSchema>;

export const usageBatchResultSchema = z.object({
  results: z.array(usageEventResultSchema),
  accepted: z.number().int(),
  duplicates: z.number().int(),
  rejected: z.number().int(),
});
export type UsageBatchResult = z.infer<typeof usageBatchResultSchema>;

export const heartbeatSchema = z.object({
  organization_id: z.uuid(),
  agent: reportedAgentSchema,
  status: z.enum(ACTIVATION_STATUSES),
  health_score: z.number().int().min(0).max(100).optional(),
});
export type HeartbeatInput = z.input<typeof heartbeatSchema>;
export const heartbeatResultSchema = z.object({
  activation_id: z.uuid(),
  status: z.enum(ACTIVATION_STATUSES),
  health_score: z.number().int().nullable(),
  last_active_at: z.string().nullable(),
});

export const entitlementQuerySchema = z.object({ organization_id: z.uuid(), agent: reportedAgentSchema });
export const entitlementSchema = z.object({
  allowed: z.boolean(),
  /** Why not, when not allowed. */
  reason: z.enum(USAGE_REJECTIONS).nullable(),
  /** For a cap reason: the cap that refuses, its window, when that resets and who set it. */
  cap: usageCapRefusalSchema.nullable(),
  balance: amountStringSchema,
  /** What this agent could spend now: the open credits and the grants for it that have not expired. */
  spendable: amountStringSchema,
  /** The soonest expiry among the organization's grants, with what it takes; null when none expires. */
  soonest_expiry: z.object({ at: z.string(), amount: amountStringSchema }).nullable(),
  activation_status: z.enum(ACTIVATION_STATUSES).nullable(),
  /**
   * What the organization pays per unit of this agent now (the catalog price raised by its
   * sellers' price books); null for an unknown agent, an organization out of reach, or one
   * below a child of the key's organization (the margins rule: its price is between it and its seller).
   */
  price: decimal4StringSchema.nullable(),
});
export type Entitlement = z.infer<typeof entitlementSchema>;

export const usageSummaryQuerySchema = z.object({
  days: z.coerce
    .number()
    .pipe(z.union([z.literal(7), z.literal(30)]))
    .default(30),
});
export const usageSummarySchema = z.object({
  organization_id: z.uuid(),
  days: z.number().int(),
  by_agent: z.array(usageTotalsSchema.extend({ agent_type_id: z.uuid(), code: z.string(), name: z.string(), unit: z.string() })),
  by_day: z.array(z.object({ day: z.string(), events: z.number().int(), credits: amountStringSchema })),
});
export type UsageSummary = z.infer<typeof usageSummarySchema>;

/** The balance below which an organization's admins are alerted: 0 or more, two decimal places. */
export const lowBalanceThresholdSchema = z.object({
  low_balance_threshold: z.union([z.number(), z.string()], { error: 'Enter a threshold of 0 or more.' }).transform((value, ctx) => {
    const text = typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : value.trim();
    const match = /^(\d{1,12})(?:\.(\d{1,2}))?$/.exec(text);
    if (!match) {
      ctx.addIssue({ code: 'custom', message: 'Enter a threshold of 0 or more, with at most 2 decimal places.' });
      return z.NEVER;
    }
    return `${BigInt(match[1]!)}.${(match[2] ?? '').padEnd(2, '0')}`;
  }),
});
export type LowBalanceThresholdInput = z.input<typeof lowBalanceThresholdSchema>;
