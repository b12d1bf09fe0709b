import { z } from 'zod';
import { ALERT_LINE_MESSAGES as m } from '../alert-line-messages.ts';
import { amountStringSchema } from './amounts.ts';

/**
 * What an alert line watches: the balance (alerts when it falls below the bound, in credits),
 * a percent of the organization's subtree spend cap in its current window (alerts at or above
 * the bound, in percent), or the days of runway left at the dashboard's forecast rate (alerts
 * when fewer than the bound, in days).
 */
export const ALERT_LINE_KINDS = ['balance', 'cap_percent', 'runway_days'] as const;
export type AlertLineKind = (typeof ALERT_LINE_KINDS)[number];

/** The window of the spend cap a percent line measures. */
export const ALERT_LINE_WINDOWS = ['day', 'week', 'month'] as const;
export type AlertLineWindow = (typeof ALERT_LINE_WINDOWS)[number];

/** The most alert lines one organization may hold. */
export const ALERT_LINES_MAX = 20;

/** A number typed as a JSON number or a string, read exactly into "N.NN", or refused with `message`. */
function boundSchema(message: string, test: (whole: bigint, cents: string) => boolean) {
  return z.union([z.number(), z.string()], { error: message }).transform((value, ctx) => {
    const text = typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : value.trim();
    const match = /^(\d{1,12})(?:\.(\d{1,2}))?$/.exec(text);
    const cents = (match?.[2] ?? '').padEnd(2, '0');
    if (!match || !test(BigInt(match[1]!), cents)) {
      ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    }
    return `${BigInt(match[1]!)}.${cents}`;
  });
}

const wholeIn = (min: bigint, max: bigint) => (whole: bigint, cents: string) => cents === '00' && whole >= min && whole <= max;

/** A new line, or a line's new bound (its kind never changes). */
export const alertLineInputSchema = z.discriminatedUnion(
  'kind',
  [
    z.object({ kind: z.literal('balance'), bound: boundSchema(m.balanceInvalid, () => true) }),
    z.object({
      kind: z.literal('cap_percent'),
      bound: boundSchema(m.percentInvalid, wholeIn(1n, 100n)),
      window: z.enum(ALERT_LINE_WINDOWS, { error: m.windowInvalid }).default('month'),
    }),
    z.object({ kind: z.literal('runway_days'), bound: boundSchema(m.daysInvalid, wholeIn(1n, 365n)) }),
  ],
  { error: m.kindInvalid },
);
export type AlertLineInput = z.input<typeof alertLineInputSchema>;
export type AlertLineBody = z.output<typeof alertLineInputSchema>;

export const alertLineParamsSchema = z.object({ id: z.uuid(), lineId: z.uuid({ error: 'Not a valid id.' }) });

/** One line as the API and the console show it. */
export const alertLineSchema = z.object({
  id: z.uuid(),
  kind: z.enum(ALERT_LINE_KINDS),
  /** Credits for a balance line, percent for a cap line, days for a runway line; two decimals. */
  bound: amountStringSchema,
  /** The cap window of a percent line; null for the other kinds. */
  window: z.enum(ALERT_LINE_WINDOWS).nullable(),
  /** The line the organization's low-balance threshold sets (setLowBalanceThreshold moves it; deleting it sets the threshold to 0). */
  low_balance_threshold: z.boolean(),
  /** Whether the watched value is past the bound now: it alerted when it crossed and alerts again only after coming back. */
  crossed: z.boolean(),
  /** The value last seen (credits, percent or days), or null when not measured yet or without a cap or usage. */
  value: amountStringSchema.nullable(),
  crossed_at: z.string().nullable(),
  /** One sentence stating the bound, as the mail and the console say it. */
  description: z.string(),
});
export type AlertLine = z.infer<typeof alertLineSchema>;

export const alertLinesResponseSchema = z.object({
  organization_id: z.uuid(),
  lines: z.array(alertLineSchema),
  /** Whether the caller may add, change and delete lines here (`mayManageAlertLines`). */
  can_manage: z.boolean(),
  max: z.number().int(),
});
export type AlertLinesResponse = z.infer<typeof alertLinesResponseSchema>;
