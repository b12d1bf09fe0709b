import { z } from 'zod';
import { MESSAGES } from '../messages.ts';
import { amountInputSchema, amountStringSchema, toCents } from './amounts.ts';
import { topUpTermsSchema, topUpTermsViewSchema } from './grants.ts';

const s = MESSAGES.spend;

/**
 * Spend caps and automatic top-ups. A cap holds what may be charged in one window of the
 * events' occurrence, a calendar month, an ISO week (Monday to Sunday) or a day, each UTC:
 * per API key, per activation, and per child organization over its whole subtree (set by its
 * parent's admins); one cap of each window at once. An automatic top-up moves
 * a set amount from the parent when the child's balance falls below a line, at most so much a
 * calendar month (UTC).
 */

/** What a cap is on: an API key, an activation, or an organization's subtree. */
export const SPEND_CAP_SCOPES = ['key', 'activation', 'subtree'] as const;
export type SpendCapScope = (typeof SPEND_CAP_SCOPES)[number];
/** Why a top-up was asked for: the balance crossed below its line, or usage was refused for want of credits. */
export const TOP_UP_REASONS = ['crossed', 'refused'] as const;
export type TopUpReason = (typeof TOP_UP_REASONS)[number];
/** What became of a top-up request. */
export const TOP_UP_OUTCOMES = ['topped_up', 'parent_short', 'monthly_max', 'not_needed', 'no_rule', 'not_active'] as const;
export type TopUpOutcome = (typeof TOP_UP_OUTCOMES)[number];

/**
 * 0 or more credits with at most two decimals, as a JSON number or a string; it becomes an
 * exact string ("500.00"). `message` names what the amount is (a cap, a top-up's line).
 */
const nonNegativeAmountSchema = (message: string) =>
  z.union([z.number(), z.string()], { error: message }).transform((value, ctx) => {
    const text = typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : value.trim();
    const match = /^(\d{1,12})(?:\.(\d{1,2}))?$/.exec(text);
    if (!match) {
      ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    }
    return `${BigInt(match[1]!)}.${(match[2] ?? '').padEnd(2, '0')}`;
  });

/** A cap of 0 or more credits with at most two decimals ("500.00"). */
export const capAmountSchema = nonNegativeAmountSchema(s.capInvalid);

/**
 * A key's or an activation's caps, one per window (UTC): `monthly_cap` a calendar month,
 * `weekly_cap` an ISO week (Monday to Sunday), `daily_cap` a day. Each left out stays; null
 * removes it. Clients that know only the month cap send `monthly_cap` alone.
 */
export const monthlyCapSchema = z
  .object({
    monthly_cap: capAmountSchema.nullable().optional(),
    weekly_cap: capAmountSchema.nullable().optional(),
    daily_cap: capAmountSchema.nullable().optional(),
  })
  .refine((v) => v.monthly_cap !== undefined || v.weekly_cap !== undefined || v.daily_cap !== undefined, { message: s.capMissing });
export type MonthlyCapInput = z.input<typeof monthlyCapSchema>;
export type CapsInput = z.output<typeof monthlyCapSchema>;

/** A day or week cap as the console shows it: the cap (null: none), its window holding now (first day, UTC) and what that charged. */
export const windowCapUsageSchema = z.object({
  cap: amountStringSchema.nullable(),
  /** "YYYY-MM-DD": the window's first day (a Monday for a week). */
  window_start: z.string(),
  charged: amountStringSchema,
});
export type WindowCapUsage = z.infer<typeof windowCapUsageSchema>;

/** A cap as the console shows it: the cap, and what the current month (UTC) charged against it. */
export const capUsageSchema = z.object({
  cap: amountStringSchema.nullable(),
  /** "YYYY-MM", UTC. */
  month: z.string(),
  /** What this month's usage charged against it (kept without a cap too for keys; recounted from usage otherwise). */
  charged: amountStringSchema,
});
export type CapUsage = z.infer<typeof capUsageSchema>;

/**
 * Whether an organization is stopped by its own subtree caps (set by its parent's admins), and
 * how many events they refused this month: what its parent is shown on its lists and its card.
 */
export const capStandingSchema = z.object({
  /**
   * A cap of the day, week or month holding now (UTC) is reached: its window has charged the
   * cap, or refused an event that would have passed it. New usage is refused until it resets.
   */
  reached: z.boolean(),
  /** Events refused at those caps that occurred in the current calendar month (UTC). */
  refused_this_month: z.number().int(),
});
export type CapStanding = z.infer<typeof capStandingSchema>;

