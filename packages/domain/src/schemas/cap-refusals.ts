import { z } from 'zod';
import { MESSAGES } from '../messages.ts';

/**
 * Caps on windows, and what a refusal at one tells. Apart from the usage schemas, which
 * both name it, so neither imports the other.
 */

/** Whose cap refused an event: the reporting key's, the activation's, or a spend cap on an organization's subtree. */
export const USAGE_CAP_SCOPES = ['key', 'activation', 'subtree'] as const;
export type UsageCapScope = (typeof USAGE_CAP_SCOPES)[number];

/**
 * The windows a cap counts over, each in UTC (the product has no time zones): a day, an ISO
 * week (Monday to Sunday) or a calendar month. One cap of each kind may stand at once on a
 * key, an activation or an organization's subtree; an event counts against all of them.
 */
export const CAP_WINDOWS = ['day', 'week', 'month'] as const;
export type CapWindow = (typeof CAP_WINDOWS)[number];

const money = z.string().regex(/^\d+\.\d{2}$/);
const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
const instant = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);

/** A cap refusal as the engine gives it: names and ids are null where the reporter may not see the organization. */
export const capDetail = z.object({
  cap: z.enum(USAGE_CAP_SCOPES),
  /** The cap, in credits. */
  limit: money,
  window: z.enum(CAP_WINDOWS),
  /** The window's first day (UTC). */
  window_start: day,
  /** When the window ends and a new one starts (UTC midnight). */
  resets_at: instant,
  /** The key's, the agent type's or the organization's name; null: an organization above the reporter's. */
  name: z.string().nullable(),
  /** The organization the cap is on; null: one above the reporter's. */
  organization_id: z.uuid().nullable(),
  /** The organization whose admins set the cap; both null where the reporter may not see it. */
  set_by_id: z.uuid().nullable(),
  set_by_name: z.string().nullable(),
});
export type CapDetail = z.infer<typeof capDetail>;

/**
 * The cap that refused an event, as the machine API tells it (each refused event's answer and
 * the entitlement check): what it is on, its window, when that resets, and the organization
 * that set it. An organization the key's owner may not see (one above its own) is named
 * "an organization above yours" and carries no id.
 */
export const usageCapRefusalSchema = z.object({
  scope: z.enum(USAGE_CAP_SCOPES),
  limit: money,
  window: z.enum(CAP_WINDOWS),
  window_start: day,
  resets_at: instant,
  /** The key's, the agent type's or the organization's name. */
  name: z.string(),
  /** The organization the cap is on; null when it is above the key's. */
  organization_id: z.uuid().nullable(),
  set_by: z.object({ organization_id: z.uuid().nullable(), name: z.string() }),
});
export type UsageCapRefusal = z.infer<typeof usageCapRefusalSchema>;

/** A cap refusal's detail as the machine API tells it, the hidden names in words. */
export function usageCapRefusal(detail: CapDetail): UsageCapRefusal {
  const above = MESSAGES.usage.organizationAbove;
  return {
    scope: detail.cap,
    limit: detail.limit,
    window: detail.window,
    window_start: detail.window_start,
    resets_at: detail.resets_at,
    name: detail.name ?? above,
    organization_id: detail.organization_id,
    set_by: { organization_id: detail.set_by_id, name: detail.set_by_name ?? above },
  };
}
