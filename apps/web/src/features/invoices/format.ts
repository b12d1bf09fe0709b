import { formatDecimal } from '@/lib/credit-format';

// Days and months are written as every date of the console is.
export { formatDay, formatMonth as monthLabel } from '@/lib/dates';

/** An exact amount in a currency, never through a float: "1,234.50 EUR". */
export function formatMoney(amount: string, currency: string | null | undefined): string {
  return currency ? `${formatDecimal(amount)} ${currency}` : formatDecimal(amount);
}

const monthOf = (date: Date) => `${date.getUTCFullYear()}-${String(date.getUTCMonth() + 1).padStart(2, '0')}`;

/** The months (UTC) from this one back, newest first: `count` of them. */
export function recentMonths(count: number, now: Date = new Date()): string[] {
  return Array.from({ length: count }, (_, back) => monthOf(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, 1))));
}

/** The month before this one (UTC): the one a statement or an export is usually about. */
export function lastMonth(now: Date = new Date()): string {
  return recentMonths(2, now)[1]!;
}

/** Today (UTC) as "YYYY-MM-DD": the server refuses a payment dated after its own today. */
export function todayUtc(now: Date = new Date()): string {
  return now.toISOString().slice(0, 10);
}

/** A rate as stored ("20.000") as one would type it ("20"; "7.250" as "7.25"). */
export const plainRate = (rate: string): string => (rate.includes('.') ? rate.replace(/0+$/, '').replace(/\.$/, '') : rate);

/** Whether a non-negative decimal string is above zero. */
export const isPositive = (amount: string): boolean => !amount.trim().startsWith('-') && /[1-9]/.test(amount);