export const topUpSchema = z
  .object({
    /** When the balance falls below this… */
    below: nonNegativeAmountSchema(s.topUpLineInvalid),
    /** …move this from the parent… */
    amount: amountInputSchema,
    /** …at most this much in a calendar month (UTC). */
    monthly_max: amountInputSchema,
    /** Terms each top-up's credits carry (absent: open credits). */
    terms: topUpTermsSchema.nullish(),
  })
  .superRefine((value, ctx) => {
    if (typeof value.amount === 'string' && typeof value.monthly_max === 'string' && toCents(value.amount) > toCents(value.monthly_max)) {
      ctx.addIssue({ code: 'custom', path: ['amount'], message: s.topUpAboveMonthlyMax });
    }
  });
export type TopUpInput = z.input<typeof topUpSchema>;

/**
 * A parent's controls over a direct child's spending: its subtree's monthly cap and its
 * automatic top-up (null: none); and its subtree's daily and weekly caps (UTC; left out: they stay).
 */
export const spendControlsInputSchema = z.object({
  spend_cap: capAmountSchema.nullable(),
  top_up: topUpSchema.nullable(),
  daily_spend_cap: capAmountSchema.nullable().optional(),
  weekly_spend_cap: capAmountSchema.nullable().optional(),
});
export type SpendControlsInput = z.input<typeof spendControlsInputSchema>;

/** How many of the month's top-up requests the spend controls list, latest first. */
export const TOP_UP_HISTORY_LIMIT = 20;

/**
 * One automatic top-up request of the current month (UTC) that has ended, as the child's spend
 * controls show it: what it was for (the balance crossed below the line, or usage was refused
 * for want of credits, and what the refused events would have charged), what became of it and,
 * when made, its allocation, which the parent's admins may reverse as any other while the
 * child has not spent it.
 */
export const topUpRecordSchema = z.object({
  /** When it was asked for: the crossing or the refusal. */
  at: z.string(),
  reason: z.enum(TOP_UP_REASONS),
  /** The child's balance then (null for requests made before this was kept). */
  balance: amountStringSchema.nullable(),
  /** What the refused events would have charged (a refusal; null for a crossing). */
  refused: amountStringSchema.nullable(),
  outcome: z.enum(TOP_UP_OUTCOMES),
  /** A top-up made: what moved, and the allocation's transaction (as the ledger names it). */
  amount: amountStringSchema.nullable(),
  transaction_id: z.uuid().nullable(),
  /** The reversal of that allocation, if any. */
  reversed_by: z.uuid().nullable(),
  /** Whether the caller may reverse it now (the server decides with mayReverseAllocation). */
  can_reverse: z.boolean(),
});
export type TopUpRecord = z.infer<typeof topUpRecordSchema>;

export const spendControlsSchema = z.object({
  organization_id: z.uuid(),
  /** The monthly cap on the organization's subtree and this month's spend against it. */
  spend_cap: capUsageSchema,
  /** The daily and weekly caps on its subtree, and today's and this week's spend against them (UTC). */
  daily_spend_cap: windowCapUsageSchema,
  weekly_spend_cap: windowCapUsageSchema,
  /** Whether those caps stop its usage now, and the events they refused this month. */
  cap_standing: capStandingSchema,
  top_up: z
    .object({
      below: amountStringSchema,
      amount: amountStringSchema,
      monthly_max: amountStringSchema,
      terms: topUpTermsViewSchema.nullable(),
    })
    .nullable(),
  /** What automatic top-ups moved in this month (UTC). */
  topped_up_this_month: amountStringSchema,
  /** The latest top-up made or refused, if any. */
  last_top_up: z
    .object({
      at: z.string(),
      outcome: z.enum(TOP_UP_OUTCOMES),
    })
    .nullable(),
  /** This month's top-up requests that have ended, latest first, at most `TOP_UP_HISTORY_LIMIT`. */
  top_ups: z.array(topUpRecordSchema),
  /** Whether the caller may change these (its parent's admins; the server decides with maySetSpendControls). */
  can_edit: z.boolean(),
});
export type SpendControls = z.infer<typeof spendControlsSchema>;
