import { z } from 'zod';
import { amountStringSchema } from './amounts.ts';
import { dateOrDateTime } from './credits.ts';

/** How many stored usage events a page holds at most. */
export const USAGE_EVENTS_PAGE_MAX = 500;

/** A stored usage event, as it was accepted: what was reported, when, and what it was charged. */
export const usageEventRowSchema = z.object({
  /** The reporter's own event id (unique per organization). */
  id: z.string(),
  organization_id: z.uuid(),
  /** The agent type's code, and its id. */
  agent: z.string(),
  agent_type_id: z.uuid(),
  /** What the agent type is metered in ("run", "1k tokens"): what `units` counts and `price` is per. */
  unit: z.string(),
  units: z.string().regex(/^\d+\.\d{4}$/),
  /**
   * The price in force when the event occurred, per unit; null to a viewer above the
   * organization's seller, for whom it would show the margin of the seller in between.
   */
  price: z
    .string()
    .regex(/^\d+\.\d{4}$/)
    .nullable(),
  /** What the event took from the balance in whole cents (the rest of its cost was carried). */
  credits_charged: amountStringSchema,
  occurred_at: z.string(),
  received_at: z.string(),
  /** The consumption entry of the ledger that charged it; null when it charged nothing. */
  ledger_entry_id: z.uuid().nullable(),
  metadata: z.record(z.string(), z.unknown()),
});
export type UsageEventRow = z.infer<typeof usageEventRowSchema>;

const eventFilters = {
  /** Inclusive start of occurred_at. */
  from: dateOrDateTime.optional(),
  /** A date is inclusive (to the start of the next day); a date-time is exclusive. */
  to: dateOrDateTime.optional(),
  /** The events one consumption entry of the ledger charged. */
  ledger_entry_id: z.uuid().optional(),
};
const paging = {
  /** `next_cursor` of the page before. */
  cursor: z.uuid().optional(),
  limit: z.coerce.number().int().min(1).max(USAGE_EVENTS_PAGE_MAX).default(100),
};

/** The console's filters: the organization (the caller's own by default) and the agent type by id, as the ledger's. */
export const usageEventsExportQuerySchema = z.object({
  organization_id: z.uuid().optional(),
  agent_type_id: z.uuid().optional(),
  ...eventFilters,
});
export const usageEventsQuerySchema = usageEventsExportQuerySchema.extend(paging);
export type UsageEventsQuery = z.input<typeof usageEventsQuerySchema>;
export type UsageEventsExportQuery = z.input<typeof usageEventsExportQuerySchema>;

/** The machine API's filters: an organization within the key's reach, and the agent by its code as events report it. */
export const machineUsageEventsQuerySchema = z.object({
  organization_id: z.uuid(),
  agent: z.string().min(1).max(100).optional(),
  ...eventFilters,
  ...paging,
});

export const usageEventsPageSchema = z.object({
  /** Newest occurrence first. */
  events: z.array(usageEventRowSchema),
  /** Pass as `cursor` for the next (older) page; null on the last page. */
  next_cursor: z.uuid().nullable(),
});
export type UsageEventsPage = z.infer<typeof usageEventsPageSchema>;
