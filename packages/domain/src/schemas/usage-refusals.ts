import { z } from 'zod';
import { USAGE_REJECTIONS, type UsageRejection } from './agents.ts';
import { capDetail, usageCapRefusal, type UsageCapRefusal } from './cap-refusals.ts';

/** The rules an event can break that make it `invalid`: occurred too far ahead, too far behind, or when its agent had no price. */
export const USAGE_INVALID_RULES = ['ahead', 'behind', 'no_price'] as const;
export type UsageInvalidRule = (typeof USAGE_INVALID_RULES)[number];

const money = z.string().regex(/^\d+\.\d{2}$/);

/** The cap a refusal names, or null for a refusal of another reason. */
export function capRefusalOf(refusal: UsageRefusal): UsageCapRefusal | null {
  switch (refusal.reason) {
    case 'key_cap_reached':
    case 'activation_cap_reached':
    case 'spend_cap_reached':
      return usageCapRefusal(refusal.detail);
    default:
      return null;
  }
}

/**
 * What the usage engine (usage_decide) tells of each refusal besides its reason, by reason:
 * nothing, the broken rule, the cap and its window, or the balance and what was needed. A
 * reason or a detail the engine gives that is not listed here fails to parse, so it never
 * reaches a person as a message about nothing.
 */
export const USAGE_REFUSAL_DETAILS = {
  out_of_reach: z.null(),
  organization_not_active: z.null(),
  unknown_agent: z.null(),
  agent_not_active: z.null(),
  invalid: z.object({ rule: z.enum(USAGE_INVALID_RULES) }),
  key_cap_reached: capDetail,
  activation_cap_reached: capDetail,
  spend_cap_reached: capDetail,
  insufficient_credits: z.object({ balance: money, needed: money }),
} as const satisfies Record<UsageRejection, z.ZodType>;

/** A refusal as parsed: its reason and that reason's detail. */
export type UsageRefusal = {
  [R in UsageRejection]: { reason: R; detail: z.infer<(typeof USAGE_REFUSAL_DETAILS)[R]> };
}[UsageRejection];

/** Parses a refusal the engine gave; throws on a reason or a detail this list does not know. */
export function parseUsageRefusal(reason: unknown, detail: unknown): UsageRefusal {
  const known = z.enum(USAGE_REJECTIONS).parse(reason);
  return { reason: known, detail: USAGE_REFUSAL_DETAILS[known].parse(detail) } as UsageRefusal;
}
