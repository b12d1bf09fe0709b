import { z } from 'zod';
import { GRANT_MESSAGES as g } from '../grant-messages.ts';
import { agentCodeSchema } from './agent-code.ts';
import { amountStringSchema } from './amounts.ts';

/** How far ahead an expiry may be set. */
export const GRANT_EXPIRY_MAX_DAYS = 3650;

/**
 * Terms that credits may carry when they are added (an allocation, an automatic top-up, the
 * house's adjustment): an expiry instant, a scope (agent types by code; absent: every agent)
 * and a priority (0 to 100, drawn highest first). Credits without terms are open credits.
 * The expiry is checked against the clock when the request is read.
 */
export const grantTermsSchema = z
  .object({
    expires_at: z.iso
      .datetime({ offset: true })
      .nullish()
      .refine((at) => at == null || Date.parse(at) > Date.now(), g.expiryInPast)
      .refine((at) => at == null || Date.parse(at) <= Date.now() + GRANT_EXPIRY_MAX_DAYS * 86_400_000, g.expiryTooFar),
    agent_types: z
      .array(agentCodeSchema)
      .min(1, g.agentTypesEmpty)
      .max(100)
      .refine((codes) => new Set(codes).size === codes.length, g.agentTypesDistinct)
      .nullish(),
    priority: z.int(g.priorityRange).min(0, g.priorityRange).max(100, g.priorityRange).optional(),
  })
  .strict();
export type GrantTermsInput = z.input<typeof grantTermsSchema>;
export type GrantTerms = z.output<typeof grantTermsSchema>;

/**
 * Terms of an automatic top-up's credits: as an allocation's, but the expiry is a number of
 * days after each top-up (a rule made once cannot name one instant).
 */
export const topUpTermsSchema = z
  .object({
    expires_after_days: z.int(g.expiryDays).min(1, g.expiryDays).max(GRANT_EXPIRY_MAX_DAYS, g.expiryDays).nullish(),
    agent_types: grantTermsSchema.shape.agent_types,
    priority: grantTermsSchema.shape.priority,
  })
  .strict();
export type TopUpTermsInput = z.input<typeof topUpTermsSchema>;
/** A top-up's terms as the spend controls answer them. */
export const topUpTermsViewSchema = z.object({
  expires_after_days: z.int().nullable(),
  agent_types: z.array(z.object({ code: z.string(), name: z.string() })).nullable(),
  priority: z.int(),
});
export type TopUpTermsView = z.infer<typeof topUpTermsViewSchema>;

/** Terms that say nothing (no expiry, every agent, priority 0) are open credits: no grant. */
export function hasGrantTerms<
  T extends { expires_at?: string | null; expires_after_days?: number | null; agent_types?: string[] | null; priority?: number },
>(terms: T | null | undefined): terms is T {
  return !!terms && (!!terms.expires_at || !!terms.expires_after_days || !!terms.agent_types?.length || (terms.priority ?? 0) > 0);
}

/**
 * The draw order of grants, as the ledger applies it: highest priority first, then soonest
 * expiry (none last), then oldest. An organization's open credits stand as a grant of
 * priority 0 without expiry, older than every grant. The model of the property tests and the
 * console's list both sort with it.
 */
export interface GrantOrderFacts {
  priority: number;
  expires_at: string | null;
  created_at: string;
  id: string;
}
export function compareGrants(a: GrantOrderFacts, b: GrantOrderFacts): number {
  if (a.priority !== b.priority) return b.priority - a.priority;
  if (a.expires_at !== b.expires_at) {
    if (a.expires_at === null) return 1;
    if (b.expires_at === null) return -1;
    return Date.parse(a.expires_at) - Date.parse(b.expires_at);
  }
  if (a.created_at !== b.created_at) return Date.parse(a.created_at) - Date.parse(b.created_at);
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
/** Whether a grant is drawn before the open credits. */
export const drawnBeforeOpen = (grant: Pick<GrantOrderFacts, 'priority' | 'expires_at'>): boolean =>
  grant.priority > 0 || grant.expires_at !== null;

const orgRefSchema = z.object({ id: z.uuid(), name: z.string() });
const agentRefSchema = z.object({ code: z.string(), name: z.string() });

export const grantRowSchema = z.object({
  id: z.uuid(),
  organization_id: z.uuid(),
  granted_by: orgRefSchema,
  amount: amountStringSchema,
  remaining: amountStringSchema,
  priority: z.int(),
  expires_at: z.string().nullable(),
  /** null: every agent. */
  agent_types: z.array(agentRefSchema).nullable(),
  created_at: z.string(),
  /** Set when the expiry took what was left (or found nothing left). */
  expired_at: z.string().nullable(),
  /** The ledger entry that brought the credits (its transaction group). */
  transaction_id: z.uuid().nullable(),
});
export type GrantRow = z.infer<typeof grantRowSchema>;

/**
 * An organization's balance in its parts: the total, the open credits, what each agent type
 * could spend now (its grants that apply and have not expired, plus the open credits), and
 * the soonest expiry with what it takes.
 */
export const balancePartsSchema = z.object({
  total: amountStringSchema,
  open: amountStringSchema,
  spendable: z.array(agentRefSchema.extend({ amount: amountStringSchema })),
  soonest_expiry: z.object({ at: z.string(), amount: amountStringSchema }).nullable(),
});
export type BalanceParts = z.infer<typeof balancePartsSchema>;

export const grantListQuerySchema = z.object({
  /** Also the grants used up or expired. */
  all: z.enum(['true', 'false']).optional(),
});
export const grantListSchema = z.object({ parts: balancePartsSchema, grants: z.array(grantRowSchema) });
export type GrantList = z.infer<typeof grantListSchema>;

/** The grants of organizations in one's subtree that expire within the next days, soonest first. */
export const expiringGrantsQuerySchema = z.object({
  days: z.coerce.number().int().min(1).max(90).default(14),
});
export const expiringGrantSchema = grantRowSchema.extend({ organization_name: z.string() });
export const expiringGrantsSchema = z.object({ grants: z.array(expiringGrantSchema) });
export type ExpiringGrant = z.infer<typeof expiringGrantSchema>;

/** Warnings before an expiry: days ahead, and the remainder below which none is sent. */
export const GRANT_EXPIRY_WARNINGS = { days: [7, 1] as const, minRemaining: '1.00' } as const;
