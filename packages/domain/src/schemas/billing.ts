import { z } from 'zod';
import { MESSAGES } from '../messages.ts';
import { ORG_STATUSES, ORG_TYPES } from '../hierarchy.ts';
import { amountStringSchema } from './amounts.ts';

const b = MESSAGES.billing;

/** Billing settings of one organization, and what the caller may do with them. */
export const billingResponseSchema = z.object({
  organization_id: z.uuid(),
  billing_settings: z.object({
    credit_balance: amountStringSchema,
    activated_agent_limit: z.number().int(),
    /** The balance below which the organization's admins are alerted. */
    low_balance_threshold: amountStringSchema,
  }),
  active_agent_count: z.number().int(),
  /** The most this organization's limit may be: its parent's limit minus its siblings' limits (null for a house). */
  max_activated_agent_limit: z.number().int().nullable(),
  /** The least it may be: the sum of its own children's limits. */
  children_limit_total: z.number().int(),
  permissions: z.object({ manage_activated_agent_limit: z.boolean(), allocate_credits: z.boolean() }),
});
export type BillingResponse = z.infer<typeof billingResponseSchema>;

export const agentLimitSchema = z.object({
  activated_agent_limit: z.number({ error: b.invalidValue }).int(b.invalidValue).min(0, b.negative).max(1_000_000, b.invalidValue),
});

export const capacityResponseSchema = z.object({
  organization_id: z.uuid(),
  activated_agent_limit: z.number().int(),
  children_limit_total: z.number().int(),
  /** This organization's limit minus what its children hold. */
  available_parent_capacity: z.number().int(),
  children: z.array(
    z.object({
      id: z.uuid(),
      name: z.string(),
      org_type: z.enum(ORG_TYPES),
      status: z.enum(ORG_STATUSES),
      activated_agent_limit: z.number().int(),
    }),
  ),
});
export type CapacityResponse = z.infer<typeof capacityResponseSchema>;
