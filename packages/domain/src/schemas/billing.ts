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

/** What an organization's agent limit is held to when it is set. */
export interface AgentLimitFacts {
  /** What its own children's limits add up to. */
  childrenTotal: number;
  /** Its live activations now. */
  active: number;
  /** Its parent's limit minus its siblings' limits; null for the house, which has no parent. */
  max: number | null;
}

export type AgentLimitRefusal = 'below_children_limits' | 'above_parent_capacity' | 'below_active_agents';

/**
 * Why a new agent limit is refused, or null when it may be set: never below what the
 * children hold together, never above the parent's capacity left, never below the agents
 * active now.
 */
export function agentLimitRefusal(limit: number, facts: AgentLimitFacts): AgentLimitRefusal | null {
  if (limit < facts.childrenTotal) return 'below_children_limits';
  if (facts.max !== null && limit > facts.max) return 'above_parent_capacity';
  if (limit < facts.active) return 'below_active_agents';
  return null;
}

/**
 * The limits that may be set: from the larger of the children's total and the active agents,
 * up to the parent's capacity left (never shown below 0); no upper bound for the house.
 */
export function agentLimitRange(facts: AgentLimitFacts): { min: number; max: number | null } {
  return { min: Math.max(facts.childrenTotal, facts.active), max: facts.max === null ? null : Math.max(facts.max, 0) };
}

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
